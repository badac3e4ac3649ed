"""Hand-written logs where RULES.md is subtle, judged by `rules.log.replay` and the reference.

Every expectation below is worked out by hand from RULES.md; each test also requires the
reference judge (tests/rules/reference_*.py) to give the same answer as `rules/`.
"""

from __future__ import annotations

from typing import Any

import pytest
import reference_kamiza
import reference_kobayakawa
import reference_losers

from rules.log import LogError, replay

REFERENCES = {
    "kamiza": reference_kamiza,
    "kobayakawa": reference_kobayakawa,
    "rights-of-losers": reference_losers,
}
COMMON = ("over", "scores", "winners", "next")


def judge(log: dict[str, Any]) -> dict[str, Any]:
    """The engine's answer, after checking that the reference agrees on the common keys."""
    ref = REFERENCES[log["game"]]
    answer = replay(log)
    mine = ref.replay(log)
    assert {k: answer[k] for k in COMMON} == {k: mine[k] for k in COMMON}
    return answer


def refused_at(log: dict[str, Any]) -> int | None:
    """The index both judges refuse the log at."""
    ref = REFERENCES[log["game"]]
    with pytest.raises(LogError) as engine:
        replay(log)
    with pytest.raises(ref.RefError) as mine:
        ref.replay(log)
    assert engine.value.index == mine.value.index
    return engine.value.index


def upto(log: dict[str, Any], count: int) -> dict[str, Any]:
    return {**log, "actions": log["actions"][:count]}


def plus(log: dict[str, Any], *entries: dict[str, Any]) -> dict[str, Any]:
    return {**log, "actions": [*log["actions"], *entries]}


def turn(player: str, expects: str) -> dict[str, str]:
    return {"player": player, "expects": expects}


# -- KAMIZA ---------------------------------------------------------------------------------------

AREA = {"k": "kamiza", "s": "shimoza"}


def kamiza(
    players: str, script: str, edition: str = "second", advanced: bool = False
) -> dict[str, Any]:
    """`script`: "ann boss k; ben hitman s; ..." (k = kamiza, s = shimoza)."""
    names = players.split()
    actions = []
    for token in filter(None, (t.strip() for t in script.split(";"))):
        player, card, area = token.split()
        actions.append({"player": player, "card": card, "area": AREA[area]})
    return {
        "format": 1,
        "game": "kamiza",
        "options": {"edition": edition, "advanced": advanced},
        "players": names,
        "setup": {"start_player": names[0]},
        "actions": actions,
    }


def test_k5_squeal_overrides_k12_across_games() -> None:
    log = kamiza(
        "ann ben cho",
        "ann boss k; ben underboss s; cho hitman s;"  # 5 / 2 / 1
        "ann hitman k; ben boss s; cho underboss k;"  # the underboss outranks the hitman: cho +2
        "ann underboss s; ben raid k; cho boss k;"  # one raid: nobody scores, ben squealed
        "ben boss k; cho underboss s; ann hitman s",
        edition="classic",
    )
    after_game_one = judge(upto(log, 9))
    assert after_game_one["scores"] == {"ann": 5, "ben": 2, "cho": 3}
    assert after_game_one["next"] == turn("ben", "play")  # not ann, who leads on points
    answer = judge(log)
    assert answer["scores"] == {"ann": 6, "ben": 7, "cho": 5}
    assert answer["next"] == turn("ben", "play")  # K-12 again: ben leads on points


def test_k5_two_raids_no_squeal_and_k8_raid_does_not_protect_the_boss() -> None:
    log = kamiza(
        "ann ben cho dev",
        "ann boss k; ben hitman k; cho raid k; dev raid s",
        edition="classic",
        advanced=True,
    )
    answer = judge(log)
    assert answer["scores"] == {"ann": 0, "ben": 4, "cho": 0, "dev": 0}
    assert answer["next"] == turn("ben", "play")


