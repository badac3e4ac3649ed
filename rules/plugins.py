"""Games beyond the product's three: the packages the `EXTRA_GAMES` setting names (plugins, and
the tests' own game).

Each such package has a `spec` module whose `SPEC` is the game's entry in the bot's registry
(`bot.games.registry.GameSpec`); its `rules` is the game's class. The bot loads the whole spec;
`python -m rules replay` and `python -m data check` load only the rules class, so that they
replay a plugin game's log as the bot does. The setting is read the way the bot reads it: from
the environment, else from `.env` in the working directory (`PluginSettings`, which the bot's
`Settings` extends). The rules themselves never read it.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType
from typing import Annotated

from pydantic import ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from rules.base import Game
from rules.registry import register

SETTING = "EXTRA_GAMES"


class PluginError(Exception):
    """An `EXTRA_GAMES` value that gives no game: one line naming the setting, as the bot says
    of a bad setting."""

    def __init__(self, value: str, reason: str) -> None:
        super().__init__(f"{SETTING}={value!r} is invalid: {reason}")


def parse_packages(value: object) -> tuple[str, ...]:
    """The setting's packages: comma-separated Python package names, each kept once."""
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    if not isinstance(value, list | tuple):
        raise ValueError("must be Python package names separated by commas")
    for package in value:
        if not isinstance(package, str) or not all(
            part.isidentifier() for part in package.split(".")
        ):
            raise ValueError(f"{package!r} is not a Python package name")
    return tuple(dict.fromkeys(value))  # a package named twice is loaded once


class PluginSettings(BaseSettings):
    """The settings every command of the project reads alike; the bot's `Settings` adds its own."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
    )

    # More game packages beside the product's (`bot.games.registry`), comma-separated: plugins
    # and the tests' own game. Each must have a `spec` module with a `SPEC`.
    extra_games: Annotated[tuple[str, ...], NoDecode] = ()

    @field_validator("extra_games", mode="before")
    @classmethod
    def _package_list(cls, value: object) -> object:
        return parse_packages(value)


def configured_packages() -> tuple[str, ...]:
    """`EXTRA_GAMES` from the environment or `.env`; raises PluginError when malformed."""
    try:
        return PluginSettings().extra_games
    except ValidationError as exc:
        problem = exc.errors()[0]
        reason = problem["msg"].removeprefix("Value error, ")
        raise PluginError(str(problem.get("input", "")), reason) from None


def spec_module(package: str) -> ModuleType:
    """The package's `spec` module; raises PluginError when it does not import."""
    name = f"{package}.spec"
    try:
        return importlib.import_module(name)
    except Exception as exc:  # any failure of a plugin's code: one line, never a traceback
        raise PluginError(package, f"cannot import {name} ({type(exc).__name__}: {exc})") from exc


def load_rules(packages: Iterable[str]) -> None:
    """Register the rules class of each package's game (`SPEC.rules`); raises PluginError."""
    for package in packages:
        rules = getattr(getattr(spec_module(package), "SPEC", None), "rules", None)
        if not (isinstance(rules, type) and issubclass(rules, Game)):
            raise PluginError(package, f"{package}.spec has no SPEC whose rules are a Game")
        try:
            register(rules)
        except ValueError as exc:
            raise PluginError(package, str(exc)) from None


def load_configured_rules() -> None:
    """`load_rules` of the configured packages: what a command that replays logs does first."""
    load_rules(configured_packages())
