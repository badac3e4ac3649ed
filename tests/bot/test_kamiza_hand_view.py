"""KAMIZA's private hand (bot/kamiza/hand.py): the buttons each seat gets at each moment, and the
handlers' answers, with real handlers, a real table and a real ledger (only Discord is faked).

Positions are reached by playing seeded matches: `find_line` plays one with the rules alone, then
`seat_line` seats the same header (same seed) at a real table and commits the same plays.
"""

from __future__ import annotations

import functools
import logging
import random
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fakediscord.server import validate_components, validate_embeds

import bot.runtime.manager as manager_module
from bot.i18n import t
from bot.kamiza import hand, render
from bot.layout.payload import BUTTON, payload, walk
from bot.runtime.errors import TableClosed, TableError
from bot.runtime.manager import Defaults, TableManager
from bot.runtime.place import Place
from bot.runtime.table import Table
from bot.tables.buttons import BUTTONS
from data.backends import open_ledger
from data.store import Seat
from rules.agents import random_action
from rules.base import IllegalAction
from rules.kamiza import Kamiza, Play
from rules.log import new_header, start
from tests.bot.fakes import (
    FakeInteraction,
    custom_ids,
    embed_strings,
    heading,
    layout_accepted,
    layout_text,
)
from tests.bot.test_runtime import GUILD, Recorder

LANGS = ("en", "ja")
LOCALE = {"en": "en-US", "ja": "ja"}
CLASSIC = {"edition": "classic"}
BRIBE = Play("policeman", "kamiza")

# -- matches played from a seed ------------------------------------------------------------------

Policy = Callable[[Kamiza, str, random.Random], Play]


@dataclass(frozen=True)
class Line:
    """A seeded match up to a position: the header's seed and the plays that reach it."""

    humans: int
    options: dict[str, Any]
    seed: int
    plays: tuple[tuple[str, Play], ...]

    def state(self) -> Kamiza:
        """The position, played again with the rules alone."""
        state = new_state(self.humans, self.options, self.seed)
        for player, action in self.plays:
            state.apply(player, action)
        return state


def header(humans: int, options: dict[str, Any], seed: int) -> dict[str, Any]:
    """The header a lobby of users 1..`humans` (joined in that order) starts with this seed."""
    return new_header("kamiza", [str(u) for u in range(1, humans + 1)], options, seed=seed)


def new_state(humans: int, options: dict[str, Any], seed: int) -> Kamiza:
    state = start(header(humans, options, seed))
    assert isinstance(state, Kamiza)
    return state


def policeman_bribes(state: Kamiza, player: str, rng: random.Random) -> Play:
    """The first seat puts its Corrupt Policeman in kamiza whenever it can, and nobody else does:
    it is bribed often and collects WANTED chips (K-10)."""
    legal = state.legal_actions(player)
    if player == state.players[0] and BRIBE in legal:
        return BRIBE
    return rng.choice([a for a in legal if a != BRIBE])


def find_line(
    wanted: Callable[[Kamiza], bool],
    *,
    humans: int = 3,
    options: dict[str, Any] | None = None,
    policy: Policy = random_action,
    seeds: Iterable[int] = range(300),
) -> Line:
    """The first seeded match that reaches a position where `wanted(state)` holds."""
    opts = options or {}
    for seed in seeds:
        state = new_state(humans, opts, seed)
        rng = random.Random(seed)
        plays: list[tuple[str, Play]] = []
        while True:
            if wanted(state):
                return Line(humans, opts, seed, tuple(plays))
            nxt = state.next()
            if nxt is None:
                break
            action = policy(state, nxt.player, rng)
            state.apply(nxt.player, action)
            plays.append((nxt.player, action))
    pytest.fail("no seeded match reaches the position wanted")


def at(game: int, round_: int, played: int = 0) -> Callable[[Kamiza], bool]:
    """Wanted: game `game`, round `round_`, with `played` cards on the table."""
    return lambda s: not s.finished and s.position() == (game, round_) and len(s.plays) == played


