"""The web companion's aiohttp application: HTML pages (Jinja2) and the JSON API, read-only.

Every answer comes from `web.model.Site`; a page renders it, the API returns it. What must not
be shown (a server that is off, a hidden member) answers 404 like what does not exist.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from aiohttp import web
from markupsafe import Markup

from bot import web_paths as paths
from web.chart import rating_chart
from web.model import BadRequest, NotFound, Site, WebLedger, parse_id, parse_int
from web.told import tell
from web.words import Words, chosen, glossary_prefix

HERE = Path(__file__).resolve().parent
# Scripts and styles only from the site itself: an injected tag could not run even if a name
# slipped through the escaping.
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
SITE: web.AppKey[Site] = web.AppKey("site", Site)
TEMPLATES: web.AppKey[jinja2.Environment] = web.AppKey("templates", jinja2.Environment)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every value, user text above all, is escaped
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


def words(request: web.Request) -> Words:
    """The request's language (README "Web companion": ?lang=, else Accept-Language)."""
    lang, sticky = chosen(request.query, request.headers.get("Accept-Language"))
    return Words(lang, sticky)


def render(
    request: web.Request, template: str, context: Mapping[str, Any], status: int = 200
) -> web.Response:
    """A page: `template` filled with `context` (the model's data, which has a "status" key
    of its own, and the page's helpers) and `w`, its words in the request's language."""
    w = context.get("w") or words(request)
    switch = str(request.rel_url.update_query(lang=w.other))
    page = {**context, "w": w, "switch": switch}
    text = request.app[TEMPLATES].get_template(template).render(**page)
    response = web.Response(text=text, status=status, content_type="text/html", charset="utf-8")
    response.headers["Content-Language"] = w.lang
    response.headers["Vary"] = "Accept-Language"  # a cache keeps one page per language
    return response


def seat_names(players: list[dict[str, Any]], w: Words) -> dict[str, str]:
    """Each seat key's name on the page: a hidden member's seat says so, nameless."""
    return {p["seat"]: w("web.hidden_player") if p["hidden"] else str(p["name"]) for p in players}


# -- pages ---------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    w = words(request)
    command = "/{} {}: {}".format(
        w("cmd.settings.name"),
        w("cmd.settings.param.web.name"),
        w("cmd.settings.param.web.choice.on"),
    )  # the bot's command as a member sees it in this language
    page = {"server_id": None, "command": Markup("<code>{}</code>").format(command), "w": w}
    return render(request, "index.html", page)


async def server_page(request: web.Request) -> web.Response:
    data = await request.app[SITE].server(parse_id(request.match_info["guild"]))
    return render(request, "server.html", data)


def _board_query(request: web.Request) -> tuple[int | None, str, int]:
    season = request.query.get("season")
    number = parse_int(season, "season", 0, 1) if season else None
    return (
        number,
        request.query.get("sort", "rating"),
        parse_int(request.query.get("page"), "page", 0),
    )


# The board's columns (their headings: `web.column.<key>`) and whether each is a number.
COLUMNS = (
    ("name", False),
    ("rating", True),
    ("games", True),
    ("wins", True),
    ("win_rate", True),
    ("points", True),
)


async def leaderboard_page(request: web.Request) -> web.Response:
    guild_id, game = parse_id(request.match_info["guild"]), request.match_info["game"]
    number, sort, page = _board_query(request)
    data = await request.app[SITE].leaderboard(guild_id, game, number, sort, page)

    def link(*, season: int | None, sort: str, page: int) -> str:
        query = {k: v for k, v in (("season", season), ("sort", sort), ("page", page)) if v}
        base = paths.leaderboard(guild_id, game)
        return f"{base}?{urlencode(query)}" if query else base

    return render(request, "leaderboard.html", {**data, "link": link, "columns": COLUMNS})


async def player_page(request: web.Request) -> web.Response:
    guild_id, user_id = parse_id(request.match_info["guild"]), parse_id(request.match_info["user"])
    data = await request.app[SITE].player(guild_id, user_id)
    return render(request, "player.html", {**data, "chart": rating_chart(data["history"])})


