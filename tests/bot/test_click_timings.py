"""The bot's own time per click, for the table benchmark (`bot.click_timings`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.click_timings import LOOP_LAG, ClickTimings, kind_of


def _interaction(interaction_id: int, data: dict[str, Any]) -> Any:
    return SimpleNamespace(id=interaction_id, data=data)


def test_a_click_is_named_by_its_verb_and_a_command_by_its_name() -> None:
    assert kind_of(_interaction(1, {"custom_id": "g:kzp:12:a:b"})) == "kzp"
    command = {"name": "kamiza", "options": [{"type": 1, "name": "start", "options": []}]}
    assert kind_of(_interaction(2, command)) == "/kamiza start"
    assert kind_of(_interaction(3, {"name": "leaderboard", "options": [{"type": 3}]})) == (
        "/leaderboard"
    )


async def test_the_time_from_arrival_to_the_callback_leaving_is_written_per_kind(tmp_path) -> None:
    path = tmp_path / "timings.txt"
    timings = ClickTimings(path)
    sent: list[str] = []
    session = SimpleNamespace(request=lambda method, url, **kw: sent.append(url))
    timings.watch(session)  # type: ignore[arg-type]
    timings.start()
    timings.arrived(_interaction(42, {"custom_id": "g:kzp:1:x"}))
    timings.arrived(_interaction(43, {"custom_id": "g:hand:1"}))  # never answered here
    session.request("POST", "http://fake/api/v10/interactions/42/tok/callback")
    session.request("POST", "http://fake/api/v10/webhooks/1/tok")  # a follow-up: not a response
    await timings.close()
    lines = [line.split() for line in path.read_text().splitlines()]
    answered = [name for name, _ in lines if name != LOOP_LAG]
    assert answered == ["kzp"] and len(sent) == 2  # the requests still go
    assert all(float(ms) >= 0 for _, ms in lines)