def test_k8_underboss_protects_boss_and_k9_bribe_and_k12_ties() -> None:
    log = kamiza(
        "ann ben cho dev",
        "ann hitman s; ben boss s; cho hitman k; dev underboss s;"  # ann 1, cho 1, dev 2
        "dev policeman s; ann boss k; ben policeman s; cho policeman k;"  # bribe: ann 2, cho 2
        "ann policeman k; ben underboss k; cho boss k; dev hitman k",  # boss protected, bribed
    )
    first = judge(upto(log, 4))
    assert first["scores"] == {"ann": 1, "ben": 0, "cho": 1, "dev": 2}
    assert first["next"] == turn("dev", "play")
    second = judge(upto(log, 8))
    assert second["scores"] == {"ann": 3, "ben": 0, "cho": 3, "dev": 2}
    assert second["wanted"]["cho"] == 1
    assert second["next"] == turn("ann", "play")  # ann and cho tied; ann is first after dev
    answer = judge(log)
    assert answer["scores"] == {"ann": 5, "ben": 0, "cho": 5, "dev": 2}
    assert answer["wanted"] == {"ann": 1, "ben": 0, "cho": 1, "dev": 0}
    assert answer["next"] == turn("ann", "play")  # tied with cho: the start player keeps it


def test_k9_bribe_of_a_hitman_who_hit_and_worthless_bribes() -> None:
    hit = judge(
        kamiza("ann ben cho dev", "ann boss k; ben hitman k; cho policeman k; dev hitman s")
    )
    assert hit["scores"] == {"ann": 0, "ben": 2, "cho": 2, "dev": 1}
    assert hit["wanted"] == {"ann": 0, "ben": 0, "cho": 1, "dev": 0}
    small = judge(
        kamiza("ann ben cho dev", "ann hitman k; ben policeman k; cho boss s; dev boss s")
    )
    assert small["scores"] == dict.fromkeys(["ann", "ben", "cho", "dev"], 0)
    assert small["wanted"]["ben"] == 0  # 1 // 2 == 0: no points, no chip
    alone = judge(kamiza("ann ben cho", "ann policeman k; ben boss s; cho underboss s"))
    assert alone["scores"] == {"ann": 0, "ben": 0, "cho": 2}
    assert alone["wanted"]["ann"] == 0
    two = judge(kamiza("ann ben cho", "ann policeman k; ben policeman k; cho boss k"))
    assert two["scores"] == {"ann": 0, "ben": 0, "cho": 5}  # policemen cancel (K-6)


def test_k4_boss_and_policeman_may_be_put_in_shimoza_and_score_nothing() -> None:
    answer = judge(kamiza("ann ben cho", "ann boss s; ben policeman s; cho hitman s"))
    assert answer["scores"] == {"ann": 0, "ben": 0, "cho": 1}


def test_k1_cards_of_the_other_edition_are_refused() -> None:
    assert refused_at(kamiza("ann ben cho", "ann raid k")) == 0
    assert refused_at(kamiza("ann ben cho", "ann policeman k", edition="classic")) == 0


THREE_COPS = (
    "ann policeman k; ben boss k; cho underboss k;"  # G1: bribe ann
    "ann boss k; ben policeman k; cho boss s;"  # bribe ben
    "ann underboss k; ben hitman s; cho policeman k;"  # bribe cho
    "ann policeman k; ben boss k; cho underboss k;"  # G2: same again
    "ann boss k; ben policeman k; cho boss s;"
    "ann underboss k; ben hitman s; cho policeman k;"
    "ann policeman k; ben boss k; cho underboss k;"  # G3: ann's third chip, ann drops out
    "ben policeman k; cho boss k"  # ben's third chip: only cho is left
)


def test_k10_drop_out_skipped_and_match_ends_below_two_players() -> None:
    log = kamiza("ann ben cho", THREE_COPS)
    dropped = judge(upto(log, 21))
    assert dropped["scores"] == {"ann": 12, "ben": 12, "cho": 2}
    assert dropped["dropped"] == ["ann"]
    assert not dropped["over"]
    # ann, the start player, is tied on top but out: ben starts and plays with cho only
    assert dropped["next"] == turn("ben", "play")
    assert (
        refused_at(plus(upto(log, 21), {"player": "ann", "card": "boss", "area": "kamiza"})) == 21
    )
    answer = judge(log)
    assert answer["over"] and answer["next"] is None
    assert answer["scores"] == {"ann": 12, "ben": 14, "cho": 4}
    assert answer["winners"] == ["cho"]  # ranked above every dropped player
    assert answer["dropped"] == ["ann", "ben"]
    extra = {"player": "cho", "card": "hitman", "area": "shimoza"}
    assert refused_at(plus(log, extra)) == 23


