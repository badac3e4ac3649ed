"""The final standings' buttons (Rematch, Leaderboard) and `/… status` after the end.

A rematch: the host (or Manage Server) asks, confirms privately, and the table's other members
opt in within `REMATCH_SECONDS`; then a lobby opens in the same thread with the members who
opted in and the computer seats, linked to the first game in the ledger (`rematch_of`), and the
seats of the members who did not are free for anyone to join. Each button names only the game
(`g:rematch:<id>`, `g:rematch_ok:<id>`, `g:rematch_in:<id>`, `g:board:<id>`); a click on a
game that is not finished here, a second offer, or a late or repeated opt-in is answered
privately and changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

import discord

from bot.i18n import language, t
from bot.runtime.errors import TableClosed, TableError, TableExists
from bot.runtime.tasks import spawn
from bot.standings.access import lang_of as standings_lang
from bot.standings.buttons import leaderboard_reply
from bot.tables import lookup
from bot.tables.buttons import button, handles, view_of
from bot.tables.ending import ANNOUNCEMENT, KEEP_OPEN, RESULT_MESSAGE, jump_url
from bot.tables.replies import can_manage, ephemeral, lang_of, refuse
from bot.weblinks import web_base_of
from data.store import GameRecord, Ledger

log = logging.getLogger(__name__)

REMATCH_SECONDS: Final = 60  # the members' time to opt in, unless the bot's settings say
REMATCH_NOTE: Final = "rematch"  # game note of the first game: who opted in, until when


@dataclass(slots=True)
class Offer:
    """A rematch being offered in a thread: the first game and who is in so far."""

    first: GameRecord
    joined: list[int]
    until: float
    message_id: int | None = None
    timer: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def members(self) -> list[int]:
        return [s.user_id for s in self.first.seats if not s.is_bot and s.user_id is not None]

    def note(self, done: bool = False) -> dict[str, object]:
        """The offer as the ledger keeps it (a game note), so a restart can take it up."""
        return {"in": self.joined, "until": self.until, "message": self.message_id, "done": done}

    @classmethod
    def from_note(cls, first: GameRecord, note: object) -> Offer | None:
        """The offer a note kept, if it is still open (not yet turned into a lobby)."""
        kept = _pending(note)
        return None if kept is None else cls(first, *kept)


def _pending(note: object) -> tuple[list[int], float, int | None] | None:
    """Who opted in, until when, and the offer's message, from a note not yet done."""
    if not isinstance(note, dict) or note.get("done"):
        return None
    joined, until, message = note.get("in"), note.get("until"), note.get("message")
    if not isinstance(joined, list) or not isinstance(until, int | float):
        return None
    ids = [m for m in joined if isinstance(m, int)]
    return ids, float(until), message if isinstance(message, int) else None


OFFERS: dict[int, Offer] = {}  # by the first game's id, while its opt-in window is open


def rematch_seconds(client: discord.Client) -> int:
    """`REMATCH_SECONDS` of the bot's settings (60 by default)."""
    settings: Any = getattr(client, "settings", None)
    return int(getattr(settings, "rematch_seconds", REMATCH_SECONDS))


async def finished_game(interaction: discord.Interaction, game_id: int) -> GameRecord:
    """The finished game `game_id` of the clicker's server, else "this button no longer works"."""
    record = await lookup.manager_of(interaction).ledger.get_game(game_id)
    if record is None or record.guild_id != interaction.guild_id or record.status != "finished":
        raise TableClosed()
    return record


async def check_rematch(interaction: discord.Interaction, record: GameRecord) -> None:
    """Only the host (or Manage Server) offers a rematch, once, while the thread is free."""
    if interaction.user.id != record.host_id and not can_manage(interaction):
        raise TableError("end.rematch_host_only")
    manager = lookup.manager_of(interaction)
    if record.id in OFFERS or REMATCH_NOTE in await manager.ledger.notes(record.id):
        raise TableError("end.rematch_offered")
    if manager.at(record.thread_id or record.channel_id) is not None:
        raise TableExists()


