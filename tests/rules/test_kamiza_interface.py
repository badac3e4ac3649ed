"""KAMIZA's typed interface: observation (G-3), determinize, clone, results, and the fast paths
(memoised judging, random draws, log parsing) agreeing with the plain ones."""

from __future__ import annotations

import random
import typing
from collections.abc import Iterator

import pytest
from kamiza_helpers import SETUPS

from rules.agents import random_action
from rules.base import IllegalAction, MalformedAction, Result
from rules.kamiza import AREAS, CARD_SETS, Kamiza, KamizaEvent, KamizaObservation, Play
from rules.kamiza_judge import PlayedCard, judge_round
from rules.kamiza_memo import EDITION_CODES, PLAY_CODES, round_template
from rules.log import new_header, start

PLAYERS = ["ann", "ben", "cho", "dev"]


def new_match(seed: int, n: int, edition: str, advanced: bool) -> Kamiza:
    header = new_header(
        "kamiza", PLAYERS[:n], {"edition": edition, "advanced": advanced}, seed=seed
    )
    game = start(header)
    assert isinstance(game, Kamiza)
    return game


def positions(seed: int, n: int, edition: str, advanced: bool) -> Iterator[Kamiza]:
    """Every position of one random match, from the first play to the end."""
    game = new_match(seed, n, edition, advanced)
    rng = random.Random(seed)
    while (nxt := game.next()) is not None:
        yield game
        game.apply(nxt.player, random_action(game, nxt.player, rng))
    yield game


def hidden_cards(game: Kamiza, viewer: str) -> list[PlayedCard]:
    """The cards on the table this round that `viewer` does not see (K-3)."""
    face_up = game.start_player if game.advanced else None
    return [p for p in game.plays if p.player not in (viewer, face_up)]


def play_to_the_end(game: Kamiza, rng: random.Random) -> None:
    while (nxt := game.next()) is not None:
        game.check(nxt.player, game.legal_actions(nxt.player)[0])
        game.apply(nxt.player, random_action(game, nxt.player, rng))
    assert game.over and game.winners()


# -- observation (G-3) ---------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_g3_observation_is_exactly_the_view(n: int, edition: str, advanced: bool) -> None:
    for game in positions(11, n, edition, advanced):
        for viewer in [*game.players, None, "stranger"]:
            seen = game.observation(viewer)
            assert isinstance(seen, KamizaObservation)
            assert seen.to_view() == game.view(viewer)
            hand = game.hands.get(viewer) if viewer is not None else None
            assert seen.hand == hand
            for card, play in zip(seen.table, game.plays, strict=True):
                visible = play.player == viewer or (advanced and play.player == game.start_player)
                assert card.card == (play.card if visible else None)
                assert (card.player, card.area) == (play.player, play.area)


def test_g3_observation_is_frozen_and_holds_copies() -> None:
    game = new_match(5, 4, "second", False)
    seen = game.observation("ann")
    with pytest.raises(AttributeError):
        seen.hand = ()  # type: ignore[misc]  # frozen on purpose: the test checks it
    assert seen.totals is not game.totals and seen.wanted is not game.wanted


def test_g3_last_round_shows_the_judged_round() -> None:
    for game in positions(3, 4, "classic", False):
        last = game.observation(None).last_round
        if game.position() != (1, 1) and game.plays == () and last is not None:
            assert last.to_json()["plays"] == [p.to_json() for p in last.plays]
            assert sum(last.points.values()) >= 0


