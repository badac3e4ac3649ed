"""The pages: a server, its leaderboards (sorted, paged), a player with the rating chart, and
a game's step-through replay that works without JavaScript; 404 pages for what is not shown."""

from __future__ import annotations

import re

from web_seed import HIDDEN, OFF, ON, client_of

from data.store import Seat

SERVER = f"/s/{ON}"


async def page(client, path: str, status: int = 200) -> str:
    response = await client.get(path)
    text = await response.text()
    assert response.status == status, (path, text[:300])
    assert response.content_type == "text/html"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    return text


async def test_the_server_page_lists_its_boards_and_games(client, community):
    text = await page(client, SERVER)
    for game in ("kamiza", "kobayakawa", "rights-of-losers"):
        assert f'href="{SERVER}/leaderboard/{game}"' in text
    assert f'href="{SERVER}/games/{community.running}"' in text
    assert f"/games/{community.lobby}" not in text and "Hidden player" in text
    assert await page(client, "/")  # the front page names no server


async def test_a_leaderboard_sorts_and_pages(client, monkeypatch):
    monkeypatch.setattr("web.model.PAGE_SIZE", 2)
    text = await page(client, f"{SERVER}/leaderboard/kamiza")
    assert text.count('href="/s/') >= 2 and "Page 1 of 2" in text
    following = f"{SERVER}/leaderboard/kamiza?season=1&amp;sort=rating&amp;page=1"
    assert f'rel="next" href="{following}"' in text
    assert f'href="{SERVER}/leaderboard/kamiza?season=1&amp;sort=wins"' in text
    by_name = await page(client, f"{SERVER}/leaderboard/kamiza?sort=name")
    names = re.findall(r'/players/\d+">([^<]+)</a>', by_name)
    assert names == sorted(names) and "Player ▾" in by_name
    second = await page(client, f"{SERVER}/leaderboard/kamiza?sort=name&page=1")
    assert "Page 2 of 2" in second and 'rel="prev"' in second
    await page(client, f"{SERVER}/leaderboard/kamiza?sort=nonsense", 400)


async def test_a_players_page_draws_their_rating(client):
    text = await page(client, f"{SERVER}/players/1001")
    assert "<h1>Ann</h1>" in text and "<svg" in text and "<polyline" in text
    assert "Rating over time" in text and "KAMIZA" in text


async def test_a_replay_steps_through_links_without_script(client, community):
    game_id = community.kamiza[0]
    steps = len(community.logs[game_id]["actions"])
    base = f"{SERVER}/games/{game_id}"
    first = await page(client, base)
    assert "The opening" in first and f"Step 0 of {steps}" in first
    assert f'rel="next" href="{base}?step=1#replay"' in first and 'rel="prev"' not in first
    middle = await page(client, f"{base}?step=3")
    assert f'rel="prev" href="{base}?step=2#replay"' in middle
    assert f'rel="next" href="{base}?step=4#replay"' in middle and " acted</h3>" in middle
    end = await page(client, f"{base}?step={steps + 50}")  # past the end: the end
    assert f"Step {steps} of {steps}" in end and 'id="result"' in end and 'rel="next"' not in end
    assert '<script src="/static/replay.js" defer></script>' in end
    script = await client.get("/static/replay.js")
    assert script.status == 200 and "ArrowRight" in await script.text()
    running = await page(client, f"{SERVER}/games/{community.running}?step=99")
    assert 'id="result"' not in running and "Step 5 of 5" in running


async def test_what_is_not_shown_is_a_404_page(client, community):
    for path in (
        f"/s/{OFF}",
        f"/s/{OFF}/leaderboard/kamiza",
        f"/s/{OFF}/games/{community.off}",
        f"{SERVER}/players/{HIDDEN[0]}",
        f"{SERVER}/games/{community.lobby}",
        f"{SERVER}/games/{community.off}",
        f"{SERVER}/leaderboard/chess",
        "/s/nonsense",
        "/nowhere",
    ):
        assert "Not found" in await page(client, path, 404)


async def test_a_hidden_member_is_on_no_page(client, community):
    paths = [SERVER, f"{SERVER}/players/1002"]
    paths += [f"{SERVER}/leaderboard/{g}" for g in ("kamiza", "kobayakawa")]
    for game_id in [*community.kamiza, *community.kobayakawa, community.running]:
        paths += [f"{SERVER}/games/{game_id}", f"{SERVER}/games/{game_id}?step=999"]
    for path in paths:
        text = await page(client, path)
        assert HIDDEN[1] not in text and str(HIDDEN[0]) not in text, path


async def test_a_bot_seat_is_named_and_not_linked(web_ledger):
    seats = [Seat("1001", 1001, "Ann"), Seat("bot-1", None, "Bot 1", True)]
    seats += [Seat("1002", 1002, "Ben")]
    game_id = await web_ledger.create_game(
        game="kobayakawa", options={}, guild_id=ON, channel_id=1, thread_id=None, host_id=1001
    )
    from rules.random_play import random_match

    _, log = random_match("kobayakawa", [s.player for s in seats], 1)
    by_player = {s.player: s for s in seats}
    ordered = [by_player[p] for p in log["players"]]
    await web_ledger.set_seats(game_id, ordered)
    await web_ledger.start_game(game_id, {k: v for k, v in log.items() if k != "actions"}, ordered)
    await web_ledger.update_guild_settings(ON, web=True)
    client = await client_of(web_ledger)
    try:
        text = await page(client, f"{SERVER}/games/{game_id}")
        assert "Bot 1" in text and "/players/None" not in text
    finally:
        await client.close()


async def test_times_are_labelled_utc(client, community):
    """The site shows stored times (UTC) to the minute and says so: "2026-11-28 03:00 UTC"."""
    labelled = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC")
    game = await page(client, f"{SERVER}/games/{community.kamiza[0]}")
    assert labelled.search(game)
    server = await page(client, SERVER)
    ended = re.findall(r"<td>([^<]*\d\d:\d\d[^<]*)</td>", server)
    assert ended and all(labelled.fullmatch(cell) for cell in ended)
