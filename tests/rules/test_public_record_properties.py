"""G-3 over many random games: a public record holds nothing a spectator's view would not.

Each game is replayed beside its record: every step is checked against the state the table
showed (`view(None)`) and against what the full log knows and the table never showed.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.kamiza import ALL_CARDS
from rules.log import apply_entry, public_record, replay, start
from rules.losers_board import CARD_IDS
from rules.random_play import random_match
from tests.rules.test_public_record import keys, scalars

SETTINGS = settings(max_examples=60, derandomize=True, deadline=None)
SECRET_KEYS = {"setup", "seed", "decks", "hands", "actions", "keep"}
NAMES = ["ann", "ben", "cho", "dev", "eve", "fay"]
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def common_checks(log: dict[str, Any], record: dict[str, Any]) -> None:
    """No setup or action list; one step per action, by its player; the result once over."""
    assert json.loads(json.dumps(record)) == record
    assert not SECRET_KEYS & set(keys(record)), sorted(SECRET_KEYS & set(keys(record)))
    assert [s["player"] for s in record["steps"]] == [a["player"] for a in log["actions"]]
    replayed = replay(log)
    assert replayed["over"] and record["result"] == {
        "scores": replayed["scores"],
        "winners": replayed["winners"],
    }


@SETTINGS
@given(seeds, st.sampled_from([3, 4]), st.sampled_from(["second", "classic"]), st.booleans())
def test_g3_k3_kamiza_record_shows_what_the_table_showed(seed, n, edition, advanced) -> None:
    options = {"edition": edition, "advanced": advanced}
    _, log = random_match("kamiza", NAMES[:n], seed, options)
    record = public_record(log)
    common_checks(log, record)
    state = start(log)
    for step, entry in zip(record["steps"], log["actions"], strict=True):
        apply_entry(state, entry)
        events = step["events"]
        if any(e["type"] == "round_revealed" for e in events):
            continue  # the reveal turns every card of the round face up
        (placed,) = events
        spectator = state.view(None)["table"][-1]
        assert {k: placed[k] for k in ("player", "area", "card")} == spectator
        assert {v for v in scalars(events) if v in ALL_CARDS} <= {spectator["card"]}


def shown_pairs(events: list[dict[str, Any]]) -> set[tuple[str, int]]:
    """Every (player, card) a reader of these events could pair up."""
    pairs: set[tuple[str, int]] = set()
    for event in events:
        for field in ("cards", "totals"):
            pairs |= set(event.get(field, {}).items())
        if "player" in event:
            pairs |= {(event["player"], event[f]) for f in ("card", "discarded") if f in event}
    return pairs


@SETTINGS
@given(seeds, st.integers(min_value=3, max_value=6))
def test_g3_b3_b5_kobayakawa_record_hides_passed_lone_and_kept_cards(seed, n) -> None:
    _, log = random_match("kobayakawa", NAMES[:n], seed)
    record = public_record(log)
    common_checks(log, record)
    state = start(log)
    round_events: list[dict[str, Any]] = []
    hidden_seen = 0
    for step, entry in zip(record["steps"], log["actions"], strict=True):
        cards = dict(state.cards)  # the cards held now, before this action
        full = apply_entry(state, entry)
        round_events += step["events"]
        if entry["action"] == "draw":
            (drew,) = (e for e in step["events"] if e["type"] == "drew")
            assert set(drew) == {"type", "player", "discarded"}  # not which card was kept
            assert state.view(None)["discards"][entry["player"]] == drew["discarded"]
        ended = next((e for e in full if e.kind in ("showdown", "nobody_fought")), None)
        if ended is None:
            continue
        fighters = getattr(ended, "fighters", ())
        revealed = set(fighters) if len(fighters) > 1 else set()
        hidden = {(p, cards[p]) for p in cards if p not in revealed}
        shown = shown_pairs(round_events)
        assert not hidden & shown, (hidden, round_events)
        assert {(p, cards[p]) for p in revealed} <= shown  # B-5: fighters do reveal
        hidden_seen += len(hidden)
        round_events = []
    assert hidden_seen  # every game has at least one round with a hidden card


@SETTINGS
@given(seeds, st.integers(min_value=3, max_value=5))
def test_g3_r1_losers_record_has_no_hand_and_no_card_before_it_is_played(seed, n) -> None:
    _, log = random_match("rights-of-losers", NAMES[:n], seed)
    record = public_record(log)
    common_checks(log, record)
    cards = set(CARD_IDS)
    played: set[str] = set()
    for step, entry in zip(record["steps"], log["actions"], strict=True):
        if entry["action"] == "play":
            played.add(entry["card"])
        shown = {v for v in scalars(step["events"]) if v in cards}
        assert shown <= played, f"{sorted(shown - played)} shown before being played"
    assert not {v for v in scalars(record["opening"]) if v in cards}