async def seat_line(manager: TableManager, monkeypatch: pytest.MonkeyPatch, line: Line) -> Table:
    """Seat users 1..n at a real table started from `line`'s seed, then commit its plays."""
    monkeypatch.setattr(manager_module, "new_header", functools.partial(new_header, seed=line.seed))
    home = 700 + len(manager.live())
    place = Place(GUILD, home, None)
    manager.reserve(home)
    lobby = await manager.open_lobby(
        game="kamiza", place=place, host_id=1, host_name="host", options=line.options, bots=0
    )
    for uid in range(2, line.humans + 1):
        await lobby.join(uid, f"user{uid}")
    table = await manager.start(lobby, 1)
    for player, action in line.plays:
        await table.act(player, action)
    assert table.state.view(None) == line.state().view(None)  # the same match
    return table


# -- fixtures and small readers ------------------------------------------------------------------


@pytest.fixture
async def ledger(tmp_path: Path):
    store = await open_ledger(f"sqlite:///{tmp_path / 'ledger.sqlite3'}")
    yield store
    await store.close()


@pytest.fixture
async def manager(ledger):
    tables = TableManager(
        ledger, {"kamiza": Recorder()}, Defaults(turn_seconds=3600, lobby_seconds=600)
    )
    yield tables
    await tables.shutdown()


def click(manager: TableManager, table: Table, player: str, lang: str) -> FakeInteraction:
    return FakeInteraction(manager, table.seats[player].user_id, GUILD, locale=LOCALE[lang])


def kamiza(table: Table) -> Kamiza:
    assert isinstance(table.state, Kamiza)
    return table.state


def buttons(embed: Any, view: Any) -> list[dict[str, Any]]:
    """The view's buttons as Discord gets them, checked against Discord's limits."""
    validate_embeds([embed.to_dict()])
    if view is None:
        return []
    rows = view.to_components()
    validate_components(rows, v2=False)  # 5 rows of 5, custom ids unique and <= 100 characters
    return [c for row in rows for c in row["components"]]


def ids(embed: Any, view: Any) -> list[str]:
    return [b["custom_id"] for b in buttons(embed, view)]


def laid_buttons(view: Any) -> list[dict[str, Any]]:
    """A laid-out menu's buttons as Discord gets them, the layout checked against its limits."""
    layout_accepted(view)
    return [c for c in walk(payload(view)) if c["type"] == BUTTON]


def laid_ids(view: Any) -> list[str]:
    layout_accepted(view)
    return custom_ids(view)


def args_of(custom_id: str) -> list[str]:
    """The handler arguments of a custom id (what `BUTTONS.dispatch` passes on)."""
    return custom_id.split(":")[3:]


async def recorded(ledger, table: Table) -> list[dict[str, Any]]:
    return list((await ledger.get_game(table.game_id)).actions)


def others(state: Kamiza, player: str) -> list[str]:
    return [p for p in state.players if p != player]


def name_count(text: str, lang: str, card: str) -> int:
    """How often a card's printed name appears (whole words: "Boss" is not in "Underboss")."""
    name = t(lang, f"glossary.kamiza.{card}")
    if lang == "en":
        return len(re.findall(rf"(?<![A-Za-z]){re.escape(name)}(?![A-Za-z])", text))
    return text.count(name)


def card_counts(strings: Sequence[str], lang: str, cards: Iterable[str]) -> dict[str, int]:
    """Per card: the least of how often its emoji, its name and its printed form appear."""
    text = "\n".join(strings)
    return {
        c: min(
            text.count(render.CARD_EMOJI[c]),
            name_count(text, lang, c),
            text.count(render.card(lang, c)),
        )
        for c in cards
    }


def card_mentions(strings: Sequence[str], lang: str, cards: Iterable[str]) -> dict[str, int]:
    """Per card: the most of how often its emoji or its name appear (any trace of it)."""
    text = "\n".join(strings)
    return {c: max(text.count(render.CARD_EMOJI[c]), name_count(text, lang, c)) for c in cards}


