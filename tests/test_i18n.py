"""The catalogues: both languages complete and consistent; `language`, `t` and the translator."""

from __future__ import annotations

import json
import logging

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext, TranslationContextLocation

import bot.i18n as i18n
from bot.i18n import CATALOGUES, CatalogueError, language, placeholders, t
from bot.i18n.translator import NAME, CatalogueTranslator


def test_every_english_key_has_japanese_text():
    missing = sorted(CATALOGUES["en"].keys() - CATALOGUES["ja"].keys())
    assert not missing, f"keys missing in bot/i18n/ja/*.json: {', '.join(missing)}"


def test_every_japanese_key_has_english_text():
    missing = sorted(CATALOGUES["ja"].keys() - CATALOGUES["en"].keys())
    assert not missing, f"keys missing in bot/i18n/en/*.json: {', '.join(missing)}"


def test_placeholders_match_between_languages():
    wrong = [
        f"{key}: en {sorted(placeholders(en))} != ja {sorted(placeholders(ja))}"
        for key, en in sorted(CATALOGUES["en"].items())
        if (ja := CATALOGUES["ja"].get(key)) is not None and placeholders(en) != placeholders(ja)
    ]
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_no_text_is_empty_or_malformed():
    bad = [
        f"{lang}: {key}"
        for lang, texts in CATALOGUES.items()
        for key, text in texts.items()
        if not text.strip() or "<malformed>" in placeholders(text)
    ]
    assert not bad, "empty or malformed texts: " + ", ".join(bad)


def test_japanese_command_names_are_valid_discord_names():
    bad = [
        f"{key}: {text!r}"
        for key, text in CATALOGUES["ja"].items()
        if key.startswith("cmd.")
        and key.endswith(".name")
        and not (NAME.match(text) and text == text.lower())
    ]
    assert not bad, "Japanese command names Discord would refuse: " + ", ".join(bad)


def test_the_glossary_names_the_japanese_cards():
    assert t("ja", "glossary.kamiza.boss") == "組長"
    assert t("ja", "glossary.kamiza.underboss") == "若頭"
    assert t("ja", "glossary.kamiza.hitman") == "鉄砲玉"
    assert t("ja", "glossary.kamiza.raid") == "手入れ"
    assert t("ja", "glossary.kamiza.policeman") == "悪徳警官"
    assert t("ja", "glossary.kamiza.kamiza") == "上座"
    assert t("ja", "glossary.kamiza.shimoza") == "下座"
    assert t("ja", "glossary.kobayakawa.kamon") == "家紋"
    assert t("ja", "game.rights-of-losers") == "敗者の権利"


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        (None, "en"),
        ("ja", "ja"),
        ("ja-JP", "ja"),
        ("JA", "ja"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("fr", "en"),
        ("", "en"),
        (discord.Locale.japanese, "ja"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.korean, "en"),
        (42, "en"),
    ],
)
def test_language(locale, expected):
    assert language(locale) == expected


def test_t_picks_the_language_and_formats():
    assert t("en", "common.page", page=2, pages=5) == "Page 2 of 5"
    assert t("ja", "common.page", page=2, pages=5) == "2 / 5 ページ"
    assert t(discord.Locale.japanese, "common.next") == "次へ"
    assert t(discord.Locale.british_english, "common.next") == "Next"
    assert t(None, "common.next") == "Next"


def test_t_falls_back_to_english_then_to_the_key(monkeypatch, caplog):
    monkeypatch.setitem(CATALOGUES, "ja", {k: v for k, v in CATALOGUES["ja"].items()})
    del CATALOGUES["ja"]["common.next"]
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert t("ja", "common.next") == "Next"
        assert t("ja", "no.such.key") == "no.such.key"
        assert t("en", "no.such.key", x=1) == "no.such.key"
    assert "common.next" in caplog.text and "no.such.key" in caplog.text


def test_t_never_raises_on_a_missing_or_bad_param(caplog):
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        assert t("en", "common.page", page=1) == "Page {page} of {pages}"
        assert t("ja", "common.page") == "{page} / {pages} ページ"
    assert "common.page" in caplog.text
    assert t("en", "common.next", unused=1) == "Next"  # extra params are harmless


def test_placeholders():
    assert placeholders("{a} and {b.c} and {d[0]} and {{e}}") == {"a", "b", "d"}
    assert placeholders("no fields") == set()
    assert placeholders("{broken") == {"<malformed>"}


def _write(folder, name, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(data), encoding="utf-8")


def _load_from(monkeypatch, root):
    monkeypatch.setattr(i18n.resources, "files", lambda _name: root)
    return i18n.load_catalogues()