# -- determinize ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_determinize_keeps_the_players_observation(n: int, edition: str, advanced: bool) -> None:
    for seed in range(3):
        for index, game in enumerate(positions(seed, n, edition, advanced)):
            for viewer in game.players:
                before = {p: game.view(p) for p in [*game.players, None]}
                drawn = game.determinize(viewer, random.Random(seed * 1000 + index))
                assert drawn.observation(viewer) == game.observation(viewer)
                assert {p: game.view(p) for p in [*game.players, None]} == before
                # K-2: every player holds the set less what they played this game.
                for player in game.players:
                    if player in drawn.dropped:
                        continue
                    on_table = [p.card for p in drawn.plays if p.player == player]
                    played = [*drawn.revealed[player], *on_table]
                    assert sorted(drawn.hands[player] + tuple(played)) == sorted(drawn.cards)


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_determinized_states_play_to_the_end_legally(n: int, edition: str, advanced: bool) -> None:
    for index, game in enumerate(positions(21, n, edition, advanced)):
        if index % 4:
            continue
        for viewer in game.players:
            drawn = game.determinize(viewer, random.Random(index))
            play_to_the_end(drawn, random.Random(index))
            assert set(drawn.scores()) == set(game.players)


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_determinize_varies_what_is_hidden(n: int, edition: str, advanced: bool) -> None:
    checked = 0
    for game in positions(8, n, edition, advanced):
        for viewer in game.players:
            hidden = hidden_cards(game, viewer)
            if not hidden:
                # Nothing hidden: every draw is the state itself, as the viewer sees it.
                drawn = game.determinize(viewer, random.Random(1))
                assert drawn.plays == game.plays and drawn.hands == game.hands
                continue
            draws = {
                tuple(
                    p.card for p in hidden_cards(game.determinize(viewer, random.Random(s)), viewer)
                )
                for s in range(30)
            }
            assert len(draws) > 1, (game.position(), viewer, hidden)
            checked += 1
    assert checked > 10


def test_determinize_draws_only_cards_the_player_could_still_hold() -> None:
    for game in positions(4, 4, "second", False):
        for viewer in game.players:
            for seed in range(10):
                drawn = game.determinize(viewer, random.Random(seed))
                for play in hidden_cards(drawn, viewer):
                    assert play.card not in game.revealed[play.player]
                    assert play.card in game.cards


# -- clone -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_clone_is_independent(n: int, edition: str, advanced: bool) -> None:
    rng = random.Random(2)
    for game in positions(17, n, edition, advanced):
        if game.over:
            break
        views = {p: game.view(p) for p in [*game.players, None]}
        twin = game.clone()
        assert {p: twin.view(p) for p in [*game.players, None]} == views
        play_to_the_end(twin, rng)
        assert {p: game.view(p) for p in [*game.players, None]} == views


def test_clone_continues_exactly_like_the_original() -> None:
    rng_a, rng_b = random.Random(9), random.Random(9)
    game = new_match(9, 4, "classic", True)
    for _ in range(13):
        nxt = game.next()
        assert nxt is not None
        game.apply(nxt.player, random_action(game, nxt.player, rng_a))
    rng_b.setstate(rng_a.getstate())
    twin = game.clone()
    while (nxt := game.next()) is not None:
        action = random_action(game, nxt.player, rng_a)
        assert random_action(twin, nxt.player, rng_b) == action
        assert [e.to_json() for e in twin.apply(nxt.player, action)] == [
            e.to_json() for e in game.apply(nxt.player, action)
        ]
    assert twin.result() == game.result()


# -- results ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "edition", "advanced"), SETUPS)
def test_k13_result_and_tie_break_used(n: int, edition: str, advanced: bool) -> None:
    for seed in range(40):
        *_, game = positions(seed, n, edition, advanced)
        result = game.result()
        assert isinstance(result, Result)
        assert result.scores == game.scores()
        assert list(result.winners) == game.winners()
        assert [list(g) for g in result.ranking] == game.ranking()
        assert result.tie_break == game.tie_break_used() == game.tie_break
        assert result.tie_break in (None, "chicken", "shared")


def test_events_are_kamiza_events() -> None:
    kinds = typing.get_args(KamizaEvent)
    seen = set()
    for seed in range(20):
        game = new_match(seed, 3, ("second", "classic")[seed % 2], True)
        rng = random.Random(seed)
        while (nxt := game.next()) is not None:
            for event in game.apply(nxt.player, random_action(game, nxt.player, rng)):
                assert isinstance(event, kinds)
                seen.add(type(event))
    assert len(seen) >= 12


# -- fast paths against plain ones -----------------------------------------------------------------


@pytest.mark.parametrize("edition", ["second", "classic"])
def test_k4_to_k11_memoised_judging_equals_the_judge(edition: str) -> None:
    rng = random.Random(edition)
    cards = CARD_SETS[edition]
    names = ["w", "x", "y", "z"]
    for _ in range(3000):
        n = rng.choice([2, 3, 4])
        plays = [PlayedCard(names[i], rng.choice(cards), rng.choice(AREAS)) for i in range(n)]
        code = EDITION_CODES[edition]
        for play in plays:
            code = code * 16 + PLAY_CODES[play.card, play.area]
        order = tuple(p.player for p in plays)
        judged = judge_round(plays, edition)
        template = round_template(code)
        game = Kamiza(tuple(names[:n]), edition, False, names[0])
        named = game._memo.events(template) if order == game.order else None
        assert dict(zip(order, template.points, strict=True)) == judged.points
        assert [order[s] for s in template.wanted] == judged.wanted
        squealer = None if template.squealer is None else order[template.squealer]
        assert squealer == judged.squealer
        if named is not None:
            assert named == judged.events


