"""The JSON API under /api/v1: each answer checked against the OpenAPI document (openapi_check),
404 for a server off the web and a hidden member, and replays that show only the public table."""

from __future__ import annotations

import json

from jsonschema import Draft202012Validator
from openapi_check import api_get, document
from web_seed import HIDDEN, OFF, ON, client_of, seed

from rules.log import load, public_record, replay
from web.replay import seat_key

API = f"/api/v1/servers/{ON}"


async def test_the_document_is_served_and_its_schemas_are_valid(client):
    response = await client.get("/api/v1/openapi.json")
    assert response.status == 200 and await response.json() == document()
    assert document()["openapi"].startswith("3.1")
    for schema in document()["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)  # raises, naming the fault


async def test_a_server_its_boards_its_players_and_its_games(client, community):
    status, server = await api_get(client, API)
    assert status == 200 and server["server_id"] == str(ON)
    listed = [g["id"] for g in server["recent_games"]]
    assert community.running in listed and community.lobby not in listed
    for sort in ("rating", "games", "wins", "win_rate", "points", "name"):
        status, board = await api_get(client, f"{API}/leaderboards/kamiza?sort={sort}")
        assert status == 200 and board["sort"] == sort and board["rows"]
    status, board = await api_get(client, f"{API}/leaderboards/kobayakawa?season=1&page=0")
    assert status == 200 and board["season"]["number"] == 1
    assert [r["rank"] for r in board["rows"]] == sorted(r["rank"] for r in board["rows"])
    status, ann = await api_get(client, f"{API}/players/1001")
    assert status == 200 and ann["name"] == "Ann" and ann["history"] and ann["records"]
    for game_id in [*community.kamiza, *community.kobayakawa, *community.losers]:
        status, game = await api_get(client, f"{API}/games/{game_id}")
        assert status == 200 and game["status"] == "finished" and game["result"]
    status, running = await api_get(client, f"{API}/games/{community.running}")
    assert status == 200 and running["result"] is None and len(running["steps"]) == 6


async def test_off_servers_hidden_members_and_the_unknown_are_404(client, community):
    off = f"/api/v1/servers/{OFF}"
    for path in (
        off,
        f"{off}/leaderboards/kamiza",
        f"{off}/players/1001",
        f"{off}/games/{community.off}",
        f"{API}/players/{HIDDEN[0]}",
        f"{API}/players/999",
        f"{API}/games/{community.off}",  # a game of another server
        f"{API}/games/{community.lobby}",  # no table yet
        f"{API}/games/99999",
        f"{API}/leaderboards/chess",
        f"{API}/leaderboards/kamiza?season=9",
        f"{API}/games/abc",
        "/api/v1/servers/x",
    ):
        status, body = await api_get(client, path)
        assert (status, body) == (404, {"error": "not found"}), path
    for query in ("sort=user_id", "page=-1", "page=x", "season=0"):
        status, body = await api_get(client, f"{API}/leaderboards/kamiza?{query}")
        assert status == 400, query


async def test_a_hidden_member_appears_nowhere(client, community):
    bodies = [(await api_get(client, API))[1]]
    for game in ("kamiza", "kobayakawa", "rights-of-losers"):
        bodies.append((await api_get(client, f"{API}/leaderboards/{game}"))[1])
    for user in (1001, 1002, 1003, 1004):
        bodies.append((await api_get(client, f"{API}/players/{user}"))[1])
    for game_id in [*community.kamiza, *community.kobayakawa, community.running]:
        bodies.append((await api_get(client, f"{API}/games/{game_id}"))[1])
    text = json.dumps(bodies, ensure_ascii=False)
    assert HIDDEN[1] not in text and str(HIDDEN[0]) not in text
    assert '"hidden":true' in text.replace(" ", "")  # their seats are there, nameless


async def test_a_replay_is_the_public_record_step_by_step_and_ends_as_the_rules_say(
    client, community
):
    for game_id in [*community.kamiza, *community.kobayakawa, *community.losers]:
        log = community.logs[game_id]
        _, game = await api_get(client, f"{API}/games/{game_id}")
        seats = {p: seat_key(i) for i, p in enumerate(log["players"])}
        expected = replay(log)
        assert game["result"] == {
            "scores": {seats[p]: s for p, s in expected["scores"].items()},
            "winners": [seats[p] for p in expected["winners"]],
        }
        record = public_record(log)
        shown = [[e["event"] for e in step["events"]] for step in game["steps"]]
        renamed = json.loads(_renamed_text(json.dumps(record), seats))
        assert shown == [renamed["opening"], *[s["events"] for s in renamed["steps"]]]
        final = json.loads(_renamed_text(json.dumps(load(log).view(None)), seats))
        assert game["steps"][-1]["table"] == final
        assert "seed" not in json.dumps(game) and "actions" not in json.dumps(game)


def _renamed_text(text: str, seats: dict[str, str]) -> str:
    for player, seat in seats.items():
        text = text.replace(f'"{player}"', f'"{seat}"')
    return text


async def test_kobayakawa_on_the_web_keeps_a_passing_players_card_hidden(client, community):
    """G-3 (B-5): only fighters reveal, and only when two or more fight."""
    passed_at_a_showdown = 0
    for game_id in community.kobayakawa:
        _, game = await api_get(client, f"{API}/games/{game_id}")
        for step in game["steps"]:
            assert step["table"].get("card") is None  # a spectator holds no card
            for entry in step["events"]:
                event = entry["event"]
                if event["type"] != "showdown":
                    continue
                fighters = event["fighters"]
                assert set(event["cards"]) <= set(fighters)
                if len(fighters) < 2:
                    assert event["cards"] == {} and event["totals"] == {}
                passed_at_a_showdown += len(game["players"]) > len(fighters)
    assert passed_at_a_showdown  # the seeds include players who passed


async def test_the_api_answers_alike_on_postgresql(any_web_ledger):
    community = await seed(any_web_ledger)
    client = await client_of(any_web_ledger)
    try:
        _, board = await api_get(client, f"{API}/leaderboards/kamiza?sort=win_rate")
        assert board["total"] == 4 and str(HIDDEN[0]) not in json.dumps(board)
        _, game = await api_get(client, f"{API}/games/{community.kamiza[0]}")
        assert game["result"] is not None
        status, _ = await api_get(client, f"/api/v1/servers/{OFF}")
        assert status == 404
    finally:
        await client.close()
