"""User-facing text in English and Japanese: `language(locale)` and `t(locale, key, **params)`.

The texts live in JSON catalogues, not in the code: one folder per language, split by feature so
several people can add keys without touching each other's files::

    bot/i18n/en/common.json     bot/i18n/ja/common.json
    bot/i18n/en/<game>.json     bot/i18n/ja/<game>.json    ...

Each file is one flat JSON object, ``{"key": "text with {placeholders}"}``. All files of a
language are merged when this module is imported; a key defined in two files of the same
language is an error at load (`CatalogueError`). Every key must exist in both languages with the
same placeholders; `tests/test_i18n.py` fails naming the keys that do not.

Key conventions:

- ``cmd.<command>.name`` / ``.description`` / ``.param.<name>.name`` / ``.param.<name>.description``
  / ``.choice.<value>``: slash command names and descriptions, read by `bot.i18n.translator`
  (command code writes ``app_commands.locale_str("leaderboard", key="cmd.leaderboard.name")``, or
  `locale_key` below, which takes the English text from the catalogue);
- ``game.<log name>``: a game's name (its `GameSpec.display_key`); ``about.<prefix>``: its
  line in `/about`;
- ``glossary.*``: printed names shared by every feature: cards, areas, symbols
  (``glossary.<prefix>.<thing>``), with the Japanese the community uses;
- ``common.*``: buttons and messages every cog uses (``common.previous``, ``common.next``,
  ``common.confirm``, ``common.cancel``, ``common.need_manage_guild`` ...);
- ``<feature>.*`` for everything else (``standings.*``, ``settings.*``, a game's
  ``<prefix>.*`` ...).

Literal braces in a text are written ``{{`` and ``}}`` (`str.format`).
"""

from __future__ import annotations

import json
import logging
import string
from importlib import resources
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from discord import app_commands

log = logging.getLogger(__name__)

Language = Literal["en", "ja"]
LANGUAGES: tuple[Language, ...] = ("en", "ja")
DEFAULT: Language = "en"


class CatalogueError(Exception):
    """A catalogue file is not a flat JSON object of strings, or repeats another file's key."""


def language(locale: Any) -> Language:
    """``"ja"`` for any Japanese locale (``"ja"``, ``"ja-JP"``, `discord.Locale.japanese`), else
    ``"en"``. Accepts None, a string or a `discord.Locale` (anything with a string ``value``)."""
    if locale is None:
        return DEFAULT
    tag = getattr(locale, "value", locale)
    if isinstance(tag, str) and tag.strip().lower().startswith("ja"):
        return "ja"
    return DEFAULT


def load_catalogues(package: str = __name__) -> dict[Language, dict[str, str]]:
    """Read and merge every ``<language>/*.json`` file shipped with `package` (by default this
    one; a game outside bot/ ships its own, see `add_catalogue`)."""
    root = resources.files(package)
    catalogues: dict[Language, dict[str, str]] = {}
    for lang in LANGUAGES:
        merged: dict[str, str] = {}
        origin: dict[str, str] = {}
        folder = root / lang
        files = sorted(
            (f for f in folder.iterdir() if f.name.endswith(".json")), key=lambda f: f.name
        )
        for file in files:
            where = f"{lang}/{file.name}"
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except json.JSONDecodeError as e:
                raise CatalogueError(f"{where}: not valid JSON: {e}") from e
            if not isinstance(data, dict):
                raise CatalogueError(f"{where}: must be a JSON object of key -> text")
            for key, text in data.items():
                if not isinstance(text, str):
                    raise CatalogueError(f"{where}: {key!r} must be a string")
                if key in merged:
                    raise CatalogueError(
                        f"{where}: key {key!r} is already defined in {lang}/{origin[key]}"
                    )
                merged[key] = text
                origin[key] = file.name
        catalogues[lang] = merged
    return catalogues


def add_catalogue(package: str) -> None:
    """Merge a game package's own catalogues (``<package>/<language>/*.json``) into the texts;
    a key that is already defined is an error, as within one catalogue."""
    added = load_catalogues(package)
    for lang in LANGUAGES:
        clash = sorted(set(added[lang]) & set(CATALOGUES[lang]))
        if clash:
            raise CatalogueError(f"{package}: {lang} key {clash[0]!r} is already defined")
    for lang in LANGUAGES:
        CATALOGUES[lang].update(added[lang])


CATALOGUES: dict[Language, dict[str, str]] = load_catalogues()


def has(key: str, lang: Language = DEFAULT) -> bool:
    return key in CATALOGUES[lang]


def text(lang: Language, key: str) -> str:
    """The raw catalogue text: the language's, else English's, else the key itself."""
    found = CATALOGUES[lang].get(key)
    if found is None:
        found = CATALOGUES[DEFAULT].get(key)
        if found is None:
            log.warning("i18n: no text for key %r", key)
            return key
        if lang != DEFAULT:
            log.warning("i18n: no %s text for key %r, using English", lang, key)
    return found


def t(locale: Any, key: str, **params: Any) -> str:
    """The text for `key` in the language of `locale`, formatted with `params` (`str.format`).

    Never raises: a key missing in the language falls back to English, then to the key itself;
    a missing or malformed placeholder logs a warning and returns the text unformatted.
    """
    raw = text(language(locale), key)
    try:
        return raw.format(**params)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError) as e:
        log.warning("i18n: cannot format %r with %s: %r", key, sorted(params), e)
        return raw


def count(locale: Any, noun: str, n: int) -> str:
    """`n` with its noun, singular or plural as the language says: "1 game", "2 games", "2戦"
    (the catalogue's `count.<noun>.one` for exactly one, else `count.<noun>.other`)."""
    return t(locale, f"count.{noun}.{'one' if n == 1 else 'other'}", n=n)


def placeholders(raw: str) -> set[str]:
    """The field names of a catalogue text: ``"{name} has {n}"`` -> ``{"name", "n"}``."""
    try:
        return {
            field.split(".")[0].split("[")[0]
            for _, field, _, _ in string.Formatter().parse(raw)
            if field is not None
        }
    except ValueError:
        return {"<malformed>"}


def locale_key(key: str, **parts: str) -> app_commands.locale_str:
    """A `discord.app_commands.locale_str` whose message is the English catalogue text of `key`
    and which carries `key` for `bot.i18n.translator.CatalogueTranslator`.

    `parts` fill the text's placeholders with the texts of other keys, in each language:
    ``locale_key("x.choice", game="game.<name>")`` for ``"x.choice": "{game}: ..."``."""
    from discord import app_commands

    if not parts:
        return app_commands.locale_str(text(DEFAULT, key), key=key)
    return app_commands.locale_str(composed(DEFAULT, key, parts), key=key, parts=parts)


def composed(lang: Language, key: str, parts: dict[str, str]) -> str:
    """The text of `key` with each placeholder filled by the text of the key `parts` gives it."""
    return t(lang, key, **{name: text(lang, part) for name, part in parts.items()})
