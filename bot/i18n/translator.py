"""Slash command names and descriptions in Japanese, from the catalogues.

Convention: command code marks every name, description and choice it wants localised with a
`discord.app_commands.locale_str` whose message is the English text Discord uses by default and
whose extras carry the catalogue key::

    @app_commands.command(
        name=app_commands.locale_str("leaderboard", key="cmd.leaderboard.name"),
        description=app_commands.locale_str("Standings", key="cmd.leaderboard.description"),
    )

(`bot.i18n.locale_key("cmd.leaderboard.name")` builds the same from the English catalogue; its
`parts` compose a text of several keys' texts, such as a choice naming a game and its edition.)
`CatalogueTranslator`, installed on the command tree with ``await tree.set_translator(...)``,
answers Discord's Japanese locale (`discord.Locale.japanese`) with the key's Japanese text. A
string without a key, a key without Japanese text, another locale, or a text Discord would refuse
(a name that is not lowercase letters, digits, ``-`` and ``_`` of 1 to 32 characters, a
description longer than 100) gives None: Discord then shows the English message.
"""

from __future__ import annotations

import logging
import re

from discord import Locale
from discord.app_commands import (
    TranslationContextLocation,
    TranslationContextTypes,
    Translator,
    locale_str,
)

from bot.i18n import CATALOGUES, composed

log = logging.getLogger(__name__)

NAME = re.compile(r"^[-_\w]{1,32}$")
NAMES = (
    TranslationContextLocation.command_name,
    TranslationContextLocation.group_name,
    TranslationContextLocation.parameter_name,
)


class CatalogueTranslator(Translator):
    """Translates keyed `locale_str`s to Japanese; everything else stays English (None)."""

    async def translate(
        self, string: locale_str, locale: Locale, context: TranslationContextTypes
    ) -> str | None:
        key = string.extras.get("key")
        if not key or locale is not Locale.japanese:
            return None
        found = CATALOGUES["ja"].get(key)
        if found is None:
            log.warning("i18n: no Japanese text for command key %r", key)
            return None
        parts = string.extras.get("parts")
        if parts:
            found = composed("ja", key, parts)
        if context.location in NAMES:
            if not (NAME.match(found) and found == found.lower()):
                log.warning("i18n: %r is not a valid Discord name: %r", key, found)
                return None
        elif not 1 <= len(found) <= 100:
            log.warning("i18n: %r is not 1 to 100 characters long", key)
            return None
        return found