# -- the seat to act ---------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
async def test_k3_the_seat_to_act_gets_one_enabled_button_per_card_in_hand(
    manager, monkeypatch, lang
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(2, 2)))
    state = kamiza(table)
    player = state.next().player
    in_hand = state.hands[player]
    assert len(in_hand) == 3  # one card of game 2 is already played (K-2)
    embed, view = hand.hand_message(table, table.seats[player], lang)
    found = buttons(embed, view)
    assert [b["custom_id"] for b in found] == [f"g:kzc:{table.game_id}:2.2:{c}" for c in in_hand]
    assert all(len(b["custom_id"]) <= 100 and not b["disabled"] for b in found)
    assert [b["label"] for b in found] == [render.hand_label(lang, c) for c in in_hand]
    assert [b["emoji"]["name"] for b in found] == [render.CARD_EMOJI[c] for c in in_hand]
    assert embed.title == t(lang, "kamiza.hand.title", game=2, round=2)
    assert t(lang, "kamiza.hand.your_turn") in embed.description
    assert embed.fields[0].value == " ".join(render.card(lang, c) for c in in_hand)
    await table.stop()


async def test_custom_ids_fit_discord_for_the_largest_game_id() -> None:
    """Game ids up to 20 digits (the button template's limit) still give ids of <= 100."""
    state = new_state(4, {}, 0)
    seats = {p: Seat(p, int(p), f"user{p}") for p in state.players}
    for game_id in (1, 10**20 - 1):
        stub = SimpleNamespace(state=state, seats=seats, game_id=game_id)
        for player in state.players:
            embed, view = hand.hand_message(stub, seats[player], "en")
            found = ids(embed, view)
            assert sum(i.startswith("g:kzc:") for i in found) == 4
            assert all(len(i) <= 100 for i in found)


@pytest.mark.parametrize("lang", LANGS)
async def test_k4_a_boss_or_policeman_to_shimoza_asks_first_and_other_cards_do_not(
    manager, monkeypatch, lang
) -> None:
    """K-4: a Boss or Corrupt Policeman may be put in shimoza; the bot asks, never forbids."""
    table = await seat_line(manager, monkeypatch, find_line(at(1, 1)))
    state = kamiza(table)
    player = state.next().player
    gid = table.game_id
    for card in state.hands[player]:
        answer = click(manager, table, player, lang)
        await hand.choose_card(answer, gid, ["1.1", card])
        [edit] = answer.answers
        assert edit.kind == "edit" and heading(edit.view) == t(
            lang, "kamiza.hand.where", card=render.card(lang, card)
        )
        verb = "kzb" if card in ("boss", "policeman") else "kzp"
        assert laid_ids(edit.view) == [
            f"g:kzp:{gid}:1.1:{card}:kamiza",
            f"g:{verb}:{gid}:1.1:{card}:shimoza",
            f"g:kzh:{gid}",
        ]
    ask = click(manager, table, player, lang)
    await hand.confirm_bluff(ask, gid, ["1.1", "boss", "shimoza"])
    [edit] = ask.answers
    assert heading(edit.view) == t(lang, "kamiza.hand.bluff_title")
    warning = t(lang, "kamiza.hand.bluff_warning", card=render.card(lang, "boss"))
    assert layout_text(edit.view).splitlines()[1:] == [
        warning,
        f"[{t(lang, 'kamiza.hand.bluff_yes')}] [{t(lang, 'kamiza.hand.back')}]",
    ]  # the warning alone, then its buttons
    found = laid_buttons(edit.view)
    assert [b["custom_id"] for b in found] == [f"g:kzp:{gid}:1.1:boss:shimoza", f"g:kzh:{gid}"]
    assert found[0]["label"] == t(lang, "kamiza.hand.bluff_yes")
    assert table.seq == 0  # asking commits nothing
    go = click(manager, table, player, lang)
    await hand.play(go, gid, args_of(found[0]["custom_id"]))
    assert table.seq == 1  # the bluff is played as chosen
    assert table.state.view(player)["table"] == [
        {"player": player, "area": "shimoza", "card": "boss"}
    ]
    await table.stop()


