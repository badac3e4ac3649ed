"""Rights of Losers' Discord side without Discord: menus within Discord's limits and offering
exactly the legal actions, the handlers' refusals, the table board (and the status embed), the
picture and the texts."""

from __future__ import annotations

import random
import re
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from fakediscord.server import validate_components, validate_embeds

from bot.layout import as_text, check
from bot.layout.board import compose
from bot.layout.payload import payload
from bot.losers import boards, hand, menus, render  # noqa: F401  (hand registers the verbs)
from bot.losers.names import parse_cell, parse_spot, spot_code
from bot.runtime.lobby import human_seat
from bot.runtime.place import Place
from bot.runtime.table import Table, Timing
from bot.tables.buttons import TableButton
from bot.tables.selects import TableSelect
from rules.agents import computer_action, random_action
from rules.log import new_header, start
from rules.losers_actions import Move
from rules.losers_board import CARD_SUIT, TOUCHED_BY
from tests.bot.fakes import layout_text

PNG = b"\x89PNG\r\n\x1a\n"
NAMES = {"1": "ann", "2": "ben", "3": "cho", "4": "dev", "5": "eve"}


# -- a table without Discord ---------------------------------------------------------------------


class Ledger:
    """Accepts every write (the ledger is tested on its own)."""

    def __init__(self) -> None:
        self.actions: list[dict[str, Any]] = []

    async def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> bool:
        self.actions.append(action)
        return True

    async def finish_game(self, game_id: int) -> list[Any]:
        return []

    async def end_game(self, game_id: int, status: str, reason: str) -> None:
        return None


class Silent:
    """A presenter that shows nothing."""

    def __getattr__(self, name: str) -> Any:
        async def nothing(*args: Any, **kwargs: Any) -> None:
            return None

        return nothing


def make_table(players: int = 3, seed: int = 1) -> Table:
    ids = list(NAMES)[:players]
    header = new_header("rights-of-losers", ids, {}, seed=seed)
    seats = [human_seat(int(p), NAMES[p]) for p in ids]
    return Table(
        game_id=7,
        place=Place(1, 2, None),
        host_id=1,
        seats=seats,
        state=start(header),
        seq=0,
        ledger=Ledger(),  # type: ignore[arg-type]
        presenter=Silent(),  # type: ignore[arg-type]
        timing=Timing(turn_seconds=3600),
    )


def advance(table: Table, rng: random.Random, until) -> bool:
    """Apply computer actions (no ledger, no clock) until `until(state)`; False if never."""
    state = table.state
    while not state.over:
        if until(state):
            return True
        nxt = state.next()
        state.apply(nxt.player, computer_action(state, nxt.player, rng))
        table.seq += 1
    return False


def seat(table: Table, player: str | None = None) -> Any:
    return table.seats[player or table.state.next().player]


class Response:
    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def is_done(self) -> bool:
        return bool(self.calls)

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self.calls.append(("send", {"content": content, **kwargs}))

    async def edit_message(self, **kwargs: Any) -> None:
        self.calls.append(("edit", kwargs))


class Interaction:
    """What the handlers read of a discord.Interaction."""

    def __init__(self, table: Table, user_id: int, values: list[str] | None = None, locale="en-US"):
        tables = SimpleNamespace(get=lambda gid: table if gid == table.game_id else None)
        self.client = SimpleNamespace(tables=tables)
        self.guild_id = table.place.guild_id
        self.channel_id = None  # not the table's channel: what follows goes with the bot token
        self.user = SimpleNamespace(id=user_id, display_name=f"user{user_id}")
        self.locale = locale
        self.permissions = None
        self.data = {"values": values or []}
        self.response = Response()
        self.followup = SimpleNamespace(send=self.response.send_message)

    @property
    def answer(self) -> tuple[str, dict[str, Any]]:
        assert len(self.response.calls) == 1, self.response.calls
        return self.response.calls[0]

    def text(self) -> str:
        _, kwargs = self.answer
        embed = kwargs.get("embed")
        shown = (kwargs.get("content") or "") + (str(embed.to_dict()) if embed else "")
        return shown + layout_text(kwargs.get("view"))