def test_catalogue_files_of_a_language_are_merged(tmp_path, monkeypatch):
    _write(tmp_path / "en", "a.json", {"a.x": "A"})
    _write(tmp_path / "en", "b.json", {"b.x": "B"})
    _write(tmp_path / "ja", "a.json", {"a.x": "あ"})
    _write(tmp_path / "ja", "b.json", {"b.x": "い"})
    loaded = _load_from(monkeypatch, tmp_path)
    assert loaded == {"en": {"a.x": "A", "b.x": "B"}, "ja": {"a.x": "あ", "b.x": "い"}}


def test_a_key_defined_twice_is_an_error_at_load(tmp_path, monkeypatch):
    _write(tmp_path / "en", "a.json", {"same.key": "A"})
    _write(tmp_path / "en", "b.json", {"same.key": "B"})
    _write(tmp_path / "ja", "a.json", {})
    with pytest.raises(CatalogueError, match=r"en/b\.json: key 'same\.key' .* en/a\.json"):
        _load_from(monkeypatch, tmp_path)


@pytest.mark.parametrize("content", ['["a list"]', '{"k": 1}', "{not json"])
def test_a_malformed_catalogue_is_an_error_at_load(tmp_path, monkeypatch, content):
    (tmp_path / "en").mkdir()
    (tmp_path / "ja").mkdir()
    (tmp_path / "en" / "bad.json").write_text(content, encoding="utf-8")
    with pytest.raises(CatalogueError, match=r"en/bad\.json"):
        _load_from(monkeypatch, tmp_path)


def _ctx(location=TranslationContextLocation.command_description):
    return TranslationContext(location, None)


async def test_translator_answers_japanese_for_keyed_strings(monkeypatch):
    monkeypatch.setitem(
        CATALOGUES, "ja", {**CATALOGUES["ja"], "test.name": "ランキング", "test.desc": "説明"}
    )
    tr = CatalogueTranslator()
    name = app_commands.locale_str("leaderboard", key="test.name")
    desc = app_commands.locale_str("Standings", key="test.desc")
    assert (
        await tr.translate(
            name, discord.Locale.japanese, _ctx(TranslationContextLocation.command_name)
        )
        == "ランキング"
    )
    assert await tr.translate(desc, discord.Locale.japanese, _ctx()) == "説明"
    assert await tr.translate(desc, discord.Locale.american_english, _ctx()) is None
    assert await tr.translate(desc, discord.Locale.french, _ctx()) is None


async def test_translator_returns_none_without_a_key_or_text():
    tr = CatalogueTranslator()
    assert await tr.translate(app_commands.locale_str("x"), discord.Locale.japanese, _ctx()) is None
    unknown = app_commands.locale_str("x", key="no.such.key")
    assert await tr.translate(unknown, discord.Locale.japanese, _ctx()) is None


async def test_translator_refuses_names_discord_would_refuse(monkeypatch):
    monkeypatch.setitem(
        CATALOGUES, "ja", {**CATALOGUES["ja"], "bad.name": "二つの 単語", "long.desc": "あ" * 101}
    )
    tr = CatalogueTranslator()
    name = app_commands.locale_str("x", key="bad.name")
    loc = TranslationContextLocation.parameter_name
    assert await tr.translate(name, discord.Locale.japanese, _ctx(loc)) is None
    desc = app_commands.locale_str("x", key="long.desc")
    assert await tr.translate(desc, discord.Locale.japanese, _ctx()) is None


def test_locale_key_carries_the_english_text_and_the_key():
    s = i18n.locale_key("common.next")
    assert s.message == "Next" and s.extras == {"key": "common.next"}


async def test_a_text_composed_of_other_keys_is_composed_in_each_language():
    parts = {"game": "game.kamiza", "edition": "glossary.kamiza.edition.classic"}
    s = i18n.locale_key("cmd.settings.param.edition.choice", **parts)
    assert s.message == "KAMIZA: classic" and s.extras["parts"] == parts
    loc = TranslationContextLocation.choice_name
    japanese = await CatalogueTranslator().translate(s, discord.Locale.japanese, _ctx(loc))
    assert japanese == "KAMIZA（上座）：クラシック版"


def test_command_texts_fit_discord_limits():
    bad = [
        f"{lang}: {key} ({len(text)} characters)"
        for lang, texts in CATALOGUES.items()
        for key, text in texts.items()
        if key.startswith("cmd.") and key.endswith(".description") and not 1 <= len(text) <= 100
    ]
    bad += [
        f"en: {key}: {text!r}"
        for key, text in CATALOGUES["en"].items()
        if key.startswith("cmd.") and key.endswith(".name") and not NAME.match(text)
    ]
    assert not bad, "command texts Discord would refuse: " + ", ".join(bad)


def test_counts_are_singular_for_one_and_plural_otherwise():
    assert [i18n.count("en", "game", n) for n in (0, 1, 2)] == ["0 games", "1 game", "2 games"]
    assert i18n.count("en", "win", 1) == "1 win" and i18n.count("en", "point", 1) == "1 point"
    assert [i18n.count("ja", "game", n) for n in (1, 2)] == ["1戦", "2戦"]
