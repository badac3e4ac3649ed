"""High card's bot package (tests/games/highcard/bot): its catalogues pass the checks the
product's pass (tests/test_i18n.py), and the game registry plugs it in from its `spec` alone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import discord
import pytest

import bot.i18n as i18n
from bot.games import registry
from bot.i18n import CatalogueError, load_catalogues, placeholders
from bot.i18n.translator import NAME
from bot.settings import SettingsError, load_settings
from bot.tables.buttons import BUTTONS
from bot.tables.presenting import MessagePresenter
from rules.registry import GAMES
from tests.games.highcard.rules import HighCard

PACKAGE = "tests.games.highcard.bot"
CATALOGUE = f"{PACKAGE}.i18n"
SOURCES = Path(__file__).parent / "highcard" / "bot"
TEXTS = load_catalogues(CATALOGUE)


# -- the catalogues, checked as tests/test_i18n.py checks the product's ---------------------------


def test_every_english_key_has_japanese_text() -> None:
    missing = sorted(TEXTS["en"].keys() - TEXTS["ja"].keys())
    assert not missing, f"keys missing in {CATALOGUE} ja/*.json: {', '.join(missing)}"


def test_every_japanese_key_has_english_text() -> None:
    missing = sorted(TEXTS["ja"].keys() - TEXTS["en"].keys())
    assert not missing, f"keys missing in {CATALOGUE} en/*.json: {', '.join(missing)}"


def test_placeholders_match_between_languages() -> None:
    wrong = [
        f"{key}: en {sorted(placeholders(en))} != ja {sorted(placeholders(ja))}"
        for key, en in sorted(TEXTS["en"].items())
        if (ja := TEXTS["ja"].get(key)) is not None and placeholders(en) != placeholders(ja)
    ]
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_no_text_is_empty_or_malformed() -> None:
    bad = [
        f"{lang}: {key}"
        for lang, texts in TEXTS.items()
        for key, text in texts.items()
        if not text.strip() or "<malformed>" in placeholders(text)
    ]
    assert not bad, "empty or malformed texts: " + ", ".join(bad)


def test_command_texts_fit_discord_limits() -> None:
    bad = [
        f"{lang}: {key}: {text!r}"
        for lang, texts in TEXTS.items()
        for key, text in texts.items()
        if key.startswith("cmd.")
        and (
            (key.endswith(".description") and not 1 <= len(text) <= 100)
            or (key.endswith(".name") and not (NAME.match(text) and text == text.lower()))
        )
    ]
    assert not bad, "command texts Discord would refuse: " + ", ".join(bad)


def test_no_key_clashes_with_the_products_catalogues() -> None:
    product = load_catalogues()
    for lang in i18n.LANGUAGES:
        assert not TEXTS[lang].keys() & product[lang].keys()


def test_every_key_the_code_names_is_in_the_catalogue() -> None:
    """Every `"highcard.…"` key written in the package's code has a text (the registry's keys
    `game.<name>`, `about.<prefix>` and `cmd.<prefix>.*` are checked with the spec below)."""
    named = {
        key
        for source in SOURCES.glob("*.py")
        for key in re.findall(r'"(highcard\.[a-z_.]+[a-z_])"', source.read_text(encoding="utf-8"))
    }
    assert named, "no key found: the pattern is out of date"
    assert not sorted(named - TEXTS["en"].keys())


# -- the registry plugs the game in ------------------------------------------------------------


@pytest.fixture
def plugged(monkeypatch: pytest.MonkeyPatch) -> Iterator[registry.GameSpec]:
    """High card registered as `bot.client` registers `EXTRA_GAMES`, for this test only.

    The registries have no way to take a game out again: the fixture keeps copies and puts
    them back (`bot.games.registry._specs` is private; the others are public dicts).
    """
    registry.games()  # the product's games first, as `bot.client` loads them
    monkeypatch.setattr(registry, "_specs", dict(registry._specs))
    games, texts = dict(GAMES), {lang: dict(i18n.CATALOGUES[lang]) for lang in i18n.LANGUAGES}
    try:
        (*_, spec) = registry.load((PACKAGE,))
        yield spec
    finally:
        GAMES.clear()
        GAMES.update(games)
        for lang in i18n.LANGUAGES:
            i18n.CATALOGUES[lang].clear()
            i18n.CATALOGUES[lang].update(texts[lang])


def test_the_spec_registers_the_game_everywhere(plugged: registry.GameSpec) -> None:
    spec = plugged
    assert spec.name == "high-card" and spec.rules is HighCard and spec.seats == (2, 4)
    assert registry.names() == ("kamiza", "kobayakawa", "rights-of-losers", "high-card")
    assert registry.spec_of("high-card") is spec and GAMES["high-card"] is HighCard
    for key in (spec.display_key, spec.about_key, f"cmd.{spec.command}.name"):
        assert i18n.has(key, "en") and i18n.has(key, "ja"), key
    assert i18n.t("ja", "game.high-card") == "ハイカード"
    with pytest.raises(CatalogueError):
        i18n.add_catalogue(CATALOGUE)  # its keys are there now: a second copy would clash


def test_loading_a_game_with_a_catalogue_again_changes_nothing(
    plugged: registry.GameSpec,
) -> None:
    assert registry.load((PACKAGE,))[-1] is plugged


def test_the_spec_builds_commands_presenter_and_menus(plugged: registry.GameSpec) -> None:
    spec = plugged
    group = spec.commands()
    assert group.name == "highcard"
    assert {c.name for c in group.commands} == {
        "start",
        "hand",
        "status",
        "cancel",
        "rules",
        "export",
    }
    presenter = spec.presenter(discord.Client(intents=discord.Intents.none()))
    assert isinstance(presenter, MessagePresenter) and presenter.game == "high-card"
    spec.hand()
    assert {"hcp", "hch"} <= set(BUTTONS._handlers)


def test_no_product_file_names_the_game() -> None:
    """Adding High card touched no product file: none of bot/, data/, rules/ names it."""
    root = Path(__file__).resolve().parents[2]
    naming = [
        str(path.relative_to(root))
        for folder in ("bot", "data", "rules")
        for path in sorted((root / folder).rglob("*"))
        if path.suffix in {".py", ".json", ".sql", ".toml"}
        and re.search(r"high-?card", path.read_text(encoding="utf-8"), re.IGNORECASE)
    ]
    assert not naming


def test_extra_games_takes_the_documented_comma_separated_form(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "token")
    monkeypatch.setenv("EXTRA_GAMES", f"{PACKAGE}, other.games")
    monkeypatch.chdir(Path(__file__).parent)  # no `.env` here
    assert load_settings().extra_games == (PACKAGE, "other.games")
    monkeypatch.setenv("EXTRA_GAMES", "not a package")
    with pytest.raises(SettingsError, match="EXTRA_GAMES"):
        load_settings()
