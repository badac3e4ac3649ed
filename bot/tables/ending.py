"""The end of a game, for every game: the final standings' buttons and unrated reason, the
announcement edited to show the result, and the thread archived after a grace period.

The clicks on those buttons are handled in `bot.tables.end_buttons`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

import discord

from bot.i18n import t
from bot.layout.board import Board
from bot.runtime.place import Place
from bot.runtime.tasks import spawn
from bot.tables.buttons import button, view_of
from bot.weblinks import link_button
from data.store import Ledger, ResultRow

log = logging.getLogger(__name__)

RESULT_MESSAGE: Final = "result"  # the final standings' message id, kept with the table's
ANNOUNCEMENT: Final = "announcement"  # the invitation posted in the parent channel by `/start`
ARCHIVE_NOTE: Final = "archive"  # game note: when the thread is due to be archived
DEFAULT_ARCHIVE_SECONDS: Final = 600  # when the bot has no settings (a test's stand-in)

# Homes that must stay open although their game ended: a rematch is being offered there.
KEEP_OPEN: set[int] = set()


def end_view(game_id: int, lang: str, web: str | None = None) -> discord.ui.View:
    """Rematch and Leaderboard, under the final standings of any game; with `web` (the game's
    page on the web companion, `bot.weblinks.web_url`), a link to it."""
    items: list[discord.ui.Item[Any]] = [
        button(
            "rematch",
            game_id,
            label=t(lang, "end.rematch"),
            style=discord.ButtonStyle.primary,
            emoji="🔁",
        ),
        button("board", game_id, label=t(lang, "end.leaderboard"), emoji="🏆"),
    ]
    if web is not None:
        items.append(link_button(lang, web))
    return view_of(*items)


def unrated_text(board: Board, reason: str | None, lang: str) -> None:
    """Say why the game is unrated, as the ledger decided (`data.standings.unrated_reason`)."""
    if reason:
        board.text(t(lang, f"end.unrated_{reason}"), title=t(lang, "end.unrated"))


def jump_url(guild_id: int, channel_id: int, message_id: int) -> str:
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"


def announcement_text(
    lang: str,
    title: str,
    results: Sequence[ResultRow],
    name: Callable[[str], str],
    link: str,
) -> str:
    """The announcement once the game is over: who won, and a link to the standings."""
    winners = ", ".join(name(r.player) for r in results if r.winner) or "—"
    return t(lang, "end.announce", game=title, winners=winners, link=link)


async def edit_announcement(
    bot: discord.Client, place: Place, message_id: int, content: str, game_id: int
) -> None:
    """Edit the invitation in the parent channel (its buttons-free text); failures are logged."""
    channel = bot.get_partial_messageable(place.channel_id, guild_id=place.guild_id)
    try:
        await channel.get_partial_message(message_id).edit(
            content=content, allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as exc:
        log.warning("game %s: could not edit the announcement: %s", game_id, exc)


def archive_seconds(bot: discord.Client, chosen: int | None) -> int:
    """The server's grace period, else the bot's `ARCHIVE_SECONDS`."""
    if chosen is not None:
        return chosen
    settings: Any = getattr(bot, "settings", None)
    return int(getattr(settings, "archive_seconds", DEFAULT_ARCHIVE_SECONDS))


async def archive_later(
    bot: discord.Client, ledger: Ledger, place: Place, game_id: int, seconds: float
) -> None:
    """Archive the game's thread after `seconds`, unless a new lobby or table lives there by
    then or a rematch is being offered (a channel without a thread is never archived). The
    ledger keeps when it is due, so that a restart in between archives it all the same."""
    due = await note_archive(ledger, place, game_id, seconds)
    if due is not None:
        archive_at(bot, ledger, place, game_id, due)


async def note_archive(ledger: Ledger, place: Place, game_id: int, seconds: float) -> float | None:
    """Note in the ledger when the thread is due to be archived (None: no thread). Noted before
    the standings go out, so that a bot killed once they are seen archives it after a restart."""
    if place.thread_id is None:
        return None
    due = time.time() + seconds
    try:
        await ledger.set_note(game_id, ARCHIVE_NOTE, {"due": due})
    except Exception as exc:  # the standings go out; only a restart would forget the archive
        log.warning("game %s: its archive could not be noted: %r", game_id, exc)
    return due


def archive_at(bot: discord.Client, ledger: Ledger, place: Place, game_id: int, due: float) -> None:
    """Archive the thread at `due` (see `archive_later`)."""
    spawn(_archive(bot, ledger, place, game_id, due), name=f"archive game {game_id}")


async def resume_archives(
    bot: discord.Client, ledger: Ledger, owns: Callable[[int], bool] = lambda _: True
) -> int:
    """After a restart: archive the threads whose grace period passed, and time the others
    again, in the guilds this process `owns` (another process takes up the others). Returns
    how many were taken up."""
    taken = 0
    for game_id, note in await ledger.noted_games(ARCHIVE_NOTE):
        record = await ledger.get_game(game_id)
        if record is not None and not owns(record.guild_id):
            continue
        due = note.get("due") if isinstance(note, dict) else None
        if record is None or record.thread_id is None or not isinstance(due, int | float):
            await ledger.drop_note(game_id, ARCHIVE_NOTE)
            continue
        place = Place(record.guild_id, record.channel_id, record.thread_id)
        spawn(_archive(bot, ledger, place, game_id, due), name=f"archive game {game_id}")
        taken += 1
    return taken


async def _archive(
    bot: discord.Client, ledger: Ledger, place: Place, game_id: int, due: float
) -> None:
    await asyncio.sleep(max(0.0, due - time.time()))
    tables = getattr(bot, "tables", None)
    if place.home in KEEP_OPEN or (tables is not None and tables.at(place.home) is not None):
        log.info("game %s: its thread stays open (a new game or a rematch there)", game_id)
    else:
        try:
            thread = bot.get_channel(place.home) or await bot.fetch_channel(place.home)
            if isinstance(thread, discord.Thread) and not thread.archived:
                await thread.edit(archived=True)
                log.info("game %s: thread %s archived", game_id, place.home)
        except discord.HTTPException as exc:  # a deleted thread, lost rights: not retried
            log.warning("game %s: could not archive its thread: %s", game_id, exc)
    try:
        await ledger.drop_note(game_id, ARCHIVE_NOTE)
    except Exception as exc:  # the next start would only look at the thread again
        log.warning("game %s: its archive note stays: %r", game_id, exc)