@handles("rematch")
async def rematch(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    record = await finished_game(interaction, game_id)
    await check_rematch(interaction, record)
    lang = lang_of(interaction)
    view = _one_button("rematch_ok", game_id, t(lang, "end.rematch_yes"), primary=True)
    seconds = rematch_seconds(interaction.client)
    await ephemeral(interaction, t(lang, "end.rematch_confirm", seconds=seconds), view=view)


@handles("rematch_ok")
async def rematch_ok(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    record = await finished_game(interaction, game_id)
    await check_rematch(interaction, record)
    host = record.host_id
    offer = Offer(record, [host], time.time() + rematch_seconds(interaction.client))
    OFFERS[game_id] = offer  # before any await: a second confirmation is refused
    KEEP_OPEN.add(_home(record))
    ledger = lookup.manager_of(interaction).ledger
    try:
        await ledger.set_note(game_id, REMATCH_NOTE, offer.note())
    except BaseException:
        _drop(offer)
        raise
    lang = lang_of(interaction)
    await interaction.response.edit_message(content=t(lang, "end.rematch_asked"), view=None)
    others = [m for m in offer.members if m != host]
    if not others:
        await _open(interaction.client, offer)
        return
    await _post_offer(interaction.client, offer, others)
    await ledger.set_note(game_id, REMATCH_NOTE, offer.note())  # with its message, for a restart
    offer.timer = spawn(_open_later(interaction.client, offer), name=f"rematch of {game_id}")


async def open_offer(interaction: discord.Interaction, game_id: int) -> Offer | None:
    """The rematch offered for `game_id` and still open; after a restart, taken up again from
    its note (its window timed again, or the lobby opened now if the window has passed)."""
    offer = OFFERS.get(game_id)
    if offer is not None:
        return offer if offer.first.guild_id == interaction.guild_id else None
    record = await finished_game(interaction, game_id)
    ledger = lookup.manager_of(interaction).ledger
    note = (await ledger.notes(game_id)).get(REMATCH_NOTE)
    offer = _take_up(interaction.client, record, note)
    return offer if offer is not None and offer.until > time.time() else None


async def resume_offers(
    client: discord.Client, ledger: Ledger, owns: Callable[[int], bool] = lambda _: True
) -> int:
    """After a restart: time again every rematch offered and not yet opened (its lobby opens
    at once if its window passed while the bot was away), in the guilds this process `owns`
    (another process takes up the others). Returns how many."""
    taken = 0
    for game_id, note in await ledger.noted_games(REMATCH_NOTE):
        if game_id in OFFERS or _pending(note) is None:
            continue  # taken up by a click already, or done
        record = await ledger.get_game(game_id)
        if record is not None and record.status == "finished" and owns(record.guild_id):
            taken += _take_up(client, record, note) is not None
    return taken


def _take_up(client: discord.Client, record: GameRecord, note: object) -> Offer | None:
    """The offer a note kept, again in memory with its timer; None if it was done."""
    offer = Offer.from_note(record, note)
    if offer is None:
        return None
    OFFERS[record.id] = offer
    KEEP_OPEN.add(_home(record))
    offer.timer = spawn(_open_later(client, offer), name=f"rematch of {record.id}")
    return offer


@handles("rematch_in")
async def rematch_in(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    offer = await open_offer(interaction, game_id)
    if offer is None:
        raise TableError("end.rematch_over")
    user = interaction.user.id
    if user not in offer.members:
        raise TableError("end.rematch_not_seated")
    if user in offer.joined:
        raise TableError("end.rematch_already_in")
    offer.joined.append(user)
    await lookup.manager_of(interaction).ledger.set_note(game_id, REMATCH_NOTE, offer.note())
    await refuse(interaction, "end.rematch_in_ok")
    if set(offer.members) <= set(offer.joined):
        if offer.timer is not None:
            offer.timer.cancel()
        await _open(interaction.client, offer)


@handles("board")
async def board(interaction: discord.Interaction, game_id: int, args: list[str]) -> None:
    """The leaderboard of the game's season, privately."""
    record = await finished_game(interaction, game_id)
    ledger: Ledger = lookup.manager_of(interaction).ledger
    season = next(s for s in await ledger.seasons(record.guild_id) if s.id == record.season_id)
    embed, view = await leaderboard_reply(
        ledger,
        standings_lang(interaction),
        record.guild_id,
        record.game,
        season,
        page=0,
        web_base=web_base_of(interaction.client),
    )
    if view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True)
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)


async def status_after_end(interaction: discord.Interaction, game: str) -> bool:
    """`/… status` where a game of `game` has ended: say so and link its result; False when
    no ended game of `game` lives here (the usual "no table here" answer follows)."""
    manager = lookup.manager_of(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        return False
    record = await manager.ledger.last_game_at(interaction.guild_id, interaction.channel_id)
    if record is None or record.game != game or record.status in ("lobby", "running"):
        return False
    lang = lang_of(interaction)
    result = (await manager.ledger.notes(record.id)).get("messages", {}).get(RESULT_MESSAGE)
    if record.status == "finished" and result is not None:
        link = jump_url(record.guild_id, interaction.channel_id, result)
        await ephemeral(interaction, t(lang, "end.status_over", game_id=record.id, link=link))
    else:
        await ephemeral(interaction, t(lang, "end.status_ended", game_id=record.id))
    return True


# -- the offer's lifetime ----------------------------------------------------------------------


def _one_button(verb: str, game_id: int, label: str, primary: bool = False) -> discord.ui.View:
    """The rematch's confirmation (primary) or its opt-in (green): one button."""
    style = discord.ButtonStyle.primary if primary else discord.ButtonStyle.success
    return view_of(button(verb, game_id, label=label, style=style))


def _home(record: GameRecord) -> int:
    return record.thread_id or record.channel_id


def _drop(offer: Offer) -> None:
    OFFERS.pop(offer.first.id, None)
    KEEP_OPEN.discard(_home(offer.first))


def _channel(client: discord.Client, record: GameRecord) -> discord.PartialMessageable:
    return client.get_partial_messageable(_home(record), guild_id=record.guild_id)


def _lang(client: discord.Client, record: GameRecord) -> str:
    """The server's language, as the table's public messages speak it."""
    guild = client.get_guild(record.guild_id)
    return language(guild.preferred_locale if guild else None)


async def _post_offer(client: discord.Client, offer: Offer, others: list[int]) -> None:
    """The public invitation to opt in (the other members are mentioned: they are told)."""
    lang = _lang(client, offer.first)
    content = t(
        lang,
        "end.rematch_offer",
        host=f"<@{offer.first.host_id}>",
        players=" ".join(f"<@{m}>" for m in others),
        until=int(offer.until),
    )
    view = _one_button("rematch_in", offer.first.id, t(lang, "end.rematch_in"))
    mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
    message = await _channel(client, offer.first).send(
        content=content, view=view, allowed_mentions=mentions
    )
    offer.message_id = message.id


async def _open_later(client: discord.Client, offer: Offer) -> None:
    await asyncio.sleep(max(0.0, offer.until - time.time()))
    await _open(client, offer)


async def _open(client: discord.Client, offer: Offer) -> None:
    """Open the rematch's lobby with who opted in; tell the offer's message how it went."""
    if OFFERS.get(offer.first.id) is not offer:
        return  # already opened (the last opt-in and the timer may meet)
    OFFERS.pop(offer.first.id)
    manager = lookup.manager_of_client(client)
    lang = _lang(client, offer.first)
    missing = [m for m in offer.members if m not in offer.joined]
    try:
        lobby = await manager.open_rematch(offer.first, offer.joined)
    except TableError as exc:
        log.info("game %s: no rematch (%s)", offer.first.id, exc.key)
        text = t(lang, "end.rematch_failed", reason=t(lang, exc.key, **exc.params))
    else:
        notes = await manager.ledger.notes(offer.first.id)
        announcement = notes.get("messages", {}).get(ANNOUNCEMENT)
        if announcement is not None:  # the same invitation shows the rematch's result
            lobby.message_ids[ANNOUNCEMENT] = announcement
            await lobby.remember_messages()
        key = "end.rematch_opened_missing" if missing else "end.rematch_opened"
        text = t(lang, key, game_id=lobby.game_id, players=" ".join(f"<@{m}>" for m in missing))
    finally:  # from now on the lobby, if it opened, keeps the thread open
        KEEP_OPEN.discard(_home(offer.first))
    try:
        await manager.ledger.set_note(offer.first.id, REMATCH_NOTE, offer.note(done=True))
    except Exception as exc:  # the lobby is open; a restart would only offer to open another
        log.error("game %s: the rematch could not be marked done (%r)", offer.first.id, exc)
    await _tell(client, offer, text)


async def _tell(client: discord.Client, offer: Offer, text: str) -> None:
    channel = _channel(client, offer.first)
    none = discord.AllowedMentions.none()
    try:
        if offer.message_id is not None:
            await channel.get_partial_message(offer.message_id).edit(
                content=text, view=None, allowed_mentions=none
            )
        else:
            await channel.send(content=text, allowed_mentions=none)
    except discord.HTTPException as exc:
        log.warning("game %s: could not show the rematch: %s", offer.first.id, exc)