async def test_k4_classic_raid_goes_to_shimoza_without_asking(manager, monkeypatch) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 1), options=CLASSIC))
    player = kamiza(table).next().player
    asked = click(manager, table, player, "en")
    await hand.choose_card(asked, table.game_id, ["1.1", "raid"])
    [edit] = asked.answers
    assert f"g:kzp:{table.game_id}:1.1:raid:shimoza" in laid_ids(edit.view)
    await table.stop()


# -- refusals that change nothing ----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
async def test_k2_choosing_a_card_already_played_this_game_is_refused_and_changes_nothing(
    manager, ledger, monkeypatch, lang
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 3)))
    state = kamiza(table)
    player = state.next().player
    gone = [c for c in state.cards if c not in state.hands[player]]
    assert len(gone) == 2
    before, seq, actions = state.view(None), table.seq, await recorded(ledger, table)
    for card in [*gone, "joker"]:
        chooser = click(manager, table, player, lang)
        with pytest.raises(TableError) as refused:
            await hand.choose_card(chooser, table.game_id, ["1.3", card])
        assert refused.value.key == "kamiza.hand.not_in_hand"
        assert chooser.answers == []
        # Through the dispatcher the refusal is a private answer in the user's language.
        clicked = click(manager, table, player, lang)
        await BUTTONS.dispatch(clicked, f"g:kzc:{table.game_id}:1.3:{card}")
        [answer] = clicked.answers
        assert answer.ephemeral and answer.content == t(lang, "kamiza.hand.not_in_hand")
    assert state.view(None) == before and table.seq == seq
    assert await recorded(ledger, table) == actions
    await table.stop()


async def test_k2_playing_a_card_not_in_hand_in_turn_is_refused_and_commits_nothing(
    manager, ledger, monkeypatch
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 2)))
    state = kamiza(table)
    player = state.next().player
    [gone] = [c for c in state.cards if c not in state.hands[player]]
    player_click = click(manager, table, player, "en")
    with pytest.raises(IllegalAction) as refused:
        await hand.play(player_click, table.game_id, ["1.2", gone, "kamiza"])
    assert refused.value.rule == "K-2"
    assert table.seq == 3 and len(await recorded(ledger, table)) == 3
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_a_stale_round_key_answers_with_the_current_hand_and_acts_on_nothing(
    manager, ledger, monkeypatch, lang
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 2)))
    state = kamiza(table)
    player = state.next().player
    card = state.hands[player][0]
    handlers = [
        (hand.choose_card, ["1.1", card]),
        (hand.confirm_bluff, ["1.1", card]),
        (hand.play, ["1.1", card, "kamiza"]),
        (hand.play, ["2.2", card, "kamiza"]),  # a key from the future is not this round either
    ]
    for handler, args in handlers:
        old = click(manager, table, player, lang)
        await handler(old, table.game_id, args)
        [edit] = old.answers
        assert edit.kind == "edit"
        assert heading(edit.view) == t(lang, "kamiza.hand.title", game=1, round=2)
        assert layout_text(edit.view).splitlines()[1] == t(lang, "kamiza.hand.stale")
        assert laid_ids(edit.view) == [
            *(f"g:kzc:{table.game_id}:1.2:{c}" for c in state.hands[player]),
            f"g:dm:{table.game_id}:on",  # the hand menu's toggle: by DM from here
        ]
    assert table.seq == 3 and len(await recorded(ledger, table)) == 3
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_k3_play_out_of_turn_is_answered_privately_and_commits_nothing(
    manager, ledger, monkeypatch, lang
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 1, played=1)))
    state = kamiza(table)
    to_act = state.next().player
    before = await recorded(ledger, table)
    for player in others(state, to_act):
        card = state.hands[player][0]
        early = click(manager, table, player, lang)
        await hand.play(early, table.game_id, ["1.1", card, "kamiza"])
        [answer] = early.answers
        assert answer.kind == "message" and answer.ephemeral and answer.view is None
        waiting = table.seats[to_act].display_name
        assert answer.content == t(lang, "kamiza.hand.not_your_turn", player=waiting)
    assert await recorded(ledger, table) == before and table.seq == 1
    assert state.next().player == to_act
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_k3_play_in_turn_commits_exactly_one_action(
    manager, ledger, monkeypatch, lang
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 2)))
    state = kamiza(table)
    player = state.next().player
    card = next(c for c in state.hands[player] if c != "policeman")
    before = await recorded(ledger, table)
    done = click(manager, table, player, lang)
    await hand.play(done, table.game_id, ["1.2", card, "shimoza"])
    after = await recorded(ledger, table)
    assert after[: len(before)] == before
    assert after[len(before) :] == [{"player": player, "card": card, "area": "shimoza"}]
    assert table.seq == len(before) + 1
    [edit] = done.answers
    assert edit.kind == "edit" and laid_ids(edit.view) == []  # nothing left to press
    assert layout_text(edit.view) == t(
        lang,
        "kamiza.hand.done",
        card=render.card(lang, card),
        area=render.area(lang, "shimoza"),
    )
    assert card not in state.hands[player]
    await table.stop()