async def game_page(request: web.Request) -> web.Response:
    guild_id, game_id = parse_id(request.match_info["guild"]), parse_id(request.match_info["id"])
    step = parse_int(request.query.get("step"), "step", 0)
    data = await request.app[SITE].game_step(guild_id, game_id, step)
    w = words(request)
    w.glossary = glossary_prefix(data["game"])
    names = seat_names(data["players"], w)

    def step_url(index: int) -> str:
        return paths.game(guild_id, game_id, step=index) + "#replay"

    def name(seat: str) -> str:
        return names.get(seat, seat)

    # Each shown event in the bot's words where it has some (None: the page shows its data).
    told = [tell(data["game"], event, w.lang, name) for event in data["shown"]]
    page = {**data, "names": names, "step_url": step_url, "told": told, "w": w}
    return render(request, "game.html", page)


# -- the JSON API --------------------------------------------------------------------------------


def as_json(data: Any, status: int = 200) -> web.Response:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return web.Response(text=text, status=status, content_type="application/json")


async def api_server(request: web.Request) -> web.Response:
    return as_json(await request.app[SITE].server(parse_id(request.match_info["guild"])))


async def api_leaderboard(request: web.Request) -> web.Response:
    guild_id, game = parse_id(request.match_info["guild"]), request.match_info["game"]
    number, sort, page = _board_query(request)
    return as_json(await request.app[SITE].leaderboard(guild_id, game, number, sort, page))


async def api_player(request: web.Request) -> web.Response:
    guild_id, user_id = parse_id(request.match_info["guild"]), parse_id(request.match_info["user"])
    return as_json(await request.app[SITE].player(guild_id, user_id))


async def api_game(request: web.Request) -> web.Response:
    guild_id, game_id = parse_id(request.match_info["guild"]), parse_id(request.match_info["id"])
    return as_json(await request.app[SITE].game(guild_id, game_id))


async def api_document(request: web.Request) -> web.Response:
    return web.Response(
        text=resources.files("web").joinpath("openapi.json").read_text(encoding="utf-8"),
        content_type="application/json",
    )


# -- errors and headers --------------------------------------------------------------------------

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def answers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """404 and 400 as a page or, under the API, as JSON; the security headers on everything."""
    api = request.path.startswith(paths.API)
    try:
        response = await handler(request)
    except (NotFound, web.HTTPNotFound):
        if api:
            response = as_json({"error": "not found"}, 404)
        else:
            w = words(request)
            title, message = w("web.error.not_found"), w("web.error.nothing")
            page = {"server_id": None, "title": title, "message": message, "w": w}
            response = render(request, "error.html", page, 404)
    except BadRequest as exc:
        if api:
            response = as_json({"error": str(exc)}, 400)
        else:
            w = words(request)
            title, message = w("web.error.bad_request"), w(exc.key, **exc.params)
            page = {"server_id": None, "title": title, "message": message, "w": w}
            response = render(request, "error.html", page, 400)
    response.headers.update(SECURITY_HEADERS)
    return response


def make_app(ledger: WebLedger) -> web.Application:
    """The site over `ledger` (open; the caller closes it)."""
    app = web.Application(middlewares=[answers])
    app[SITE] = Site(ledger)
    app[TEMPLATES] = environment()
    guild = "/s/{guild}"
    api = f"{paths.API}/servers/{{guild}}"
    app.add_routes(
        [
            web.get("/", index),
            web.get(guild, server_page),
            web.get(f"{guild}/leaderboard/{{game}}", leaderboard_page),
            web.get(f"{guild}/players/{{user}}", player_page),
            web.get(f"{guild}/games/{{id}}", game_page),
            web.get(f"{paths.API}/openapi.json", api_document),
            web.get(api, api_server),
            web.get(f"{api}/leaderboards/{{game}}", api_leaderboard),
            web.get(f"{api}/players/{{user}}", api_player),
            web.get(f"{api}/games/{{id}}", api_game),
            web.static("/static", HERE / "static"),
        ]
    )
    return app
