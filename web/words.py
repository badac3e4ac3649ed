"""The site's words in English or Japanese: which language a request gets, and the page's texts
from the bot's catalogues (`bot.i18n`, the ``web.*`` keys; game names are the bot's
``game.<name>``, so a game is called the same on the site as in Discord).

The language: ``?lang=en|ja`` when given (then kept in every link of the page, so a visitor who
picked one stays in it), else the first of English and Japanese the `Accept-Language` header
prefers, else English. The JSON API has no language: it answers data, not words.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from markupsafe import Markup, escape

from bot.i18n import DEFAULT, LANGUAGES, Language, has, placeholders, t, text
from web.values import spoken

TITLES = {"kamiza": "KAMIZA", "kobayakawa": "Kobayakawa", "rights-of-losers": "Rights of Losers"}


def humane(key: Any) -> str:
    """A log's field or event name as words: "hand_sizes" -> "hand sizes"."""
    return str(key).replace("_", " ")


def glossary_prefix(game: str) -> str | None:
    """The bot's catalogue prefix of `game` (its `GameSpec.i18n_prefix`), None for a game the
    bot does not host."""
    from bot.games.registry import games

    return next((spec.i18n_prefix for spec in games() if spec.name == game), None)


def _known(tag: str) -> Language | None:
    primary = tag.strip().lower().split("-")[0]
    return next((lang for lang in LANGUAGES if lang == primary), None)


def preferred(header: str | None) -> Language:
    """The language `Accept-Language` prefers among ours: "ja,en;q=0.8" and "fr, ja;q=0.5" ->
    "ja"; none of ours, "*" or no header -> English."""
    ranges: list[tuple[float, int, str]] = []
    for n, part in enumerate((header or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag.strip() and quality > 0:
            ranges.append((-quality, n, tag))
    for _, _, tag in sorted(ranges):
        if (found := _known(tag)) is not None:
            return found
    return DEFAULT


def chosen(query: Mapping[str, str], header: str | None) -> tuple[Language, bool]:
    """The request's language and whether its query chose it (an unknown ``lang`` is ignored)."""
    asked = _known(query.get("lang", "")) if "lang" in query else None
    if asked is not None:
        return asked, True
    return preferred(header), False


class Words:
    """One page's texts in `lang`; `sticky` when the query chose it, so links keep it."""

    def __init__(self, lang: Language, sticky: bool = False, glossary: str | None = None) -> None:
        self.lang, self.sticky = lang, sticky
        self.other: Language = "en" if lang == "ja" else "ja"
        self.glossary = glossary  # a game's `glossary.<prefix>.*`: its cards and areas by name

    def __call__(self, key: str, **params: Any) -> str:
        return t(self.lang, key, **params)

    def html(self, key: str, **params: Any) -> Markup:
        """A text around markup: the catalogue text and plain `params` escaped, Markup kept."""
        return Markup(escape(text(self.lang, key))).format(**params)

    def url(self, path: str) -> str:
        """A link of the site, with ``lang`` when the visitor chose it by the query."""
        if not self.sticky:
            return path
        base, hash_, fragment = path.partition("#")
        joiner = "&" if "?" in base else "?"
        return f"{base}{joiner}lang={self.lang}{hash_}{fragment}"

    def game(self, name: str) -> str:
        """A game as the bot names it (`game.<name>`), else from its log name."""
        if has(f"game.{name}", self.lang):
            return t(self.lang, f"game.{name}")
        return TITLES.get(name, name.replace("-", " ").title())

    def field(self, key: Any) -> str:
        """A log's field name in words: the game's ``<prefix>.web.field.<key>`` (a field named
        after the game's own things), else ``web.field.<key>``, else the key itself."""
        names = [f"web.field.{key}"]
        if self.glossary:
            names.insert(0, f"{self.glossary}.web.field.{key}")
        found = next((name for name in names if has(name, self.lang)), None)
        return t(self.lang, found) if found else humane(key)

    def event(self, kind: Any) -> str:
        name = f"web.event.{kind}"
        return t(self.lang, name) if has(name, self.lang) else humane(kind)

    def case(self, case: str) -> str:
        """A rule's case in words: the bot's reason for it (``<prefix>.why.<case>``, as its
        table messages give it; one that needs no names), else the event it is named after,
        else the identifier in words."""
        why = f"{self.glossary}.why.{case}"
        if self.glossary and has(why, self.lang) and not placeholders(text(self.lang, why)):
            return t(self.lang, why)
        return self.event(case)

    def status(self, status: str) -> str:
        name = f"web.status.{status}"
        return t(self.lang, name) if has(name, self.lang) else status

    def _term(self, value: str, field: str | None) -> str:
        """A value the bot says in words (`web.values`: "fight" under "action" -> "勝負"), or a
        card or area the game's glossary names ("shimoza" -> "下座"; "second" under "edition"
        -> "第2版"), else the value."""
        if not self.glossary:
            return value
        said = spoken(self.glossary, field, value, self.lang)
        if said is not None:
            return said
        keys = [f"glossary.{self.glossary}.{value}"]
        if field:
            keys.insert(0, f"glossary.{self.glossary}.{field}.{value}")
        found = next((key for key in keys if has(key, self.lang)), None)
        return t(self.lang, found) if found else value

    def time(self, value: str | None) -> str:
        """A stored time (ISO text) to the minute, labelled UTC; "" for none. The site cannot
        know its visitor's zone (no script needed), so it says which it shows."""
        if not value:
            return ""
        moment = datetime.fromisoformat(value)
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC)
        return t(self.lang, "web.time", time=moment.strftime("%Y-%m-%d %H:%M"))

    def show(self, value: Any, names: Mapping[str, str], key: str | None = None) -> str:
        """A replay value as plain text (escaped by the template), seats named; `key`, the
        field's name, finds a value the glossary names under it ("edition": "second")."""
        if value is None:
            return "—"
        if isinstance(value, bool):
            return self("web.yes") if value else self("web.no")
        if isinstance(value, str):
            return names.get(value) or self._term(value, key)
        if isinstance(value, Mapping):
            if not value:
                return "—"
            # An event kept in the table (Kobayakawa's last round, the last trick): its kind
            # named as the replay names events, then its data.
            kind = value.get("type")
            told = [self.event(kind)] if isinstance(kind, str) else []
            return "; ".join(
                told
                + [
                    f"{names.get(k, self.field(k))}: {self.show(v, names, k)}"
                    for k, v in value.items()
                    if not (told and k == "type")
                ]
            )
        if isinstance(value, list | tuple):
            if not value:
                return "—"
            inner = [self.show(v, names, key) for v in value]
            nested = any(isinstance(v, list | tuple | Mapping) for v in value)
            return " | ".join(inner) if nested else ", ".join(inner)
        return str(value)