# -- everyone else -------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
async def test_k3_a_player_who_played_sees_it_and_no_button_of_theirs_can_act(
    manager, ledger, monkeypatch, lang
) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(2, 1)))
    state = kamiza(table)
    player = state.next().player
    first = click(manager, table, player, lang)
    await hand.play(first, table.game_id, ["2.1", "underboss", "shimoza"])
    committed = await recorded(ledger, table)
    embed, view = hand.hand_message(table, table.seats[player], lang)
    played = t(
        lang,
        "kamiza.hand.played",
        card=render.card(lang, "underboss"),
        area=render.area(lang, "shimoza"),
    )
    assert played in embed.description
    assert t(lang, "kamiza.hand.your_turn") not in embed.description
    assert "underboss" not in state.hands[player]
    shown = buttons(embed, view)
    cards = [b for b in shown if b["custom_id"].startswith("g:kzc:")]
    assert not any(b["custom_id"].endswith(":underboss") for b in cards)
    assert cards and all(b["disabled"] for b in cards)  # shown, not playable out of turn
    assert [b["custom_id"] for b in shown if not b["disabled"]] == [f"g:kzh:{table.game_id}"]
    # A forged click on a card, an area or the bluff question is refused: nothing is committed.
    waiting = t(
        lang, "kamiza.hand.not_your_turn", player=table.seats[state.next().player].display_name
    )
    for card_id in (b["custom_id"] for b in cards):
        key, card = args_of(card_id)
        for handler, args in (
            (hand.choose_card, [key, card]),
            (hand.confirm_bluff, [key, "boss"]),
            (hand.play, [key, card, "kamiza"]),
        ):
            presser = click(manager, table, player, lang)
            await handler(presser, table.game_id, args)
            [answer] = presser.answers
            assert answer.ephemeral and answer.kind == "message" and answer.content == waiting
    assert await recorded(ledger, table) == committed
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_k3_the_hand_out_of_turn_says_whose_turn_it_is(manager, monkeypatch, lang) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 1)))
    state = kamiza(table)
    to_act = state.next().player
    waiting = table.seats[to_act].display_name
    for player in others(state, to_act):
        embed, view = hand.hand_message(table, table.seats[player], lang)
        assert t(lang, "kamiza.hand.waiting", player=waiting) in embed.description
        assert t(lang, "kamiza.hand.your_turn") not in embed.description
        shown = buttons(embed, view)  # one may look at the cards before one's turn, not play
        cards = [b for b in shown if b["custom_id"].startswith("g:kzc:")]
        assert len(cards) == 4 and all(b["disabled"] for b in cards)
        assert [b["custom_id"] for b in shown if not b["disabled"]] == [f"g:kzh:{table.game_id}"]
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_k10_a_dropped_player_gets_no_view_and_cannot_play(
    manager, ledger, monkeypatch, lang
) -> None:
    line = find_line(lambda s: bool(s.dropped) and s.next() is not None, policy=policeman_bribes)
    table = await seat_line(manager, monkeypatch, line)
    state = kamiza(table)
    [out] = state.dropped
    embed, view = hand.hand_message(table, table.seats[out], lang)
    assert view is None and t(lang, "kamiza.hand.dropped") in embed.description
    again = click(manager, table, out, lang)
    await hand.show_again(again, table.game_id, [])
    [edit] = again.answers
    assert laid_ids(edit.view) == []
    assert t(lang, "kamiza.hand.dropped") in layout_text(edit.view).splitlines()
    before = await recorded(ledger, table)
    key = hand.round_key(state)
    presser = click(manager, table, out, lang)
    await hand.play(presser, table.game_id, [key, state.hands[out][0], "kamiza"])
    [answer] = presser.answers
    assert answer.ephemeral and await recorded(ledger, table) == before
    await table.stop()


