"""The web companion's aiohttp application: HTML pages (Jinja2) and the JSON API, read-only.

Every answer comes from `web.model.Site`; a page renders it, the API returns it. What must not
be shown (a server that is off, a hidden member) answers 404 like what does not exist.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from aiohttp import web

from web import paths
from web.chart import rating_chart
from web.model import BadRequest, NotFound, Site, WebLedger, parse_id, parse_int

HERE = Path(__file__).resolve().parent
TITLES = {"kamiza": "KAMIZA", "kobayakawa": "Kobayakawa", "rights-of-losers": "Rights of Losers"}
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


def game_title(name: str) -> str:
    return TITLES.get(name, name.replace("-", " ").title())


def humane(key: Any) -> str:
    """A log's field or event name as words: "hand_sizes" -> "hand sizes"."""
    return str(key).replace("_", " ")


def utc_time(value: str | None) -> str:
    """A stored time (ISO text) to the minute, labelled: "2026-11-28 03:00 UTC"; "" for none.
    The site cannot know its visitor's zone (no script needed), so it says which it shows."""
    if not value:
        return ""
    moment = datetime.fromisoformat(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def show(value: Any, names: Mapping[str, str]) -> str:
    """A replay value as plain text (escaped by the template), seats named."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, Mapping):
        if not value:
            return "—"
        return "; ".join(f"{names.get(k, humane(k))}: {show(v, names)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if not value:
            return "—"
        inner = [show(v, names) for v in value]
        nested = any(isinstance(v, list | tuple | Mapping) for v in value)
        return " | ".join(inner) if nested else ", ".join(inner)
    return str(value)


def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every value, user text above all, is escaped
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["game_title"] = game_title
    env.filters["humane"] = humane
    env.filters["show"] = show
    env.filters["utc_time"] = utc_time
    return env


def render(
    request: web.Request, template: str, context: Mapping[str, Any], status: int = 200
) -> web.Response:
    """A page: `template` filled with `context` (the model's data, which has a "status" key
    of its own, and the page's helpers)."""
    text = request.app[TEMPLATES].get_template(template).render(**context)
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


def seat_names(players: list[dict[str, Any]]) -> dict[str, str]:
    """Each seat key's name on the page: a hidden member's seat says so, nameless."""
    return {p["seat"]: "Hidden player" if p["hidden"] else str(p["name"]) for p in players}


# -- pages ---------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.Response:
    return render(request, "index.html", {"server_id": None})


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


COLUMNS = (
    ("name", "Player", False),
    ("rating", "Rating", True),
    ("games", "Games", True),
    ("wins", "Wins", True),
    ("win_rate", "Win rate", True),
    ("points", "Points", True),
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

    def step_url(index: int) -> str:
        return paths.game(guild_id, game_id, step=index) + "#replay"

    page = {**data, "names": seat_names(data["players"]), "step_url": step_url}
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
            page = {"server_id": None, "title": "Not found", "message": "Nothing to show here."}
            response = render(request, "error.html", page, 404)
    except BadRequest as exc:
        if api:
            response = as_json({"error": str(exc)}, 400)
        else:
            page = {"server_id": None, "title": "Bad request", "message": str(exc)}
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
