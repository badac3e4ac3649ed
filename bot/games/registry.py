"""The games the bot hosts: one `GameSpec` per game, and the one list of them.

Commands, /about, help, standings and the ledger take the game list from here (the ledger and
the replays through `rules.registry`, which `register` fills). Each game lives in its own bot
package, whose `spec` module holds its `SPEC`; adding a game to the product is one line in
`PACKAGES` (docs/ADDING_A_GAME.md). `EXTRA_GAMES` loads more packages the same way (plugins;
the tests' own game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from rules import registry as rules_registry
from rules.base import AnyGame
from rules.plugins import PluginError, spec_module

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from bot.runtime.presenter import Presenter
    from bot.tables.hand_view import HandView

G = TypeVar("G", bound=AnyGame)

# The product's games, in the order menus and /about list them.
PACKAGES: tuple[str, ...] = ("bot.kamiza", "bot.kobayakawa", "bot.losers")


class UnknownGame(LookupError):
    """A game name no loaded package registered."""


@dataclass(frozen=True, slots=True)
class GameSpec(Generic[G]):
    """Everything the bot needs to host one game.

    The factories import their modules only when called: the list of games is known before any
    game's Discord code is imported (slash command choices, the ledger's check of a game name).
    """

    rules: type[G]  # the state machine: log name, seat counts, options (`rules/`)
    command: str  # the slash command group: "<command>" for `/<command> start`
    i18n_prefix: str  # its catalogue keys `<prefix>.*`, `cmd.<prefix>.*`, `about.<prefix>`
    commands: Callable[[], app_commands.Group]  # its slash commands
    presenter: Callable[[discord.Client], Presenter[G]]  # its public table messages
    hand: Callable[[], HandView[G]]  # its private menus (importing them registers their verbs)
    catalogue: str | None = None  # a package with `<lang>/*.json` texts outside bot/i18n

    @property
    def name(self) -> str:
        """The log name (LOG_FORMAT.md `game`), the key of everything about the game."""
        return self.rules.name

    @property
    def display_key(self) -> str:
        return f"game.{self.name}"

    @property
    def about_key(self) -> str:
        return f"about.{self.i18n_prefix}"

    @property
    def seats(self) -> tuple[int, int]:
        return self.rules.min_players, self.rules.max_players

    @property
    def editions(self) -> tuple[str, ...]:
        """The choices of its `edition` option, the default first (none: no such option)."""
        return self.rules.editions

    def edition_key(self, edition: str) -> str:
        """The catalogue key of an edition's printed name."""
        return f"glossary.{self.i18n_prefix}.edition.{edition}"


_specs: dict[str, GameSpec[Any]] = {}


def register(spec: GameSpec[G]) -> GameSpec[G]:
    """Add a game (again: a no-op); its rules class joins `rules.registry` too."""
    known = _specs.get(spec.name)
    if known is spec:
        return spec
    if known is not None:
        raise ValueError(f"two games are named {spec.name!r}")
    rules_registry.register(spec.rules)
    if spec.catalogue is not None:
        from bot.i18n import add_catalogue

        add_catalogue(spec.catalogue)
    _specs[spec.name] = spec
    return spec


def load(packages: Iterable[str] = PACKAGES) -> tuple[GameSpec[Any], ...]:
    """Register the `SPEC` of each package's `spec` module; returns every game known. Raises
    PluginError (one line naming `EXTRA_GAMES`) when a package gives no game."""
    for package in packages:
        spec = getattr(spec_module(package), "SPEC", None)
        if not isinstance(spec, GameSpec):
            raise PluginError(package, f"{package}.spec has no SPEC = GameSpec(...)")
        register(spec)
    return games()


def games() -> tuple[GameSpec[Any], ...]:
    """Every registered game; the product's games are loaded on first use."""
    if not _specs:
        load()
    return tuple(_specs.values())


def names() -> tuple[str, ...]:
    return tuple(spec.name for spec in games())


def spec_of(name: str) -> GameSpec[Any]:
    for spec in games():
        if spec.name == name:
            return spec
    raise UnknownGame(name)