async def use(table: Table, user_id: int, custom_id: str, values: list[str] | None = None):
    """Click a button or choose in a select, through the same DynamicItem as Discord would."""
    interaction = Interaction(table, user_id, values)
    if custom_id.startswith("g:"):
        item: Any = TableButton(discord.ui.Button(label="x", custom_id=custom_id))
    else:
        options = [discord.SelectOption(label="x")]
        item = TableSelect(discord.ui.Select(custom_id=custom_id, options=options))
    await item.callback(interaction)  # type: ignore[arg-type]
    return interaction


def items(found: menus.Menu) -> list[dict[str, Any]]:
    embed, view = found
    validate_embeds([embed.to_dict()])
    if view is None:
        return []
    rows = view.to_components()
    validate_components(rows, v2=False)  # 5 rows, 5 buttons a row, 25 options, ids <= 100
    return [c for row in rows for c in row["components"]]


def by_verb(components: list[dict[str, Any]], prefix: str) -> list[dict[str, Any]]:
    return [c for c in components if c.get("custom_id", "").startswith(prefix)]


# -- menus -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4, 5])
async def test_every_menu_fits_discord_and_offers_exactly_the_legal_actions(players: int) -> None:
    table = make_table(players, seed=players)
    state, rng = table.state, random.Random(players)
    while not state.over:
        me = seat(table)
        for lang in ("en", "ja"):
            shown = items(menus.menu(table, me, lang))
            check_menu(table, me, shown, lang)
        for other in table.seats.values():
            if other is not me:
                assert [c["custom_id"] for c in items(menus.menu(table, other, "en"))] == [
                    "g:rlh:7"
                ]
        shown = boards.Shown(state.observation(None), str, NAMES)
        validate_embeds([boards.table_embed(shown, "ja").to_dict()])
        layout = compose(boards.table_board(shown, "ja"))
        check(layout)
        validate_components(payload(layout), v2=True)
        nxt = state.next()
        state.apply(nxt.player, random_action(state, nxt.player, rng))
        table.seq += 1
    assert items(menus.menu(table, seat(table, "1"), "en")) == []


def check_menu(table: Table, me: Any, shown: list[dict[str, Any]], lang: str) -> None:
    state = table.state
    legal = state.legal_actions(me.player)
    expects = state.next().expects
    if expects == "play":
        buttons = by_verb(shown, f"g:rlp:7:{table.seq}:")
        enabled = {b["custom_id"].split(":")[-1] for b in buttons if not b.get("disabled")}
        assert enabled == {a.card for a in legal}
        assert [b["custom_id"].split(":")[-1] for b in buttons] == state.hands[me.player]
    elif expects == "chip":
        offered = [o["value"] for s in by_verb(shown, "s:rlc:") for o in s["options"]]
        assert sorted(parse_spot(v) for v in offered) == state.legal_chip_spots(me.player)
        assert len(offered) == len(set(offered))
    elif expects == "build":
        (cards,) = by_verb(shown, "s:rlb:")
        assert cards["min_values"] == cards["max_values"] == 2
        assert {o["value"] for o in cards["options"]} == set(state.won)
        pair = (state.won[0], state.won[1])
        first_menu = items(menus.build_cell_menu(table, lang, pair, None))
        (cells,) = by_verb(first_menu, "s:rlba:")
        empty = state.empty_building_cells()
        assert [parse_cell(o["value"]) for o in cells["options"]] == empty
        second_menu = items(menus.build_cell_menu(table, lang, pair, empty[0]))
        (cells,) = by_verb(second_menu, "s:rlbb:")
        assert [parse_cell(o["value"]) for o in cells["options"]] == empty[1:]
    else:
        (appoint,) = by_verb(shown, "s:rla:")
        assert [o["value"] for o in appoint["options"]] == list(state.players)
        moves = [a for a in legal if isinstance(a, Move)]
        (move,) = by_verb(shown, "g:rlm:")
        assert move.get("disabled", False) == (not moves)
        if moves:
            check_moves(table, me, moves, lang)


def check_moves(table: Table, me: Any, moves: list[Move], lang: str) -> None:
    (sources,) = by_verb(items(menus.move_from_menu(table, me, lang)), "s:rlmf:")
    offered = [parse_spot(o["value"]) for o in sources["options"]]
    assert offered == sorted({m.source for m in moves})
    source = offered[-1]
    shown = items(menus.move_to_menu(table, me, lang, source))
    targets = [parse_spot(o["value"]) for s in by_verb(shown, "s:rlmt:") for o in s["options"]]
    assert sorted(targets) == sorted(m.to for m in moves if m.source == source)


