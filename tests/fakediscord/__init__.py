"""A Discord-compatible fake API and gateway on 127.0.0.1, for end-to-end tests of the bot."""

from .driver import FakeUser, SlashError
from .server import FakeDiscord
from .state import FakeState, Interaction, Message

__all__ = ["FakeDiscord", "FakeState", "FakeUser", "Interaction", "Message", "SlashError"]
