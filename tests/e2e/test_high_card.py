"""A fourth game plugged in through the game registry alone: High card, which lives only in the
tests (tests/games/highcard), played whole through the fake Discord by the real `python -m bot`.

The bot process learns of it from `EXTRA_GAMES=tests.games.highcard.bot` (and a PYTHONPATH that
reaches `tests`); no product file names it. This process registers its rules class only where
it reads the ledger itself: `rules.log.load` and `python -m data check`, which is run here, in
process, through `data.__main__.main` -- a separate `python -m data` would not know the game.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest
from fakediscord import FakeUser
from fakediscord.server import COMPONENTS_V2
from fakediscord.state import Channel, Message
from kamiza_play import HAND
from table_play import has_button, open_table, verb_button, whose_turn

from data.__main__ import main as data_cli
from data.backends import open_ledger
from rules.log import load, public_record
from rules.registry import GAMES
from tests.games.highcard.rules import ROUNDS, HighCard

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "tests.games.highcard.bot"
PUT = "hcp"  # the verb of a card button: g:hcp:<game>:<round>:<card>
CARD = "🃏"


@pytest.fixture
def high_card_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """This process's `rules.registry` knows High card for this test (as the bot's does)."""
    monkeypatch.setitem(GAMES, HighCard.name, HighCard)


def plugin_env() -> dict[str, str]:
    """The bot's environment for the plugin: the package, and a path on which `tests` imports."""
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {"EXTRA_GAMES": PACKAGE, "PYTHONPATH": path}