def test_k10_third_chip_in_the_last_round_cannot_win() -> None:
    log = kamiza(
        "ann ben cho",
        THREE_COPS.rsplit(";", 5)[0] + ";"  # the first two games: two chips each
        "ann underboss k; ben hitman s; cho boss s;"  # ann 12, ben 11
        "ann hitman s; ben underboss k; cho underboss k;"  # ann 13
        "ann policeman k; ben boss k; cho hitman s",  # bribe: ann 15, ben 13; ann's third chip
    )
    assert judge(upto(log, 18))["scores"] == {"ann": 10, "ben": 10, "cho": 2}
    answer = judge(log)
    assert answer["over"]
    assert answer["scores"] == {"ann": 15, "ben": 13, "cho": 3}
    assert answer["dropped"] == ["ann"]
    assert answer["winners"] == ["ben"]


def test_k12_tie_when_the_start_player_dropped_and_k13_dropped_cannot_share() -> None:
    log = kamiza(
        "ann ben cho dev",
        "ann policeman k; ben boss k; cho underboss k; dev boss s;"
        "ann boss k; ben hitman k; cho policeman k; dev underboss k;"
        "ann underboss k; ben policeman k; cho boss k; dev hitman s;"
        "ann policeman k; ben policeman s; cho boss k; dev boss k;"
        "ann boss k; ben underboss k; cho policeman k; dev hitman s;"
        "ann underboss k; ben boss k; cho hitman s; dev policeman k;"
        "cho policeman k; dev boss k; ann underboss k; ben boss s;"  # cho's 3rd chip
        "dev policeman k; ann boss k; ben underboss k;"
        "dev underboss k; ann policeman k; ben hitman s",
    )
    before = judge(upto(log, 24))
    assert before["scores"] == {"ann": 6, "ben": 6, "cho": 7, "dev": 4}
    assert before["next"] == turn("cho", "play")
    dropped = judge(upto(log, 28))
    assert dropped["scores"] == {"ann": 6, "ben": 6, "cho": 9, "dev": 6}
    assert dropped["dropped"] == ["cho"]
    # cho (out) leads on points and was the start player; ann, ben, dev tie: dev is first after cho
    assert dropped["next"] == turn("dev", "play")
    answer = judge(log)
    assert answer["scores"] == {"ann": 9, "ben": 7, "cho": 9, "dev": 9}
    # ann and dev both kept a hitman: a shared win; cho, tied on points, is out
    assert answer["winners"] == ["ann", "dev"]


CANCEL_ALL = (
    "ann boss k; ben boss k; cho boss k;"
    "ann underboss k; ben underboss k; cho underboss k;"
    "ann hitman k; ben hitman k; cho hitman k;"
)


def test_k13_chicken_tie_break_and_shared_win() -> None:
    last = (
        "ann underboss s; ben underboss k; cho hitman s;"  # ann 2, ben 2, cho 1
        "ann hitman k; ben hitman k; cho boss s;"  # cancelled; a boss in shimoza
    )
    chicken = kamiza(
        "ann ben cho",
        CANCEL_ALL * 2 + last + "ann boss s; ben raid s; cho raid k",
        edition="classic",
    )
    answer = judge(chicken)
    assert answer["over"]
    assert answer["scores"] == {"ann": 2, "ben": 2, "cho": 1}
    assert answer["winners"] == ["ann"]  # kept the raid (0); ben kept the boss (5)
    tie = kamiza(
        "ann ben cho",
        CANCEL_ALL * 2 + last + "ann raid s; ben raid k; cho raid s",
        edition="classic",
    )
    answer = judge(tie)  # three raids: no squeal; raids cancel in shimoza; both kept the boss
    assert answer["scores"] == {"ann": 2, "ben": 2, "cho": 1}
    assert answer["winners"] == ["ann", "ben"]


# -- Kobayakawa -----------------------------------------------------------------------------------


def deck(*top: int) -> list[int]:
    return [*top, *(n for n in range(1, 16) if n not in top)]


def kobayakawa(players: str, decks: list[list[int]], script: str) -> dict[str, Any]:
    """`script`: "ann held; ben drawn; cho koba; ann fight; ben pass; ..." in order."""
    shapes = {
        "held": {"action": "draw", "keep": "held"},
        "drawn": {"action": "draw", "keep": "drawn"},
        "koba": {"action": "kobayakawa"},
        "fight": {"action": "fight"},
        "pass": {"action": "pass"},
    }
    names = players.split()
    actions = []
    for token in filter(None, (t.strip() for t in script.split(";"))):
        player, what = token.split()
        actions.append({"player": player, **shapes[what]})
    return {
        "format": 1,
        "game": "kobayakawa",
        "players": names,
        "setup": {"start_player": names[0], "decks": decks},
        "actions": actions,
    }


