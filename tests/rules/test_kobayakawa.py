"""Kobayakawa rules B-1..B-8, from explicit decks so every outcome is exact."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.base import Event, IllegalAction, InvalidSetup, MalformedAction, Next
from rules.kobayakawa import Kobayakawa
from rules.kobayakawa_moves import (
    FIGHT_ACTION,
    KEEP_DRAWN,
    KEEP_HELD,
    PASS_ACTION,
    REPLACE,
    Drew,
    FightPhaseStarted,
    KobayakawaReplaced,
)
from rules.log import LogError, load, replay
from rules.random_play import random_match

P3 = ["ann", "ben", "cho"]
P4 = ["ann", "ben", "cho", "dev"]
MOVES = {
    "drawn": KEEP_DRAWN,
    "held": KEEP_HELD,
    "kob": REPLACE,
    "fight": FIGHT_ACTION,
    "pass": PASS_ACTION,
}
ROOT = Path(__file__).resolve().parents[2]


def deck(*front: int) -> list[int]:
    """A deck with `front` on top (dealt first), then the other cards in ascending order."""
    return [*front, *(c for c in range(1, 16) if c not in front)]


def new_game(decks: list[list[int]], players: list[str] = P3, start: str = "ann") -> Kobayakawa:
    return Kobayakawa.create(players, None, {"start_player": start, "decks": decks})


def play(game: Kobayakawa, *moves: str) -> list[Event]:
    """Apply `moves` for whoever must act, in turn."""
    events: list[Event] = []
    for move in moves:
        nxt = game.next()
        assert nxt is not None, "the game ended early"
        events += game.apply(nxt.player, MOVES[move])
    return events


def play_round(game: Kobayakawa, fighters: set[str] = frozenset()) -> list[Event]:
    """Everyone keeps their card, then the `fighters` fight and the others pass."""
    order = list(game.order)
    events = play(game, *["held"] * len(order))
    events += play(game, *["fight" if p in fighters else "pass" for p in order])
    return events


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def total(game: Kobayakawa) -> int:
    return sum(game.kamons.values()) + game.pot + game.centre + game.box


# -- B-1 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_b1_three_to_six_players_four_kamons_each_eight_in_centre(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    game = new_game([deck()] * 7, players, "p0")
    assert game.scores() == dict.fromkeys(players, 4)
    assert game.centre == 8 and game.pot == 0
    assert game.box == 32 - 8 - 4 * n and total(game) == 32


@pytest.mark.parametrize("n", [2, 7])
def test_b1_two_or_seven_players_are_refused(n: int) -> None:
    with pytest.raises(InvalidSetup):
        new_game([deck()] * 7, [f"p{i}" for i in range(n)], "p0")


def test_b1_unseated_player_is_refused() -> None:
    game = new_game([deck()] * 7)
    with pytest.raises(IllegalAction) as err:
        game.apply("zed", KEEP_HELD)
    assert err.value.rule == "B-1"


# -- B-2 -------------------------------------------------------------------------------------------


def test_b2_deal_clockwise_from_start_player_then_kobayakawa_then_pile() -> None:
    game = new_game([deck(3, 9, 14, 6, 11)] * 7, start="ben")
    assert game.order == ("ben", "cho", "ann")
    assert game.cards == {"ben": 3, "cho": 9, "ann": 14}
    assert game.kobayakawa == 6
    assert game.drawn_card("ben") == 11
    started = game.opening_events()[0]
    assert started.kind == "round_started"
    assert (started.round, started.start_player, started.order, started.kobayakawa) == (
        1,
        "ben",
        ("ben", "cho", "ann"),
        6,
    )


def test_b2_each_round_uses_its_own_deck() -> None:
    game = new_game([deck(1, 2, 3, 4), deck(10, 11, 12, 13)] + [deck()] * 5)
    events = play_round(game)
    assert of_kind(events, "round_started")[0].kobayakawa == 13
    assert game.round == 2 and game.cards == {"ann": 10, "ben": 11, "cho": 12}


def test_b2_seven_rounds_then_the_game_is_over() -> None:
    game = new_game([deck()] * 7)
    for expected_round in range(1, 8):
        assert game.round == expected_round and not game.over
        events = play_round(game)
    assert game.over and game.next() is None and game.round == 7
    assert of_kind(events, "game_ended")[0].reason == "seven_rounds"
    with pytest.raises(IllegalAction) as err:
        game.apply("ann", KEEP_HELD)
    assert err.value.rule == "B-2"


@pytest.mark.parametrize(
    "setup",
    [
        {"start_player": "zed", "decks": [deck()]},
        {"start_player": "ann"},
        {"start_player": "ann", "decks": []},
        {"start_player": "ann", "decks": [deck()] * 8},
        {"start_player": "ann", "decks": [deck()[:-1]]},
        {"start_player": "ann", "decks": [[*deck()[:-1], 1]]},
        {"start_player": "ann", "decks": [[*deck()[:-1], 16]]},
        {"start_player": "ann", "decks": [[True, *range(2, 16)]]},
        {"start_player": "ann", "decks": [[str(c) for c in deck()]]},
        {"start_player": "ann", "decks": "1-15"},
    ],
)
def test_b2_bad_setup_is_refused(setup: dict) -> None:
    with pytest.raises(InvalidSetup):
        Kobayakawa.create(P3, None, setup)


def test_b2_unknown_option_is_refused_and_extra_setup_keys_are_kept() -> None:
    with pytest.raises(InvalidSetup):
        Kobayakawa.create(P3, {"fast": True}, {"start_player": "ann", "decks": [deck()]})
    Kobayakawa.create(P3, None, {"start_player": "ann", "decks": [deck()], "seed": 5})


def test_b2_missing_deck_the_round_ends_then_every_action_is_refused() -> None:
    # The setup has round 1 only: its last action is judged like any other (B-5, B-6).
    game = new_game([deck()])
    events = play(game, "held", "held", "held", "pass", "pass", "pass")
    assert [e.kind for e in events[-2:]] == ["passed", "nobody_fought"]
    assert game.next() == Next("ann", "draw") and not game.over
    assert game.round == 2 and game.waiting_for_deck and game.cards == {}
    assert game.legal_actions("ann") == [] and game.drawn_card("ann") is None
    assert game.details()["kobayakawa"] is None and game.details()["phase"] == "draw"
    before = game.view(None)
    for player, action in [
        ("ann", KEEP_HELD),
        ("ann", REPLACE),
        ("ben", PASS_ACTION),
        ("zed", KEEP_HELD),
    ]:
        with pytest.raises(IllegalAction) as err:
            game.apply(player, action)
        assert err.value.rule == "B-2" and "no deck for round 2" in err.value.reason
        with pytest.raises(IllegalAction):
            game.check(player, action)
    with pytest.raises(IllegalAction):
        game.look("ann")
    assert game.view(None) == before


def test_b2_missing_deck_next_round_start_player_is_the_winner() -> None:
    # ann 12, ben 8, cho 14, Kobayakawa 7: ben's 8 + 7 = 15 wins (B-5) and starts round 2.
    game = new_game([deck(12, 8, 14, 7)])
    events = play(game, "held", "held", "held", "fight", "fight", "fight")
    assert of_kind(events, "round_won")[0].winner == "ben"
    assert not of_kind(events, "round_started")
    assert game.next() == Next("ben", "draw") and game.order == ("ben", "cho", "ann")
    assert game.scores() == {"ann": 3, "ben": 7, "cho": 3} and game.centre == 7


def test_b2_decks_for_rounds_never_reached_may_be_left_out() -> None:
    # ann wins rounds 1-4 against everyone: ben and cho are out after round 4, no deck 5 needed.
    game = new_game([deck(15, 1, 2, 3)] * 4)
    for _ in range(4):
        play_round(game, {"ann", "ben", "cho"})
    assert game.over and game.end_reason == "too_few_players"


# -- B-3 -------------------------------------------------------------------------------------------


def test_b3_draw_keep_drawn_or_held_discards_the_other_face_up() -> None:
    game = new_game([deck(5, 6, 7, 9, 10, 11, 12)] * 7)
    assert game.drawn_card("ann") == 10 and game.drawn_card("ben") is None
    assert game.apply("ann", KEEP_DRAWN) == [Drew("ann", 5)]
    assert game.drawn_card("ben") == 11
    assert game.apply("ben", KEEP_HELD) == [Drew("ben", 11)]
    assert game.cards["ann"] == 10 and game.cards["ben"] == 6
    spectator = game.view(None)
    assert spectator["discards"] == {"ann": 5, "ben": 11}
    assert spectator["card"] is None
    assert game.view("ben")["card"] == 6 and game.view("ann")["card"] == 10
    assert spectator["choices"] == [
        {"player": "ann", "action": "draw", "discarded": 5},
        {"player": "ben", "action": "draw", "discarded": 11},
    ]
    assert spectator["draw_pile"] == 15 - 4 - 2


def test_b3_replace_kobayakawa_with_the_top_card_unseen() -> None:
    game = new_game([deck(5, 6, 7, 9, 10, 11, 12)] * 7)
    events = play(game, "kob", "kob", "held")
    assert events[:2] == [KobayakawaReplaced("ann", 9, 10), KobayakawaReplaced("ben", 10, 11)]
    assert events[-1] == FightPhaseStarted(1, 11)
    assert game.kobayakawa == 11 and game.view("cho")["kobayakawa_history"] == [9, 10, 11]
    assert game.cards == {"ann": 5, "ben": 6, "cho": 7}
    assert game.next() == Next("ann", "fight")


def test_b3_only_draw_or_replace_in_the_draw_phase_and_in_turn() -> None:
    game = new_game([deck()] * 7)
    assert game.next() == Next("ann", "draw")
    assert game.legal_actions("ann") == [KEEP_DRAWN, KEEP_HELD, REPLACE]
    assert game.legal_actions("ben") == []
    for player, action in [("ann", FIGHT_ACTION), ("ann", PASS_ACTION), ("ben", KEEP_HELD)]:
        with pytest.raises(IllegalAction) as err:
            game.apply(player, action)
        assert err.value.rule == "B-3"


def test_b3_the_replaced_kobayakawa_counts_in_the_showdown() -> None:
    # ann replaces the Kobayakawa 7 with 1: ben's lowest 8 now makes only 9, cho's 14 wins.
    game = new_game([deck(12, 8, 14, 7, 1)] * 7)
    events = play(game, "kob", "held", "held", "fight", "fight", "fight")
    showdown = of_kind(events, "showdown")[0]
    assert showdown.kobayakawa == 1 and showdown.totals == {"ann": 12, "ben": 9, "cho": 14}
    assert showdown.winner == "cho"


# -- B-4 -------------------------------------------------------------------------------------------


def test_b4_fight_bets_one_pass_bets_nothing_choices_are_public() -> None:
    game = new_game([deck()] * 7)
    play(game, "held", "held", "held")
    assert game.legal_actions("ann") == [FIGHT_ACTION, PASS_ACTION]
    events = play(game, "fight", "pass")
    assert [e.to_json() for e in events] == [
        {"type": "fought", "player": "ann", "bet": 1, "pot": 1},
        {"type": "passed", "player": "ben"},
    ]
    assert game.scores() == {"ann": 3, "ben": 4, "cho": 4} and game.pot == 1
    view = game.view("cho")
    assert view["bets"] == {"ann": 1} and view["phase"] == "fight"
    assert view["choices"][-2:] == [
        {"player": "ann", "action": "fight", "bet": 1},
        {"player": "ben", "action": "pass"},
    ]


def test_b4_draw_in_the_fight_phase_or_out_of_turn_is_refused() -> None:
    game = new_game([deck()] * 7)
    play(game, "held", "held", "held")
    for player, action in [("ann", KEEP_HELD), ("ann", REPLACE), ("ben", FIGHT_ACTION)]:
        with pytest.raises(IllegalAction) as err:
            game.apply(player, action)
        assert err.value.rule == "B-4"


def test_b4_round_seven_bets_two_or_one_if_that_is_all() -> None:
    game = new_game([deck(15, 1, 2, 3)] * 7)
    for _ in range(3):  # ann beats cho three times: cho is down to 1 kamon
        play_round(game, {"ann", "cho"})
    for _ in range(3):
        play_round(game)
    assert game.round == 7 and game.scores() == {"ann": 10, "ben": 4, "cho": 1}
    play(game, "held", "held", "held")
    assert game.view(None)["stakes"] == {"ann": 2, "ben": 2, "cho": 1}
    events = play(game, "fight", "fight", "fight")
    assert [e.bet for e in of_kind(events, "fought")] == [2, 2, 1]
    won = of_kind(events, "round_won")[0]
    assert (won.winner, won.pot, won.from_centre) == ("ann", 5, 2)
    assert game.scores() == {"ann": 15, "ben": 2, "cho": 0}
    assert game.centre == 0 and total(game) == 32 and game.over


# -- B-5 -------------------------------------------------------------------------------------------


def test_b5_sheet_example_kobayakawa_seven_added_to_lowest_eight_makes_fifteen() -> None:
    game = new_game([deck(12, 8, 14, 7)] * 7)
    showdown = of_kind(play_round(game, {"ann", "ben", "cho"}), "showdown")[0]
    assert showdown.cards == {"ann": 12, "ben": 8, "cho": 14}
    assert showdown.lowest == "ben" and showdown.kobayakawa == 7
    assert showdown.totals == {"ann": 12, "ben": 15, "cho": 14}
    assert (showdown.winner, showdown.why) == ("ben", "highest")


def test_b5_tie_goes_to_the_start_player_first() -> None:
    # ann (start) holds 15; ben's lowest 8 + Kobayakawa 7 also makes 15.
    game = new_game([deck(15, 8, 1, 7)] * 7)
    showdown = of_kind(play_round(game, {"ann", "ben"}), "showdown")[0]
    assert showdown.totals == {"ann": 15, "ben": 15}
    assert (showdown.winner, showdown.why) == ("ann", "tie_closest_to_start")


def test_b5_tie_goes_to_the_tied_fighter_closest_clockwise_from_start() -> None:
    # ben starts and passes; cho 15 and ann 8+7 tie: cho sits closer clockwise to ben.
    game = new_game([deck(2, 15, 8, 7)] * 7, start="ben")
    showdown = of_kind(play_round(game, {"cho", "ann"}), "showdown")[0]
    assert showdown.fighters == ("cho", "ann")
    assert showdown.totals == {"cho": 15, "ann": 15}
    assert (showdown.winner, showdown.why) == ("cho", "tie_closest_to_start")


def test_b5_lone_fighter_wins_without_revealing() -> None:
    game = new_game([deck(1, 14, 15, 13)] * 7)
    events = play_round(game, {"ann"})
    showdown = of_kind(events, "showdown")[0]
    assert showdown.fighters == ("ann",) and showdown.winner == "ann"
    assert showdown.why == "lone_fighter"
    assert showdown.cards == {} and showdown.totals == {} and showdown.lowest is None
    for viewer in [None, "ben", "cho"]:
        last = game.view(viewer)["last_round"]
        assert last[0]["type"] == "showdown" and last[0]["cards"] == {}
    assert game.scores() == {"ann": 5, "ben": 4, "cho": 4}


# -- B-6 -------------------------------------------------------------------------------------------


def test_b6_winner_takes_all_bets_and_one_from_centre_and_starts_next() -> None:
    game = new_game([deck(3, 12, 9, 1)] * 7)
    events = play_round(game, {"ann", "ben", "cho"})
    won = of_kind(events, "round_won")[0]
    assert (won.winner, won.pot, won.from_centre, won.kamons) == ("ben", 3, 1, 7)
    assert game.scores() == {"ann": 3, "ben": 7, "cho": 3}
    assert game.centre == 7 and game.pot == 0 and total(game) == 32
    assert game.start_player == "ben" and game.order == ("ben", "cho", "ann")
    assert game.next() == Next("ben", "draw")


def test_b6_nobody_fights_centre_kamon_goes_to_box_start_player_stays() -> None:
    game = new_game([deck()] * 7, start="cho")
    box = game.box
    events = play_round(game)
    nobody = of_kind(events, "nobody_fought")[0]
    assert (nobody.round, nobody.to_box, nobody.start_player) == (1, 1, "cho")
    assert not of_kind(events, "showdown")
    assert game.centre == 7 and game.box == box + 1 and game.start_player == "cho"
    for _ in range(5):
        play_round(game)
    events = play_round(game)  # round 7: its two centre kamons go to the box
    assert of_kind(events, "nobody_fought")[0].to_box == 2
    assert game.centre == 0 and game.box == box + 8 and total(game) == 32


# -- B-7 -------------------------------------------------------------------------------------------


def test_b7_player_with_no_kamons_is_out_not_dealt_and_skipped() -> None:
    game = new_game([deck(15, 1, 2, 3)] * 4 + [deck(4, 5, 6, 7, 8)] * 3, P4)
    for _ in range(3):  # dev loses to ann four times
        assert not of_kind(play_round(game, {"ann", "dev"}), "player_out")
    events = play_round(game, {"ann", "dev"})
    assert of_kind(events, "player_out")[0].player == "dev"
    assert game.out == ["dev"] and game.scores()["dev"] == 0
    assert game.order == ("ann", "ben", "cho")
    assert game.cards == {"ann": 4, "ben": 5, "cho": 6} and game.kobayakawa == 7
    assert game.drawn_card("ann") == 8
    assert game.view("dev")["card"] is None
    with pytest.raises(IllegalAction) as err:
        game.apply("dev", KEEP_HELD)
    assert err.value.rule == "B-7"


def test_b7_fewer_than_two_players_in_ends_the_game() -> None:
    game = new_game([deck(15, 1, 2, 3)] * 7)
    for _ in range(4):
        events = play_round(game, {"ann", "ben", "cho"})
    assert [e.player for e in of_kind(events, "player_out")] == ["ben", "cho"]
    ended = of_kind(events, "game_ended")[0]
    assert (ended.rounds_played, ended.reason, ended.winners) == (4, "too_few_players", ("ann",))
    assert game.over and game.scores() == {"ann": 16, "ben": 0, "cho": 0}
    assert game.centre == 4 and total(game) == 32
    with pytest.raises(IllegalAction) as err:
        game.apply("ann", KEEP_HELD)
    assert err.value.rule == "B-7"


# -- B-8 -------------------------------------------------------------------------------------------


def test_b8_most_kamons_wins() -> None:
    game = new_game([deck(3, 12, 9, 1)] + [deck()] * 6)
    play_round(game, {"ben", "cho"})
    for _ in range(6):
        play_round(game)
    assert game.scores() == {"ann": 4, "ben": 6, "cho": 3}
    assert game.winners() == ["ben"] and game.ranking() == [["ben"], ["ann"], ["cho"]]


def test_b8_equal_kamons_share_the_win() -> None:
    game = new_game([deck()] * 7)
    assert game.winners() == []
    for _ in range(7):
        play_round(game)
    assert game.winners() == P3 and game.ranking() == [P3]


# -- scores, actions, views ------------------------------------------------------------------------


def test_scores_a_bet_sits_in_the_pot_not_with_its_owner() -> None:
    game = new_game([deck()] * 7)
    play(game, "held", "held", "held", "fight", "fight")
    assert game.scores() == {"ann": 3, "ben": 3, "cho": 4} and game.pot == 2
    assert game.details()["pot"] == 2


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({}, "missing field 'action'"),
        ({"action": "draw"}, "missing field 'keep'"),
        ({"action": "draw", "keep": "both"}, "keep must be"),
        ({"action": "draw", "keep": 1}, "keep must be"),
        ({"action": "fight", "keep": "held"}, "unknown field 'keep'"),
        ({"action": "fight", "bet": 1}, "unknown field 'bet'"),
        ({"action": "fold"}, "unknown action"),
        ({"action": ["fight"]}, "unknown action"),
        ([], "JSON object"),
    ],
)
def test_parse_action_refuses_malformed_actions(data: object, words: str) -> None:
    with pytest.raises(MalformedAction) as err:
        Kobayakawa.parse_action(data)
    assert words in str(err.value)


def test_parse_action_round_trips_every_action() -> None:
    for action in MOVES.values():
        assert Kobayakawa.parse_action(action.to_json()) is action


def test_views_show_only_own_card_before_the_showdown_then_revealed_cards() -> None:
    game = new_game([deck(12, 8, 14, 7)] * 7)
    play(game, "held", "held", "held", "fight", "fight")
    views = {p: game.view(p) for p in [None, *P3]}
    assert [views[p]["card"] for p in [None, *P3]] == [None, 12, 8, 14]
    public = {k: v for k, v in views[None].items() if k not in ("you", "card")}
    for p in P3:
        assert {k: v for k, v in views[p].items() if k not in ("you", "card")} == public
    play(game, "fight")
    last = game.view("ann")["last_round"]
    assert last[0]["cards"] == {"ann": 12, "ben": 8, "cho": 14}
    assert game.view(None)["last_round"] == last


def test_details_for_replay() -> None:
    game = new_game([deck()] * 7)
    assert game.details() == {
        "round": 1,
        "phase": "draw",
        "start_player": "ann",
        "kobayakawa": 4,
        "centre": 8,
        "pot": 0,
        "box": 12,
        "out": [],
    }


# -- logs and the replay command -------------------------------------------------------------------


def explicit_log(actions: list[dict]) -> dict:
    return {
        "format": 1,
        "game": "kobayakawa",
        "players": P3,
        "setup": {"start_player": "ann", "decks": [deck(12, 8, 14, 7)], "seed": 3},
        "actions": actions,
    }


def test_replay_in_process_reports_next_and_details() -> None:
    log = explicit_log(
        [{"player": p, "action": "draw", "keep": "held"} for p in P3]
        + [{"player": "ann", "action": "fight"}]
    )
    answer = replay(log)
    assert answer["next"] == {"player": "ben", "expects": "fight"}
    assert answer["scores"] == {"ann": 3, "ben": 4, "cho": 4} and answer["pot"] == 1
    assert answer["phase"] == "fight" and answer["winners"] == [] and not answer["over"]


def test_replay_in_process_missing_deck_after_the_last_round_played() -> None:
    actions = [{"player": p, "action": "draw", "keep": "held"} for p in P3] + [
        {"player": p, "action": "pass"} for p in P3
    ]
    answer = replay(explicit_log(actions))
    assert answer["next"] == {"player": "ann", "expects": "draw"} and not answer["over"]
    assert (answer["round"], answer["phase"], answer["kobayakawa"]) == (2, "draw", None)
    assert answer["scores"] == dict.fromkeys(P3, 4) and answer["winners"] == []
    with pytest.raises(LogError) as err:
        load(explicit_log([*actions, {"player": "ann", "action": "draw", "keep": "held"}]))
    assert err.value.index == 6 and "B-2" in err.value.reason and "round 2" in err.value.reason


def run_replay(log: dict, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "kobayakawa.json"
    path.write_text(json.dumps(log))
    return subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_replay_command_on_a_random_full_game(tmp_path: Path) -> None:
    state, log = random_match("kobayakawa", ["ann", "ben", "cho", "dev", "eve"], seed=7)
    done = run_replay(log, tmp_path)
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["game"] == "kobayakawa" and answer["over"] is True and answer["next"] is None
    assert answer["scores"] == state.scores() and answer["winners"] == state.winners()
    assert sum(answer["scores"].values()) + answer["centre"] + answer["box"] + answer["pot"] == 32
    assert set(answer) >= {"round", "phase", "centre", "box", "pot", "out", "kobayakawa"}


def test_replay_command_malformed_action_exits_2_naming_the_index(tmp_path: Path) -> None:
    _, log = random_match("kobayakawa", P4, seed=8)
    log["actions"][3] = {**log["actions"][3], "action": "draw", "keep": "both"}
    done = run_replay(log, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("action 3:") and "keep" in lines[0]
    assert "Traceback" not in done.stderr
