"""Why each outcome happened, and the "?" button that explains the rules behind a message.

The rules decide: every outcome event names the rule that decided it and which case of it
applied (`Event.because()`). Here that is only worded: a clause from the game's catalogue
(``<game prefix>.why.<case>``) followed by the rule's id, and a "?" button whose custom id
carries the rule ids (``g:why:<game id>:K-6:K-8``) and answers, privately and in the clicking
member's language, with each rule's short explanation (``rule.<id>``). The custom id holds all
the button needs, so it works after a restart and after the game is over.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import discord

from bot.games.registry import games
from bot.i18n import has, t
from bot.runtime.errors import TableError
from bot.tables.buttons import CustomIdArgs, TableButton, button, handles, view_of
from bot.tables.replies import lang_of
from rules.base import Event

WHY = "why"
# A RULES.md id: a letter, a dash, a number ("K-6", "B-5", "R-4").
RULE_ID = re.compile(r"[A-Z]-[0-9]{1,2}")
FIELD_LIMIT = 1024  # Discord: the characters of one embed field's value


class UnknownRules(TableError):
    """A "?" button naming no rule this bot explains: forged by hand, or from another version."""

    def __init__(self) -> None:
        super().__init__("why.unknown")


def clause(event: Event, prefix: str, lang: str, **params: Any) -> str | None:
    """The reason for `event` in one short clause ending with its rule's id, or None when no
    rule decided it. `params` fill the clause's placeholders (names, cards, areas)."""
    because = event.because()
    if because is None:
        return None
    return f"{t(lang, f'{prefix}.why.{because.case}', **params)} ({because.rule})"


def with_clause(line: str, reason: str | None) -> str:
    """A step of a reveal followed by its reason."""
    return f"{line} — *{reason}*" if reason else line


def rule_ids(events: Iterable[Event]) -> tuple[str, ...]:
    """The rule ids of these events' reasons, each once, in the order they first applied."""
    ids: dict[str, None] = {}
    for event in events:
        because = event.because()
        if because is not None:
            ids[because.rule] = None
    return tuple(ids)


def why_button(game_id: int, rules: Sequence[str]) -> TableButton | None:
    """The "?" button explaining `rules` (None without any): the ids past what a custom id holds
    (100 characters) are left out, the first ones being the ones that applied first."""
    if not rules:
        return None
    kept = list(rules)
    while True:
        try:
            return button(WHY, game_id, *kept, label="?", emoji="❔")
        except ValueError:  # too long for a custom id
            kept.pop()


def reveal_view(game_id: int, events: Iterable[Event]) -> discord.ui.View | None:
    """A reveal message's buttons: the "?" of the rules that decided its events."""
    why = why_button(game_id, rule_ids(events))
    return view_of(why) if why is not None else None


def add_lines(embed: discord.Embed, name: str, lines: Sequence[str]) -> None:
    """Add `lines` as one field, or as several when they pass a field's 1,024 characters."""
    chunk: list[str] = []
    size = 0
    for line in lines:
        if chunk and size + len(line) + 1 > FIELD_LIMIT:
            embed.add_field(name=name, value="\n".join(chunk), inline=False)
            name, chunk, size = "\u200b", [], 0
        chunk.append(line[:FIELD_LIMIT])
        size += len(line) + 1
    if chunk:
        embed.add_field(name=name, value="\n".join(chunk), inline=False)


def explanation(rules: Sequence[str], lang: str) -> discord.Embed:
    """The private answer of a "?" button: each rule with its short explanation."""
    if not rules or len(rules) > 20 or not all(known_rule(rule) for rule in rules):
        raise UnknownRules()
    embed = discord.Embed(title=t(lang, "why.title"), colour=discord.Colour.dark_gold())
    embed.description = "\n".join(f"**{rule}** {t(lang, f'rule.{rule}')}" for rule in rules)
    rules_command = t(lang, "cmd.table.rules.name")
    commands = " · ".join(
        f"/{t(lang, f'cmd.{spec.i18n_prefix}.name')} {rules_command}" for spec in games()
    )
    embed.set_footer(text=t(lang, "why.footer", commands=commands))
    return embed


def known_rule(rule: str) -> bool:
    return RULE_ID.fullmatch(rule) is not None and has(f"rule.{rule}")


@handles(WHY)
async def explain(interaction: discord.Interaction, game_id: int, args: CustomIdArgs) -> None:
    embed = explanation(list(args), lang_of(interaction))
    await interaction.response.send_message(embed=embed, ephemeral=True)