def rnd(order: str, draws: str, fights: str) -> str:
    """One round: each player of `order` draws (h/d/k) then fights (f/p)."""
    names = order.split()
    what = {"h": "held", "d": "drawn", "k": "koba", "f": "fight", "p": "pass"}
    out = [f"{p} {what[w]}" for p, w in zip(names, draws, strict=True)]
    out += [f"{p} {what[w]}" for p, w in zip(names, fights, strict=True)]
    return "; ".join(out) + ";"


def test_b5_ties_lone_fighter_b6_nobody_fights_round_seven_stakes() -> None:
    decks = [
        deck(6, 10, 3, 7),  # ann 6, ben 10, cho 3 + Kobayakawa 7 = 10: tie, ben first
        deck(1, 12, 4, 8),  # start ben: ben 1, cho 12, ann 4 + 8 = 12: tie, cho before ann
        deck(1, 15, 14, 2),  # start cho: cho 1 fights alone and wins
        deck(),
        deck(15, 1, 2, 3, 5, 12, 4),  # cho 15; ann draws 12 and keeps it; ben: Kobayakawa 4
        deck(),
        deck(1, 14, 13, 2),  # start ann: ben 14 loses to cho 13 + 2 = 15
    ]
    log = kobayakawa(
        "ann ben cho",
        decks,
        rnd("ann ben cho", "hhh", "fff")
        + rnd("ben cho ann", "hhh", "pff")
        + rnd("cho ann ben", "hhh", "fpp")
        + rnd("cho ann ben", "hhh", "ppp")
        + rnd("cho ann ben", "hdk", "ffp")
        + rnd("ann ben cho", "hhh", "ppp")
        + rnd("ann ben cho", "hhh", "pff"),
    )
    mid = judge(upto(log, 4))
    assert mid["scores"] == {"ann": 3, "ben": 4, "cho": 4}  # ann's bet sits in the pot
    assert mid["next"] == turn("ben", "fight")
    r1 = judge(upto(log, 6))
    assert r1["scores"] == {"ann": 3, "ben": 7, "cho": 3}
    assert r1["next"] == turn("ben", "draw")
    r2 = judge(upto(log, 12))
    assert r2["scores"] == {"ann": 2, "ben": 7, "cho": 5}
    assert r2["next"] == turn("cho", "draw")
    r3 = judge(upto(log, 18))
    assert r3["scores"] == {"ann": 2, "ben": 7, "cho": 6}
    r4 = judge(upto(log, 24))
    assert r4["scores"] == {"ann": 2, "ben": 7, "cho": 6}
    assert r4["next"] == turn("cho", "draw")  # nobody fought: the start player stays
    assert r4["centre"] == 4
    r5 = judge(upto(log, 30))
    assert r5["scores"] == {"ann": 4, "ben": 7, "cho": 5}  # ann 12 + 4 = 16 beats cho 15
    assert r5["next"] == turn("ann", "draw")
    bets = judge(upto(log, 41))
    assert bets["scores"] == {"ann": 4, "ben": 5, "cho": 5}  # round 7: ben bets 2
    answer = judge(log)
    # cho takes the pot of 4 and the last 2 kamons
    assert answer["over"] and answer["next"] is None
    assert answer["scores"] == {"ann": 4, "ben": 5, "cho": 9}
    assert answer["winners"] == ["cho"]
    assert answer["centre"] == 0


