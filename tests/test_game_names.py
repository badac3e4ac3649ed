"""A game's name appears in at most 2 product files outside its own (issue "One table runtime":
the two registries, `bot/games/registry.py` and `rules/registry.py`), so that adding or removing
a game is its own packages and a registry line.

Product files: bot/, rules/ and data/ (code, catalogues, SQL), not tests, not docs. A game's own
files: its bot package, its rules modules (`rules/<game>*.py`, and `<game>_*.py` anywhere under
rules/), its catalogue file and, in the shared catalogues, its entries (`game.<name>`,
`about.<prefix>`, `cmd.<prefix>.*`, `glossary.<prefix>.*`, `<prefix>.*`). Its names: the log
name and the slash command, written as they are (lower case, a whole word: `kobayakawa`,
`bot.kobayakawa`, `/losers`); the card called Kobayakawa and the games' display names are
words of the texts, not names of a game to the code.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("bot", "rules", "data")
SUFFIXES = {".py", ".json", ".sql", ".toml"}
LIMIT = 2

# log name -> (its package and catalogue prefix, its names)
GAMES = {
    "kamiza": ("kamiza", ("kamiza",)),
    "kobayakawa": ("kobayakawa", ("kobayakawa",)),
    "rights-of-losers": ("losers", ("rights-of-losers", "losers")),
}

# "kamiza" is the product's name too: its program name on standard error, its ledger file, its
# distribution and the names of its ledger's threads and folders are not the game's.
PRODUCT_NAME = re.compile(
    r'"kamiza: |kamiza\.sqlite3|version\("kamiza"\)|kamiza-ledger-(?:writer|bench)'
)

REGISTRIES = {"bot/games/registry.py", "rules/registry.py"}

# Beyond the limit, known and kept from growing (take a file off once it no longer names the
# game). Only the ledger's history: its migrations are applied in order to every existing ledger
# file and never edited. Version 1 gave the server's default KAMIZA edition a column of its own;
# version 3 moves those values into the per-game table of default editions, so it names the
# column and the game once. Any later migration names no game.
LEFT = {
    "kamiza": {
        "data/migrations/0001_init.sql",
        "data/migrations/0003_default_editions.sql",
        # the same history for PostgreSQL (its steps mirror SQLite's, number for number)
        "data/migrations/postgres/0001_init.sql",
        "data/migrations/postgres/0003_default_editions.sql",
    },
    "kobayakawa": set(),
    "rights-of-losers": set(),
}


def product_files() -> list[Path]:
    return sorted(
        path
        for package in PRODUCT
        for path in (ROOT / package).rglob("*")
        if path.suffix in SUFFIXES and "__pycache__" not in path.parts
    )


def is_own(relative: str, prefix: str) -> bool:
    name = relative.rsplit("/", 1)[-1]
    return (
        relative.startswith(f"bot/{prefix}/")
        or (
            relative.startswith("rules/")
            and (name.startswith(f"{prefix}_") or name == f"{prefix}.py")
        )
        or (relative.startswith("bot/i18n/") and name == f"{prefix}.json")
    )


def is_own_entry(key: str, game: str, prefix: str) -> bool:
    return key in (f"game.{game}", f"about.{prefix}") or key.startswith(
        (f"cmd.{prefix}.", f"glossary.{prefix}.", f"{prefix}.")
    )


def text_outside_the_game(path: Path, game: str, prefix: str) -> str:
    """The file's text, without the game's own catalogue entries."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json" and path.parent.parent.name == "i18n":
        entries = json.loads(text)
        text = json.dumps(
            {k: v for k, v in entries.items() if not is_own_entry(k, game, prefix)},
            ensure_ascii=False,
        )
    return PRODUCT_NAME.sub("", text)


def files_naming(game: str) -> list[str]:
    prefix, names = GAMES[game]
    pattern = re.compile("|".join(rf"(?<![A-Za-z0-9]){re.escape(n)}(?![A-Za-z0-9])" for n in names))
    found = []
    for path in product_files():
        relative = path.relative_to(ROOT).as_posix()
        if not is_own(relative, prefix) and pattern.search(
            text_outside_the_game(path, game, prefix)
        ):
            found.append(relative)
    return found


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_game_is_named_by_the_registries_and_its_known_leftovers_only(game: str) -> None:
    found = set(files_naming(game))
    assert found - LEFT[game] == REGISTRIES and len(REGISTRIES) <= LIMIT
    assert found >= LEFT[game]  # a leftover gone: take it off the list


def test_the_count_sees_a_name_and_skips_the_games_own_entries(tmp_path: Path) -> None:
    assert is_own("rules/bench/kobayakawa_slouchart.py", "kobayakawa")
    assert not is_own("rules/agents.py", "kamiza")
    assert is_own_entry("cmd.losers.start.name", "rights-of-losers", "losers")
    assert not is_own_entry("cmd.settings.param.kamiza_edition.name", "kamiza", "kamiza")
    catalogue = tmp_path / "i18n" / "en" / "about.json"
    catalogue.parent.mkdir(parents=True)
    catalogue.write_text('{"about.losers": "/losers start", "about.more": "see /losers"}')
    assert "/losers" in text_outside_the_game(catalogue, "rights-of-losers", "losers")
    catalogue.write_text('{"about.losers": "/losers start"}')
    assert "losers" not in text_outside_the_game(catalogue, "rights-of-losers", "losers")