def touched_cards(seen: Any, at: tuple[int, int]) -> list[int]:
    """The cells with a card that the spot touches, in reading order (R-3)."""
    return [cell for cell in TOUCHED_BY[at[0] * 9 + at[1]] if seen.field[cell] is not None]


async def test_chip_spots_are_named_readably_grouped_by_card_in_menus_of_25() -> None:
    table = make_table(3, seed=3)
    assert advance(table, random.Random(3), lambda s: s.phase == "chip" and len(s.open) > 50)
    shown = items(menus.menu(table, seat(table), "en"))
    selects = by_verb(shown, "s:rlc:")
    assert len(selects) >= 3 and all(len(s["options"]) <= 25 for s in selects)
    labels = [o["label"] for s in selects for o in s["options"]]
    assert all(
        re.fullmatch(r"(card [A-E][1-5]|edge \w\d\|\w\d|corner \w\d/\w\d)", x) for x in labels
    )
    me = seat(table)
    seen = table.state.observation(me.player)
    mine = [at for at, owner in seen.chips if owner == me.player]
    assert mine  # seed 3: the player has chips down, so the first menu is next to them
    assert selects[0]["placeholder"].startswith("Chip: next to my chips, cards ")
    backed = {cell for at in mine for cell in touched_cards(seen, at)}
    first = [parse_spot(o["value"]) for o in selects[0]["options"]]
    assert all(backed & set(touched_cards(seen, at)) for at in first)
    later = [parse_spot(o["value"]) for s in selects[1:] for o in s["options"]]
    assert not any(backed & set(touched_cards(seen, at)) for at in later)
    assert all(s["placeholder"].startswith("Chip: spots by cards ") for s in selects[1:])
    # by card: each card's spots together, the cards in reading order
    cards = [touched_cards(seen, at)[0] for at in later]
    assert cards == sorted(cards)
    assert all(o.get("description") for s in selects for o in s["options"])  # what it touches
    japanese = by_verb(items(menus.menu(table, seat(table), "ja")), "s:rlc:")
    assert japanese[0]["options"][0]["label"].split()[0] in ("札", "辺", "角")


async def test_cards_that_must_follow_forbids_are_disabled() -> None:
    table = make_table(4, seed=9)

    def follow_with_choice(state) -> bool:
        if state.phase != "play" or not state.trick:
            return False
        led = CARD_SUIT[state.trick[0][1]]
        hand_now = state.hands[state.next().player]
        return any(CARD_SUIT[c] == led for c in hand_now) and any(
            CARD_SUIT[c] != led for c in hand_now
        )

    assert advance(table, random.Random(9), follow_with_choice)
    buttons = by_verb(items(menus.menu(table, seat(table), "en")), "g:rlp:")
    led = CARD_SUIT[table.state.trick[0][1]]
    for b in buttons:
        card_id = b["custom_id"].split(":")[-1]
        assert b.get("disabled", False) == (CARD_SUIT[card_id] != led)
    assert len(buttons) <= 10


# -- handlers --------------------------------------------------------------------------------------


async def test_interlopers_stale_menus_and_other_players_change_nothing() -> None:
    table = make_table(3, seed=4)
    player = table.state.next().player
    waiting = next(p for p in table.seats if p != player)
    card = table.state.legal_actions(player)[0].card
    play = f"g:rlp:7:0:{card}"

    stranger = await use(table, 99, play)
    assert stranger.answer[0] == "send" and "not seated" in stranger.text()
    other = await use(table, int(waiting), play)
    assert other.answer[0] == "send" and "Not your turn" in other.text()
    stale = await use(table, int(player), f"g:rlp:7:5:{card}")
    assert stale.answer[0] == "edit" and "out of date" in stale.text()
    bogus = await use(table, int(player), "g:rlp:7:0:red-99")
    assert bogus.answer[0] == "send" and "not on offer" in bogus.text()
    held = next(c for c in table.state.hands[waiting] if c not in table.state.hands[player])
    not_held = await use(table, int(player), f"g:rlp:7:0:{held}")
    assert "Not allowed (R-4)" in not_held.text()
    assert table.seq == 0 and table.ledger.actions == []  # type: ignore[attr-defined]

    done = await use(table, int(player), play)
    assert done.answer[0] == "edit" and "✅" in done.text() and table.seq == 1
    again = await use(table, int(player), play)  # a double click
    assert "out of date" in again.text() and table.seq == 1
    await table.stop()