def test_b7_players_out_and_dealing_order_round_seven_single_kamon_bet() -> None:
    first = deck(15, 1, 2, 3, 4)  # start ann: ann 15, ben 1, cho 2, dev 3, Kobayakawa 4
    decks = [first, first, first, first, deck(15, 1, 9, 3, 5), deck(), deck(5, 6, 7, 1)]
    order = "ann ben cho dev"
    log = kobayakawa(
        order,
        decks,
        rnd(order, "hhhh", "fffp")
        + rnd(order, "hhhh", "fffp")
        + rnd(order, "hhhh", "ffpp")
        + rnd(order, "hhhh", "ffpp")  # ben's last kamon: ben is out
        + rnd("ann cho dev", "hhh", "pff")  # dealt ann 15, cho 1, dev 9, Kobayakawa 3
        + rnd("dev ann cho", "hhh", "ppp")
        + rnd("dev ann cho", "hhh", "fpf"),  # dev 5 + 1 = 6 loses to cho 7; cho bets 1
    )
    out = judge(upto(log, 32))
    assert out["scores"] == {"ann": 14, "ben": 0, "cho": 2, "dev": 4}
    assert out["out"] == ["ben"]
    assert out["next"] == turn("ann", "draw")
    assert judge(upto(log, 33))["next"] == turn("cho", "draw")  # ben is skipped
    r5 = judge(upto(log, 38))
    assert r5["scores"] == {"ann": 14, "ben": 0, "cho": 1, "dev": 6}  # dev 9 beats cho 1 + 3
    assert r5["next"] == turn("dev", "draw")
    last_bet = judge(upto(log, 49))
    assert last_bet["scores"] == {"ann": 14, "ben": 0, "cho": 1, "dev": 4}
    answer = judge(log)
    assert answer["scores"] == {"ann": 14, "ben": 0, "cho": 5, "dev": 4}
    assert answer["winners"] == ["ann"]
    assert answer["over"]


def test_b7_game_ends_when_fewer_than_two_are_in() -> None:
    log = kobayakawa(
        "ann ben cho",
        [deck(1, 2, 15, 3), *[deck(15, 1, 2, 3)] * 6],
        rnd("ann ben cho", "hhh", "fff") + rnd("cho ann ben", "hhh", "fff") * 3,
    )
    answer = judge(log)
    assert answer["over"] and answer["next"] is None
    assert answer["scores"] == {"ann": 0, "ben": 0, "cho": 16}
    assert answer["winners"] == ["cho"]
    assert refused_at(plus(log, {"player": "cho", "action": "draw", "keep": "held"})) == 24


def test_b6_nobody_ever_fights_b8_shared_win() -> None:
    order = "ann ben cho"
    log = kobayakawa(order, [deck()] * 7, rnd(order, "hkd", "ppp") * 7)
    assert judge(upto(log, 6))["next"] == turn("ann", "draw")
    answer = judge(log)
    assert answer["scores"] == {"ann": 4, "ben": 4, "cho": 4}
    assert answer["winners"] == ["ann", "ben", "cho"]
    assert answer["centre"] == 0


def test_b4_wrong_phase_and_wrong_player_are_refused() -> None:
    log = kobayakawa("ann ben cho", [deck()] * 7, "ann held; ben fight")
    assert refused_at(log) == 1
    log = kobayakawa("ann ben cho", [deck()] * 7, "ann held; cho held")
    assert refused_at(log) == 1


# -- Rights of Losers ---------------------------------------------------------------------------

GREENS_A = [6, 7, 8, 1, 2, 3, 5, 4, 9, 10]
BEN_CHIPS = [[0, 0], [1, 8], [7, 0], [8, 8], [2, 0], [2, 2], [2, 4], [4, 0], [4, 2], [6, 2]]
CHO_CHIPS = [[0, 1], [1, 7], [8, 1], [7, 8], [8, 7], [4, 4], [4, 6], [4, 8], [6, 4], [6, 6]]
BUILDS_A = [
    (("red-10", [1, 0]), ("green-6", [1, 1])),
    (("yellow-9", [1, 2]), ("green-7", [2, 0])),
    (("red-8", [2, 1]), ("green-8", [3, 1])),
    (("red-7", [2, 3]), ("yellow-7", [2, 4])),
    (("red-6", [3, 2]), ("yellow-6", [3, 3])),
    (("red-5", [0, 1]), ("yellow-5", [0, 3])),
    (("red-4", [1, 3]), ("yellow-4", [4, 1])),
    (("red-3", [3, 4]), ("green-4", [4, 3])),
    (("red-2", [1, 4]), ("yellow-2", [0, 2])),
    (("red-1", [3, 0]), ("yellow-1", [4, 2])),
]


def losers_log(greens: list[int]) -> dict[str, Any]:
    return {
        "format": 1,
        "game": "rights-of-losers",
        "players": ["ann", "ben", "cho"],
        "setup": {
            "lead_player": "ann",
            "hands": {
                "ann": [f"red-{n}" for n in range(1, 11)],
                "ben": [f"yellow-{n}" for n in range(1, 11)],
                "cho": [f"green-{n}" for n in greens],
            },
        },
        "actions": [],
    }