@pytest.mark.parametrize("lang", LANGS)
async def test_k2_a_finished_match_gets_no_view(manager, monkeypatch, lang) -> None:
    table = await seat_line(manager, monkeypatch, find_line(lambda s: s.finished))
    await table.outbox.drain()  # the end is written after the last play's messages
    assert table.closed
    for seat in table.seats.values():
        embed, view = hand.hand_message(table, seat, lang)
        assert view is None and t(lang, "kamiza.table.over") in embed.description
    player = next(iter(table.seats))
    late = click(manager, table, player, lang)
    with pytest.raises(TableClosed):
        await hand.show_again(late, table.game_id, [])
    await BUTTONS.dispatch(late, f"g:kzp:{table.game_id}:3.3:boss:kamiza")
    [answer] = late.answers
    assert answer.ephemeral and answer.content == t(lang, "error.table_closed")


async def test_g3_a_hand_shows_its_owners_cards_and_no_one_elses() -> None:
    """Every seat's hand at every play of seeded matches (both editions, advanced, 3 and 4
    players): only the owner's cards in hand and the card they put down this round."""
    for humans, options in ((3, {}), (4, CLASSIC), (4, {"advanced": True})):
        state = new_state(humans, options, 11)
        seats = {p: Seat(p, int(p), f"user{p}") for p in state.players}
        stub = SimpleNamespace(state=state, seats=seats, game_id=5)
        rng = random.Random(11)
        while (nxt := state.next()) is not None:
            for lang in LANGS:
                for player in state.players:
                    mine = [*state.hands[player]]
                    mine += [p.card for p in state.plays if p.player == player]
                    embed, _ = hand.hand_message(stub, seats[player], lang)
                    strings = embed_strings(embed)
                    expected = {c: mine.count(c) for c in state.cards}
                    assert card_mentions(strings, lang, state.cards) == expected
                    assert card_counts(strings, lang, state.cards) == expected
            state.apply(nxt.player, random_action(state, nxt.player, rng))


async def test_a_forged_bluff_card_is_a_warning_not_an_error(manager, monkeypatch, caplog) -> None:
    table = await seat_line(manager, monkeypatch, find_line(at(1, 1)))
    player = kamiza(table).next().player
    caplog.set_level(logging.WARNING)
    forged = click(manager, table, player, "en")
    try:
        await BUTTONS.dispatch(forged, f"g:kzb:{table.game_id}:1.1:joker")
    finally:
        await table.stop()
    assert table.seq == 0
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]
    assert [a.ephemeral for a in forged.answers] == [True]