async def test_build_and_move_step_by_step_through_the_handlers() -> None:
    table = make_table(3, seed=6)
    rng = random.Random(6)
    assert advance(table, rng, lambda s: s.phase == "build")
    me = table.state.next().player
    a, b = table.state.won[:2]
    seq = table.seq
    unoffered = await use(table, int(me), f"s:rlb:7:{seq}", ["red-99", a])
    assert "not on offer" in unoffered.text()
    step = await use(table, int(me), f"s:rlb:7:{seq}", [a, b])
    assert step.answer[0] == "edit" and table.seq == seq
    cell = table.state.empty_building_cells()[0]
    first = "ABCDE"[cell[1]] + str(cell[0] + 1)
    await use(table, int(me), f"s:rlba:7:{seq}:{a}:{b}", [first])
    taken = await use(table, int(me), f"s:rlbb:7:{seq}:{a}:{b}:{first}", [first])
    assert "Not allowed" in taken.text() and table.seq == seq  # the rules refuse one cell twice
    second = table.state.empty_building_cells()[1]
    name = "ABCDE"[second[1]] + str(second[0] + 1)
    built = await use(table, int(me), f"s:rlbb:7:{seq}:{a}:{b}:{first}", [name])
    assert "✅" in built.text() and table.seq == seq + 1
    assert table.state.field[cell[0] * 5 + cell[1]] == a

    assert advance(
        table, rng, lambda s: s.phase == "choice" and any(p == s.winner for p in s.chips.values())
    )
    me, seq = table.state.next().player, table.seq
    move = next(x for x in table.state.legal_actions(me) if isinstance(x, Move))
    sources = await use(table, int(me), f"g:rlm:7:{seq}")
    assert "Which of your chips" in sources.text()
    src, dst = spot_code(move.source), spot_code(move.to)
    await use(table, int(me), f"s:rlmf:7:{seq}", [src])
    moved = await use(table, int(me), f"s:rlmt:7:{seq}:{src}:0", [dst])
    assert "✅" in moved.text() and table.seq == seq + 1
    assert table.state.chips[move.to[0] * 9 + move.to[1]] == me
    await table.stop()


# -- the table message ---------------------------------------------------------------------------


async def test_table_board_embed_picture_and_story_in_both_languages() -> None:
    table = make_table(5, seed=2)
    state, rng = table.state, random.Random(2)
    told: list[Any] = []
    while not state.over:
        nxt = state.next()
        told += [e for e in state.apply(nxt.player, computer_action(state, nxt.player, rng))]
    seen = state.observation(None)
    story = [e for e in told if isinstance(e, render.STORY)]
    for lang in ("en", "ja"):
        for e in story:
            line = render.story_line(e, lang, NAMES.get)
            assert "{" not in line and "losers." not in line, line
        shown = boards.Shown(seen, NAMES.__getitem__, NAMES, story[-8:])
        embed = boards.table_embed(shown, lang)
        validate_embeds([embed.to_dict()])
        assert embed.image.url == "attachment://field.png"
        layout = compose(boards.table_board(shown, lang, "the field"))
        check(layout)
        validate_components(payload(layout), v2=True)
        assert "[image: the field]" in as_text(layout)
    assert "売地" in render.summary(seen, seen.points_now(), "ja", NAMES)
    file = render.picture(seen, seen.points_now(), "ja", NAMES)
    assert file.filename == "field.png" and file.fp.read().startswith(PNG)


def test_picture_labels_are_drawn_in_the_guilds_language() -> None:
    english = render.picture_text("en")
    assert english["trick"] == "Trick {trick}/{tricks}" and english["red"] == "red"
    japanese = render.picture_text("ja")
    assert japanese["trick"] != english["trick"] and not japanese["red"].isascii()
    assert set(japanese) == set(english)  # the bundled CJK font draws every label