def trick(
    plays: list[tuple[str, str]],
    chips: list[tuple[str, list[int]]],
    winner: str,
    build: tuple[tuple[str, list[int]], ...],
    choice: dict[str, Any],
) -> list[dict[str, Any]]:
    acts = [{"player": p, "action": "play", "card": c} for p, c in plays]
    acts += [{"player": p, "action": "chip", "at": at} for p, at in chips]
    acts.append(
        {
            "player": winner,
            "action": "build",
            "cards": [card for card, _ in build],
            "at": [cell for _, cell in build],
        }
    )
    acts.append({"player": winner, **choice})
    return acts


def scenario_a() -> dict[str, Any]:
    """ann leads red and wins every trick; ben and cho put chips as planned; ann builds."""
    log = losers_log(GREENS_A)
    for t in range(10):
        plays = [
            ("ann", f"red-{10 - t}"),
            ("ben", f"yellow-{10 - t}"),
            ("cho", f"green-{GREENS_A[t]}"),
        ]
        chips = [("ben", BEN_CHIPS[t]), ("cho", CHO_CHIPS[t])]
        log["actions"] += trick(plays, chips, "ann", BUILDS_A[t], {"action": "pass"})
    return log


def test_r6_tie_breaks_r7_land_bonus_and_shared_win() -> None:
    # [0,0]: ben on the card beats cho's edge. [0,4]: ben's edge beats cho's corner.
    # [4,0]: one edge chip each: nobody. [4,4]: cho's two edge chips beat ben's chip on it.
    # Land: ben 2, cho 2 ([2,2] and [4,4]): both get 10. Buildings: ben 51, cho 51.
    log = scenario_a()
    before_last_choice = judge(upto(log, len(log["actions"]) - 1))
    assert not before_last_choice["over"]
    assert before_last_choice["next"] == turn("ann", "choice")  # R-5 (c) after the 10th too
    assert before_last_choice["scores"] == {"ann": 0, "ben": 0, "cho": 0}
    answer = judge(log)
    assert answer["over"] and answer["next"] is None
    assert answer["scores"] == {"ann": 0, "ben": 61, "cho": 61}
    assert answer["winners"] == ["ben", "cho"]  # no chip left to either: shared


def test_r7_tie_broken_by_fewest_unplaced_chips() -> None:
    greens = [6, 7, 8, 1, 2, 3, 5, 4, 10, 9]
    builds = list(BUILDS_A)
    builds[2] = (("red-8", [2, 1]), ("yellow-8", [3, 1]))
    log = losers_log(greens)
    for t in range(9):
        plays = [
            ("ann", f"red-{10 - t}"),
            ("ben", f"yellow-{10 - t}"),
            ("cho", f"green-{greens[t]}"),
        ]
        chips = [("ben", BEN_CHIPS[t]), ("cho", CHO_CHIPS[t])]
        choice = {"action": "appoint", "lead": "ben"} if t == 8 else {"action": "pass"}
        log["actions"] += trick(plays, chips, "ann", builds[t], choice)
    assert judge(log)["next"] == turn("ben", "play")
    log["actions"] += trick(
        [("ben", "yellow-1"), ("cho", "green-9"), ("ann", "red-1")],
        [("cho", [6, 6]), ("ann", [0, 4])],  # the winner's left first: cho, then ann
        "ben",
        (("green-9", [3, 0]), ("red-1", [4, 2])),
        {"action": "pass"},
    )
    answer = judge(log)
    # ben lost [3,1] (no chip on it) but won green-9 at [3,0]: 61 each; ben kept 1 chip
    assert answer["scores"] == {"ann": 2, "ben": 61, "cho": 61}
    assert answer["winners"] == ["cho"]


