"""The worked examples of the rule sheet (seeds/kobayakawa-rules.txt) as logs replayed by
`python -m rules replay`. Each plays the round the example describes, so its setup holds that
round's deck only, as LOG_FORMAT.md allows for rounds never reached (B-2)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from rules.log import public_record

P3 = ["ann", "ben", "cho"]


def deck(*front: int) -> list[int]:
    """`front` dealt first (clockwise from the start player), then the Kobayakawa, the pile."""
    return [*front, *(c for c in range(1, 16) if c not in front)]


def one_round(decks: list[list[int]], moves: list[tuple[str, str]]) -> dict[str, Any]:
    """A log of ann, ben and cho, ann to start; moves: (player, "held"|"drawn"|action)."""
    actions = [
        {"player": p, "action": "draw", "keep": m}
        if m in ("held", "drawn")
        else {"player": p, "action": m}
        for p, m in moves
    ]
    return {
        "format": 1,
        "game": "kobayakawa",
        "options": {},
        "players": P3,
        "setup": {"start_player": "ann", "decks": decks, "seed": 1},
        "actions": actions,
    }


def replay(log: dict[str, Any]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", "-"],
        input=json.dumps(log),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


def refused(log: dict[str, Any]) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "rules", "replay", "-"],
        input=json.dumps(log),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and done.stdout == ""
    return done.stderr.strip()


def shown(log: dict[str, Any], kind: str) -> dict[str, Any]:
    """The event of that kind as the table saw it (G-3): the public record's."""
    events = [e for step in public_record(log)["steps"] for e in step["events"]]
    event: dict[str, Any] = next(e for e in events if e["type"] == kind)
    return event


KEEP = [("ann", "held"), ("ben", "held"), ("cho", "held")]
ALL_FIGHT = [("ann", "fight"), ("ben", "fight"), ("cho", "fight")]


def test_b5_sheet_the_lowest_8_adds_the_kobayakawa_7_for_15() -> None:
    # "In this fight, 8 is the lowest value. So we add the Kobayakawa card (7) to that value
    # for a total of 15." ann 12, ben 8, cho 14; the Kobayakawa 7.
    log = one_round([deck(12, 8, 14, 7)], [*KEEP, *ALL_FIGHT])
    answer = replay(log)
    # B-6: ben takes the 3 bets and 1 kamon from the centre, and starts round 2, which this
    # setup has no deck for: nothing more can be played.
    assert answer["scores"] == {"ann": 3, "ben": 7, "cho": 3}
    assert answer["next"] == {"player": "ben", "expects": "draw"} and answer["over"] is False
    assert (answer["round"], answer["phase"], answer["kobayakawa"]) == (2, "draw", None)
    assert (answer["centre"], answer["pot"], answer["winners"]) == (7, 0, [])
    showdown = shown(log, "showdown")
    assert showdown["totals"] == {"ann": 12, "ben": 15, "cho": 14}
    assert (showdown["lowest"], showdown["winner"], showdown["why"]) == ("ben", "ben", "highest")
    more = one_round([deck(12, 8, 14, 7)], [*KEEP, *ALL_FIGHT, ("ben", "held")])
    assert refused(more) == "action 6: B-2: the setup has no deck for round 2"


def test_b5_sheet_equal_totals_whoever_went_first_in_the_round_wins() -> None:
    # "If more than one player has the highest number, whoever went first in the round wins."
    # ann 6, ben 10, cho 3 + the Kobayakawa 7 = 10: ben and cho tie, ben played before cho.
    answer = replay(one_round([deck(6, 10, 3, 7)], [*KEEP, *ALL_FIGHT]))
    assert answer["next"] == {"player": "ben", "expects": "draw"}
    assert answer["scores"] == {"ann": 3, "ben": 7, "cho": 3}


def test_b5_sheet_a_lone_fighter_wins_without_revealing() -> None:
    # "If you are the only player in the fight, you automatically win. You do not need to
    # reveal your card."
    log = one_round(
        [deck(12, 8, 14, 7)], [*KEEP, ("ann", "pass"), ("ben", "fight"), ("cho", "pass")]
    )
    answer = replay(log)
    assert answer["next"] == {"player": "ben", "expects": "draw"}
    assert answer["scores"] == {"ann": 4, "ben": 5, "cho": 4}
    showdown = shown(log, "showdown")
    assert showdown["why"] == "lone_fighter" and showdown["cards"] == {}


def test_b3_sheet_draw_and_keep_one_or_replace_the_kobayakawa_unseen() -> None:
    # "Draw one card from the deck and compare it with the card in your hand. Choose one card
    # to keep. Discard the other face-up" / "Without looking, draw a card from the top of the
    # deck to replace the current Kobayakawa card." ann 5 draws 10 and keeps it; ben replaces
    # the Kobayakawa 9 with 11; cho 7 draws 12 and keeps 7.
    moves = [("ann", "drawn"), ("ben", "kobayakawa"), ("cho", "held"), *ALL_FIGHT]
    log = one_round([deck(5, 6, 7, 9, 10, 11, 12)], moves)
    steps = public_record(log)["steps"]
    assert steps[0]["events"] == [{"type": "drew", "player": "ann", "discarded": 5}]
    assert steps[1]["events"][0]["kobayakawa"] == 11
    assert steps[2]["events"][0] == {"type": "drew", "player": "cho", "discarded": 12}
    # ben's 6 is the lowest and adds the Kobayakawa 11: 17 beats ann's 10 and cho's 7.
    assert replay(log)["next"] == {"player": "ben", "expects": "draw"}


def test_b6_sheet_nobody_fights_the_centre_kamon_goes_back_to_the_box() -> None:
    log = one_round([deck()], [*KEEP, ("ann", "pass"), ("ben", "pass"), ("cho", "pass")])
    answer = replay(log)
    assert answer["next"] == {"player": "ann", "expects": "draw"}  # the start player stays
    assert (answer["centre"], answer["box"]) == (7, 13)
