"""Kobayakawa `hard`: the best response to `normal` (its bets computed, its draws from a table)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest
from positions import random_positions

from ai import decide, info_set, make_agent
from ai.__main__ import main
from ai.kobayakawa_abstraction import observed_key
from ai.kobayakawa_hard import RESPONSE, Showdown, fight_values, load_response
from ai.kobayakawa_model import likelihoods
from ai.kobayakawa_response import RESPONSE_PATH, ResponseTrainer, train_response
from rules.kobayakawa_moves import Drew, Fought, Passed


def test_the_shipped_response_table_loads_with_moves() -> None:
    assert RESPONSE_PATH.stat().st_size < 300_000  # small enough to ship in the package
    assert load_response() == RESPONSE
    assert RESPONSE and set(RESPONSE.values()) <= {0, 1}
    assert all(key[0] in "dk" for key in RESPONSE)  # draw and keep sets only


def test_hard_plays_legal_actions_from_its_tables_in_random_games() -> None:
    agent = make_agent("hard", "kobayakawa")
    rng = random.Random(5)
    from_table = 0
    for state, player in random_positions("kobayakawa", 400, 23):
        seen = state.observation(player)
        from_table += seen.phase == "draw" and observed_key(seen, player) in RESPONSE
        action = decide(state, player, agent, rng)
        assert action in state.legal_actions(player)
        state.check(player, action)
    assert from_table > 50


def test_hard_decides_the_same_from_the_same_observation() -> None:
    """The others' cards differ in the two determinizations. A bet is computed, not sampled: the
    same whatever the seed; a draw from `normal`'s table (a set the response table lacks) draws
    with the seed, the same for the same seed."""
    agent = make_agent("hard", "kobayakawa")
    for index, (state, player) in enumerate(random_positions("kobayakawa", 80, 31)):
        first = state.determinize(player, random.Random(index))
        second = state.determinize(player, random.Random(index + 1000))
        assert first.observation(player) == second.observation(player)
        one = agent.act(info_set(first, player), random.Random(index))
        assert one == agent.act(info_set(second, player), random.Random(index))
        if state.observation(player).phase == "fight":
            assert one == agent.act(info_set(second, player), random.Random(index + 1))


def _fight_position(seed: int, wanted: int) -> tuple[Any, str]:
    """A fight turn (B-4) of a four-player game reached by random play: the last to bet, after
    `wanted` fighters (the first to bet among them)."""
    for state, player in random_positions("kobayakawa", 400, seed):
        seen = state.observation(player)
        four = len(seen.order) == 4 and not seen.out and seen.round < 7
        last = seen.to_act == seen.order[-1] and len(seen.bets) == wanted
        last = last and (not wanted or seen.order[0] in seen.bets)
        if seen.phase == "fight" and four and last:
            return state, player
    raise AssertionError("no such position")


def test_the_last_to_bet_with_nobody_fighting_fights_alone_for_the_centre() -> None:
    """B-6: a lone fighter wins the centre's kamon whatever it holds (before round 7)."""
    state, player = _fight_position(41, wanted=0)
    seen = state.observation(player)
    fight, passed = fight_values(seen, player, random.Random(1))
    assert passed == pytest.approx(seen.kamons[player])
    assert fight == pytest.approx(seen.kamons[player] + min(1, seen.centre))


def test_the_others_cards_lean_to_what_normal_does_with_them() -> None:
    """The first player drew, discarded a 5 and fought under a low Kobayakawa: `normal` fights
    first only with a high card there, so a high card is far likelier than a low one."""
    state, player = _fight_position(43, wanted=1)
    seen = state.observation(player)
    fighter = seen.order[0]
    theirs = [c for c in seen.choices if c.player != fighter]
    draws, bets = [c for c in theirs if not _bet(c)], [c for c in theirs if _bet(c)]
    choices = (Drew(fighter, 5), *draws, Fought(fighter, 1, 1), *bets)
    taken = {seen.card, 5, *(d for p, d in seen.discards.items() if p != fighter)}
    kobayakawa = min(set(range(1, 4)) - taken)
    discards = {**{p: d for p, d in seen.discards.items() if p != fighter}, fighter: 5}
    seen = dataclasses.replace(
        seen,
        choices=choices,
        discards=discards,
        kobayakawa=kobayakawa,
        kobayakawa_history=(kobayakawa,),
    )
    weights = likelihoods(seen, player)[fighter]
    high = [w for card, w in weights.items() if card >= 12]
    low = [w for card, w in weights.items() if card <= 4]
    assert high and low and min(high) > 5 * max(low)


def _bet(choice: object) -> bool:
    return isinstance(choice, (Fought, Passed))


def test_round_7_is_worth_the_share_of_the_match_win() -> None:
    """B-8: after round 7 only the standings count; before it, the kamons held."""
    kamons = {"a": 5, "b": 3, "c": 2}  # after the bets: a and b bet 2 each, the pot is 4
    cards = {"a": 10, "b": 12, "c": 1}
    last = Showdown("a", ["a", "b", "c"], 1, last_round=True, take=2)
    assert last.worth(cards, ["a", "b"], 4, kamons) == 0.0  # b takes 6: 9 against 5
    assert last.worth(cards, ["a"], 2, kamons) == 1.0
    tied = {"a": 3, "b": 5, "c": 2}
    assert last.worth(cards, ["a"], 0, tied) == pytest.approx(0.5)  # 3 + 2 = 5, shared
    earlier = Showdown("a", ["a", "b", "c"], 1, last_round=False, take=1)
    assert earlier.worth(cards, ["a", "b"], 2, kamons) == 5.0


def test_the_response_training_is_deterministic_for_a_seed() -> None:
    def values(seed: int) -> dict[str, list[float]]:
        trainer = ResponseTrainer(seed)
        for _ in range(200):
            trainer.iterate(4)
        return trainer.values

    assert values(5) == values(5)
    assert values(5) != values(6)
    assert train_response(40, seed=5) == train_response(40, seed=5)


def test_train_kobayakawa_hard_writes_the_response_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hard.json"
    assert main(["train-kobayakawa", "--hard", "--iterations", "30", "--out", str(out)]) == 0
    assert load_response(out) == train_response(30, seed=1)
    assert "information sets written" in capsys.readouterr().out