def test_r3_lattice_spots_and_r5_chip_order() -> None:
    log = scenario_a()
    first_trick = upto(log, 3)
    assert judge(first_trick)["next"] == turn("ben", "chip")
    for spot in ([0, 3], [2, 2], [3, 1], [9, 0], [-1, 0], [0, 9]):
        entry = {"player": "ben", "action": "chip", "at": spot}
        assert refused_at(plus(first_trick, entry)) == 3, spot
    for spot in ([1, 1], [4, 4], [3, 4], [3, 3], [8, 8], [1, 8]):
        entry = {"player": "ben", "action": "chip", "at": spot}
        assert judge(plus(first_trick, entry))["next"] == turn("cho", "chip"), spot
    taken = plus(first_trick, {"player": "ben", "action": "chip", "at": [1, 1]})
    assert refused_at(plus(taken, {"player": "cho", "action": "chip", "at": [1, 1]})) == 4
    assert refused_at(plus(first_trick, {"player": "ann", "action": "chip", "at": [1, 1]})) == 3


def test_r5_build_and_choice_refusals() -> None:
    log = scenario_a()
    at_build = upto(log, 5)
    assert judge(at_build)["next"] == turn("ann", "build")
    bad_builds = [
        (["red-10", "red-9"], [[1, 0], [1, 1]]),  # red-9 is not in this trick
        (["red-10", "red-10"], [[1, 0], [1, 1]]),  # the same card twice
        (["red-10", "green-6"], [[0, 0], [1, 1]]),  # a land cell
        (["red-10", "green-6"], [[1, 1], [1, 1]]),  # the same cell twice
        (["red-10", "green-6"], [[1, 1], [5, 1]]),  # off the field
        (["red-10"], [[1, 1]]),  # exactly two
    ]
    for cards, cells in bad_builds:
        entry = {"player": "ann", "action": "build", "cards": cards, "at": cells}
        assert refused_at(plus(at_build, entry)) == 5, cards
    at_choice = upto(log, 6)
    assert judge(at_choice)["next"] == turn("ann", "choice")
    bad_choices = [
        {"action": "move", "from": [0, 0], "to": [1, 1]},  # ben's chip, not ann's
        {"action": "appoint", "lead": "nobody"},
        {"action": "appoint", "lead": "ben", "extra": 1},
    ]
    for choice in bad_choices:
        assert refused_at(plus(at_choice, {"player": "ann", **choice})) == 6, choice
    occupied = upto(log, 12)  # trick 2's build: [1, 2] and [2, 0] are free, [1, 0] is not
    entry = {
        "player": "ann",
        "action": "build",
        "cards": ["red-9", "yellow-9"],
        "at": [[1, 0], [2, 0]],
    }
    assert refused_at(plus(occupied, entry)) == 12


def reverse_log() -> dict[str, Any]:
    ann = ["red-1", "red-10", *(f"yellow-{n}" for n in range(1, 9))]
    ben = ["red-5", "red-6", *(f"green-{n}" for n in range(1, 9))]
    cho = [f"blue-{n}" for n in range(1, 11)]
    return {
        "format": 1,
        "game": "rights-of-losers",
        "players": ["ann", "ben", "cho"],
        "setup": {"lead_player": "ann", "hands": {"ann": ann, "ben": ben, "cho": cho}},
        "actions": [],
    }


def test_r4_follow_suit_r5_reverse_and_appoint() -> None:
    log = reverse_log()
    led = plus(log, {"player": "ann", "action": "play", "card": "red-1"})
    assert refused_at(plus(led, {"player": "ben", "action": "play", "card": "green-1"})) == 1
    log["actions"] += trick(
        [("ann", "red-1"), ("ben", "red-5"), ("cho", "blue-1")],  # ben's 5 is the highest red
        [("cho", [1, 1]), ("ann", [0, 1])],
        "ben",
        (("red-1", [0, 1]), ("blue-1", [1, 0])),
        {"action": "reverse"},
    )
    assert judge(log)["next"] == turn("ben", "play")  # no appointment: the winner leads
    log["actions"] += [
        {"player": "ben", "action": "play", "card": "red-6"},
        {"player": "cho", "action": "play", "card": "blue-2"},
        {"player": "ann", "action": "play", "card": "red-10"},
    ]
    assert judge(log)["next"] == turn("cho", "chip")  # reversed: ben's 6 beats ann's 10
    log["actions"] += [
        {"player": "cho", "action": "chip", "at": [0, 3]},
        {"player": "ann", "action": "chip", "at": [1, 2]},
        {"player": "ben", "action": "build", "cards": ["red-6", "red-10"], "at": [[0, 2], [1, 1]]},
        {"player": "ben", "action": "appoint", "lead": "cho"},
    ]
    assert judge(log)["next"] == turn("cho", "play")