def count_actions(db_path: Path) -> int:
    con = sqlite3.connect(db_path)
    try:
        return int(con.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        con.close()


def table_message(user: FakeUser, thread: Channel) -> Message | None:
    """The newest public message with a "Your hand" button: this round's table."""
    tables = [m for m in user.visible_messages(thread) if not m.ephemeral and has_button(m, HAND)]
    return tables[-1] if tables else None


def final_standings(user: FakeUser, thread: Channel) -> list[Message]:
    return [m for m in user.visible_messages(thread) if "High card · Final standings" in m.text]


def reveals(user: FakeUser, thread: Channel) -> list[Message]:
    return [m for m in user.visible_messages(thread) if "· Reveal" in m.text and not m.ephemeral]


async def wait_turn(
    members: dict[int, FakeUser], thread: Channel, after: tuple[int, int] | None, games: int = 1
) -> FakeUser | None:
    """The member the newest table message pings, once it differs from `after`; None once the
    thread shows the standings of `games` games (computer seats are not pinged: their turns
    pass while this waits)."""
    anyone = next(iter(members.values()))

    def ready() -> FakeUser | bool | None:
        if len(final_standings(anyone, thread)) >= games:
            return True
        table = table_message(anyone, thread)
        if table is None or (table.id, table.edits) == after:
            return None
        return whose_turn(table, members)

    found = await anyone.state.wait_for(ready, 10, "a member's turn or the end of the game")
    return None if found is True else found  # type: ignore[return-value]


async def open_hand(user: FakeUser, thread: Channel) -> Message:
    """Press "Your hand" on the table message: the private hand."""
    table = table_message(user, thread)
    assert table is not None
    hand = (await user.click(table, HAND)).response
    assert hand is not None and hand.ephemeral, hand
    return hand


def card_buttons(hand: Message) -> dict[int, str]:
    """The hand's card buttons: {card: custom id}."""
    ids = [b["custom_id"] for b in hand.buttons() if b["custom_id"].startswith(f"g:{PUT}:")]
    return {int(custom.rsplit(":", 1)[1]): custom for custom in ids}


def assert_no_errors(log: str) -> None:
    """Nothing went wrong while presenting or handling a click (the bot logs those as errors);
    the lobby's message queue, dropped once the table starts, is the shared runtime's."""
    errors = [
        line
        for line in log.splitlines()
        if " ERROR " in line and "outbox lobby" not in line and "Task was destroyed" not in line
    ]
    assert not errors, "\n".join(errors)


def other_sees(members: dict[int, FakeUser], player: FakeUser, message: Message) -> bool:
    """Whether a member other than `player` can see `message` (a private hand must not be)."""
    return any(u.can_see(message) for u in members.values() if u is not player)


async def test_high_card_plugs_in_through_the_registry_and_plays_to_the_end(
    fake_discord, launch_bot, users, high_card_rules, capsys
):
    state = fake_discord.state
    bot = await launch_bot(**plugin_env())
    assert state.command("highcard")["options"]  # its group, synced like the product's games
    ann, ben = users("ann", manage_guild=True), users("ben")
    members = {ann.id: ann, ben.id: ben}
    about = (await ben.slash("about")).response
    assert about is not None and "High card — /highcard" in about.text  # /about lists it too
    how = (await ben.slash("highcard", "rules")).response
    assert how is not None and how.ephemeral and "How to play High card" in how.text
    # A computer seat makes a game unrated unless the server says otherwise (data.standings).
    saved = (await ann.slash("settings", rate_bot_games=True)).response
    assert saved is not None and saved.content == "Settings saved."

    # The lobby: ann opens it with one computer seat, ben joins, ann starts.
    thread, lobby = await open_table(ann, "highcard", bots=1)
    assert "High card" in lobby.text and "Bot 1" in lobby.text
    await ben.click(lobby, verb_button(lobby, "join") or "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 2, 5, "ben's seat")
    await ann.click(lobby, verb_button(lobby, "start") or "Start")

    # The first member to play; the other presses a card anyway: refused, privately.
    player = await wait_turn(members, thread, None)
    assert player is not None
    other = ben if player is ann else ann
    table = table_message(ann, thread)
    assert table is not None and "High card · Round 1/3" in table.text
    early = await open_hand(other, thread)
    assert not player.can_see(early) and "Waiting for" in early.text
    assert len(card_buttons(early)) == 3  # kept, and pressed again once round 1 is over
    before = count_actions(bot.database_path)
    refused = (await other.click(early, next(iter(card_buttons(early).values())))).response
    assert refused is not None and refused.ephemeral and "Not your turn" in refused.text
    assert count_actions(bot.database_path) == before

    # Every member's turn: open the private hand, put the highest card face down.
    put_by: dict[int, list[int]] = {ann.id: [], ben.id: []}
    stale_answered = False
    while player is not None:
        if reveals(ann, thread) and not stale_answered:
            # A hand from round 1 is out of date: it answers with the current hand instead.
            before = count_actions(bot.database_path)
            await other.click(early, next(iter(card_buttons(early).values())))
            assert "out of date" in early.text and "Round 1/3" not in early.text, early.text
            assert count_actions(bot.database_path) == before
            stale_answered = True
        hand = await open_hand(player, thread)
        assert "Your turn" in hand.text and not other_sees(members, player, hand)
        cards = card_buttons(hand)
        assert len(cards) == ROUNDS - len(put_by[player.id])
        best = max(cards)
        table = table_message(player, thread)
        version = (table.id, table.edits) if table else None
        await player.click(hand, cards[best])
        assert f"You put {CARD} **{best}** face down" in hand.text and not hand.buttons()
        put_by[player.id].append(best)
        player = await wait_turn(members, thread, version)
    assert stale_answered and all(len(cards) == ROUNDS for cards in put_by.values())
    assert count_actions(bot.database_path) == 3 * ROUNDS

    # The reveals and the standings, in the thread; no card was public before its reveal (G-3).
    told = reveals(ann, thread)
    headings = [m.text.splitlines()[0] for m in told]  # every public message is laid out
    assert headings == [f"### Round {n} · Reveal" for n in (1, 2, 3)]
    assert all(m.flags & COMPONENTS_V2 and not m.embeds for m in told)
    for message in ann.visible_messages(thread):
        if not message.ephemeral and CARD in message.text:
            assert message in told, message.text
    final = final_standings(ann, thread)
    assert len(final) == 1 and "🏆" in final[0].text and "🤖 Bot 1" in final[0].text

    # The ledger: finished, and its log replays with the rules this process registered.
    ledger = await open_ledger(f"sqlite:///{bot.database_path}")
    try:
        record = [r async for r in ledger.iter_games()][-1]
    finally:
        await ledger.close()
    assert record.game == "high-card" and record.status == "finished"
    log = record.log()
    assert log is not None
    game = load(log)
    assert isinstance(game, HighCard) and game.over
    stored = {r.player: r for r in record.results}
    assert {p: r.score for p, r in stored.items()} == game.scores()
    assert {p for p, r in stored.items() if r.winner} == set(game.winners())
    for reveal, message in zip(game.reveals, told, strict=True):
        assert all(f"{CARD} **{card}**" in message.text for _, card in reveal.cards)
    for member in (ann, ben):
        played = [a["card"] for a in log["actions"] if a["player"] == str(member.id)]
        assert played == put_by[member.id]
    steps = public_record(log)["steps"]
    assert all("card" not in e for s in steps for e in s["events"] if e["type"] == "card_put")

    # The standings: /leaderboard game:high-card ranks the two members (a computer seat has no
    # rating) and counts the winners' wins.
    board = (await ann.slash("leaderboard", game="high-card")).response
    assert board is not None and "High card leaderboard" in board.text, board
    rows = [line for line in board.text.splitlines() if line.startswith("`#")]
    assert len(rows) == 2, board.text
    for member in (ann, ben):
        row = next(r for r in rows if f"**{member.name.title()}**" in r)
        wins = int(stored[str(member.id)].winner)
        assert f"1 game · {wins} {'win' if wins == 1 else 'wins'}" in row, row
    (first, second) = sorted((ann, ben), key=lambda m: stored[str(m.id)].rank)
    if stored[str(first.id)].rank < stored[str(second.id)].rank:
        assert f"**{first.name.title()}**" in rows[0], rows  # the better-placed member leads

    # `python -m data check` on the ledger: in this process, where High card is registered.
    capsys.readouterr()
    status = await asyncio.to_thread(data_cli, ["check", "--db", f"sqlite:///{bot.database_path}"])
    out, err = capsys.readouterr()
    assert status == 0, out + err
    assert "ok: integrity ok; 1 finished games replayed; 0 disagree" in err

    assert not state.unknown_routes and not state.failed_requests()
    assert_no_errors(bot.log)