def test_random_action_draws_like_choice_of_legal_actions() -> None:
    for game in positions(13, 4, "second", False):
        nxt = game.next()
        if nxt is None:
            continue
        for seed in range(5):
            ours, theirs = random.Random(seed), random.Random(seed)
            assert game.random_action(nxt.player, ours) == theirs.choice(
                game.legal_actions(nxt.player)
            )
            assert ours.getstate() == theirs.getstate()
    other = new_match(1, 3, "second", False)
    waiting = next(p for p in other.players if p != other.order[0])
    with pytest.raises(IndexError):
        other.random_action(waiting, random.Random(0))


class _Fields(dict[str, object]):
    """A mapping that is not exactly a dict: parsed the long way."""


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"card": "boss", "area": "kamiza"}, Play("boss", "kamiza")),
        (_Fields(card="hitman", area="shimoza"), Play("hitman", "shimoza")),
        ({"card": "boss"}, "LOG: missing field 'area'"),
        ({"card": "boss", "area": "kamiza", "extra": 1}, "LOG: unknown field 'extra'"),
        ({"card": ["boss"], "area": "kamiza"}, "LOG: unknown card ['boss']"),
        (
            {"card": "boss", "area": {"k": 1}},
            "LOG: area must be 'kamiza' or 'shimoza', not {'k': 1}",
        ),
        ({"card": "joker", "area": "kamiza"}, "LOG: unknown card 'joker'"),
        ({"card": "boss", "area": "floor"}, "LOG: area must be 'kamiza' or 'shimoza', not 'floor'"),
        ({"card": None, "area": None}, "LOG: unknown card None"),
        ({"area": "kamiza", "cards": "boss"}, "LOG: missing field 'card'"),
    ],
)
def test_log_parse_fast_path_answers_like_the_checks(
    data: dict[str, object], expected: object
) -> None:
    if isinstance(expected, Play):
        assert Kamiza.parse_action(data) == expected
    else:
        with pytest.raises(MalformedAction) as err:
            Kamiza.parse_action(data)
        assert str(err.value) == expected


def test_g2_apply_of_odd_plays_refuses_like_before() -> None:
    game = new_match(2, 3, "second", False)
    player = game.order[0]
    for action, rule in [
        (Play(["boss"], "kamiza"), "K-1"),  # type: ignore[arg-type]  # malformed on purpose
        (Play("boss", ["kamiza"]), "K-3"),  # type: ignore[arg-type]  # malformed on purpose
        (Play("raid", "kamiza"), "K-1"),
        (Play("boss", "floor"), "K-3"),
        ("boss", "K-3"),
    ]:
        with pytest.raises(IllegalAction) as err:
            game.apply(player, action)
        assert err.value.rule == rule
    assert game.plays == () and game.hands[player] == game.cards

    class Shiny(Play):
        """A Play subclass is still the play it equals."""

    events = game.apply(player, Shiny("boss", "kamiza"))
    assert events[0].to_json() == {
        "type": "card_placed",
        "player": player,
        "card": "boss",
        "area": "kamiza",
        "face_up": False,
    }
    assert game.hands[player] == ("underboss", "hitman", "policeman")


def test_g2_log_fast_forward_stops_where_apply_entry_must_answer() -> None:
    game = new_match(4, 3, "second", False)
    first, second = game.order[0], game.order[1]
    entries: list[object] = [
        {"player": first, "card": "boss", "area": "kamiza"},
        {"player": second, "card": "boss", "area": "kamiza", "note": 1},  # not plain
        {"player": second, "card": "boss", "area": "kamiza"},
        {"player": first, "card": "boss", "area": "kamiza"},  # not their turn: refused
    ]
    assert game.fast_forward(entries, 0) == 1
    assert game.fast_forward(entries, 2) == 3
    assert game.plays[-1].player == second and len(game.plays) == 2
    assert game.fast_forward(entries, 3) == 3  # refused: left to apply_entry, nothing changed
    assert len(game.plays) == 2
