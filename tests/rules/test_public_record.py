"""G-3 in exported records: `rules.log.public_record` keeps only what the table showed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest

from rules.base import Event, UnclassifiedEvent
from rules.kamiza import Kamiza
from rules.kobayakawa import Kobayakawa
from rules.log import LogError, public_record, replay
from rules.losers import RightsOfLosers
from rules.losers_board import CARD_IDS
from rules.random_play import random_match

SECRET_KEYS = {"setup", "seed", "decks", "hands", "actions", "keep"}


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner)


def scalars(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for inner in value.values():
            yield from scalars(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from scalars(inner)
    else:
        yield value


def events_of(record: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [e for step in record["steps"] for e in step["events"] if e["type"] == kind]


# -- Kobayakawa ------------------------------------------------------------------------------------


def kobayakawa_deck(*front: int) -> list[int]:
    return [*front, *(c for c in range(1, 16) if c not in front)]


def kobayakawa_log(decks: list[list[int]], moves: list[tuple[str, dict[str, str]]]) -> dict:
    return {
        "format": 1,
        "game": "kobayakawa",
        "players": ["ann", "ben", "cho"],
        "setup": {"start_player": "ann", "decks": decks, "seed": 7},
        "actions": [{"player": p, **fields} for p, fields in moves],
    }


DRAW_HELD = {"action": "draw", "keep": "held"}
DRAW_DRAWN = {"action": "draw", "keep": "drawn"}
FIGHT = {"action": "fight"}
PASS = {"action": "pass"}


def test_g3_kobayakawa_record_hides_passed_lone_and_kept_cards() -> None:
    """Seven rounds: ann (14) always fights alone, ben (15) always passes; in round 1 cho draws
    13, keeps it and passes. 13, 14 and 15 are never shown by the table, and no other number
    of the game reaches 13 (kamons stay at 12 or fewer), so none may appear in the record."""
    first = kobayakawa_deck(14, 15, 3, 1, 2, 4, 13)  # pile: 2, 4, 13, ...
    later = kobayakawa_deck(14, 15, 3, 1, 2, 4, 5)
    moves = [
        ("ann", DRAW_HELD),
        ("ben", DRAW_HELD),
        ("cho", DRAW_DRAWN),  # keeps 13, discards 3
        ("ann", FIGHT),
        ("ben", PASS),
        ("cho", PASS),
    ]
    for _ in range(6):
        moves += [(p, DRAW_HELD) for p in ("ann", "ben", "cho")]
        moves += [("ann", FIGHT), ("ben", PASS), ("cho", PASS)]
    log = kobayakawa_log([first] + [later] * 6, moves)
    assert replay(log)["over"]
    assert {13, 14, 15} <= set(scalars(log))  # the full log holds them

    record = public_record(log)
    assert not SECRET_KEYS & set(keys(record))
    assert not {13, 14, 15} & {v for v in scalars(record) if type(v) is int}
    assert events_of(record, "drew")[2] == {"type": "drew", "player": "cho", "discarded": 3}
    for showdown in events_of(record, "showdown"):
        assert showdown["fighters"] == ["ann"] and showdown["why"] == "lone_fighter"
        assert showdown["cards"] == {} and showdown["totals"] == {}
    assert record["result"] == {"scores": {"ann": 12, "ben": 4, "cho": 4}, "winners": ["ann"]}
    assert json.loads(json.dumps(record)) == record


def test_g3_kobayakawa_showdown_shows_fighters_only_and_no_result_before_the_end() -> None:
    """B-5: ann (9) and cho (3 + Kobayakawa 1) reveal; ben passed, his 15 stays hidden."""
    log = kobayakawa_log(
        [kobayakawa_deck(9, 15, 3, 1, 2, 4, 5), kobayakawa_deck()],
        [
            ("ann", DRAW_HELD),
            ("ben", DRAW_HELD),
            ("cho", DRAW_HELD),
            ("ann", FIGHT),
            ("ben", PASS),
            ("cho", FIGHT),
        ],
    )
    record = public_record(log)
    (showdown,) = events_of(record, "showdown")
    assert showdown["cards"] == {"ann": 9, "cho": 3}
    assert showdown["totals"] == {"ann": 9, "cho": 4}
    assert showdown["lowest"] == "cho" and showdown["winner"] == "ann"
    assert 15 not in set(scalars(record))
    assert record["opening"][0]["kobayakawa"] == 1  # the first Kobayakawa lies face up
    assert "result" not in record  # round 2 is being played
    assert [s["player"] for s in record["steps"]] == ["ann", "ben", "cho"] * 2


# -- KAMIZA ----------------------------------------------------------------------------------------


def kamiza_log(advanced: bool, plays: list[tuple[str, str, str]]) -> dict:
    return {
        "game": "kamiza",
        "options": {"advanced": advanced},
        "players": ["ann", "ben", "cho"],
        "setup": {"start_player": "ann", "seed": 3},
        "actions": [{"player": p, "card": c, "area": a} for p, c, a in plays],
    }


ROUND = [("ann", "boss", "kamiza"), ("ben", "hitman", "kamiza"), ("cho", "underboss", "shimoza")]


def test_g3_k3_kamiza_face_down_cards_show_only_their_area_until_the_reveal() -> None:
    record = public_record(kamiza_log(False, ROUND))
    placed = [step["events"][0] for step in record["steps"]]
    assert placed == [
        {"type": "card_placed", "player": p, "area": a, "face_up": False, "card": None}
        for p, _, a in ROUND
    ]
    # nothing of a card before the last one is down: no card name in the first two steps
    names = {"boss", "underboss", "hitman", "policeman"}
    assert not names & set(scalars(record["steps"][:2]))
    kinds = [e["type"] for e in record["steps"][2]["events"]]
    assert kinds[:2] == ["card_placed", "round_revealed"] and "hit" in kinds
    (revealed,) = events_of(record, "round_revealed")
    assert revealed["plays"] == [{"player": p, "card": c, "area": a} for p, c, a in ROUND]
    assert record["opening"] == [
        {
            "type": "round_started",
            "game": 1,
            "round": 1,
            "start_player": "ann",
            "reason": "chosen",
            "order": ["ann", "ben", "cho"],
        }
    ]
    assert not SECRET_KEYS & set(keys(record))


def test_g3_k3_advanced_start_players_card_is_face_up_in_the_record() -> None:
    record = public_record(kamiza_log(True, ROUND[:2]))
    first, second = (step["events"][0] for step in record["steps"])
    assert first == {
        "type": "card_placed",
        "player": "ann",
        "area": "kamiza",
        "face_up": True,
        "card": "boss",
    }
    assert second["card"] is None and second["face_up"] is False
    assert "hitman" not in set(scalars(record))


def test_g3_kamiza_finished_record_has_the_result() -> None:
    state, log = random_match("kamiza", ["ann", "ben", "cho", "dev"], 11)
    record = public_record(log)
    assert record["result"] == {"scores": state.scores(), "winners": state.winners()}
    assert record["options"] == {"edition": "second", "advanced": False}
    assert record["players"] == log["players"] and record["public"] is True
    assert len(record["steps"]) == len(log["actions"])


# -- Rights of Losers ------------------------------------------------------------------------------


def test_g3_r1_losers_record_has_no_hands_and_cards_appear_when_played() -> None:
    _, log = random_match("rights-of-losers", ["ann", "ben", "cho"], 5)
    record = public_record(log)
    assert not SECRET_KEYS & set(keys(record))
    dealt = {card for hand in log["setup"]["hands"].values() for card in hand}
    unused = set(CARD_IDS) - dealt  # never seen by anyone
    assert not unused & set(scalars(record))
    played: set[str] = set()
    for step, entry in zip(record["steps"], log["actions"], strict=True):
        if entry["action"] == "play":
            played.add(entry["card"])
        shown = {v for v in scalars(step["events"]) if v in set(CARD_IDS)}
        assert shown <= played, f"{sorted(shown - played)} shown before being played"
    assert record["opening"] == [
        {
            "type": "trick_started",
            "trick": 1,
            "lead": log["setup"]["lead_player"],
            "reason": "chosen",
            "reversed": False,
        }
    ]


# -- every game ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Whispered(Event):
    kind: ClassVar[str] = "whispered"
    player: str
    secret: int


@pytest.mark.parametrize("cls", [Kamiza, Kobayakawa, RightsOfLosers])
def test_g3_an_event_nobody_classified_is_never_shown(cls) -> None:
    with pytest.raises(UnclassifiedEvent, match="whispered"):
        cls.public_event(Whispered("ann", 42))


def test_a_log_that_does_not_replay_names_its_action() -> None:
    log = kamiza_log(False, [*ROUND[:1], ("ann", "boss", "kamiza")])
    with pytest.raises(LogError) as caught:
        public_record(log)
    assert caught.value.index == 1
