"""The fake Discord's world: one guild, its channels and threads, members, messages, DMs,
registered commands, interactions and every request the bot made.

Everything here is plain data mutated by the server (REST and gateway) and read by the driver and
by tests. `FakeState.changed()` wakes whoever waits in `FakeState.wait_for`; nothing polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import itertools
import re
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from .rate_limits import RateLimits

T = TypeVar("T")

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types.
TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
THREAD_TYPES = (PUBLIC_THREAD, PRIVATE_THREAD)

# Message flags.
EPHEMERAL, LOADING = 1 << 6, 1 << 7

# Interaction types.
APPLICATION_COMMAND, MESSAGE_COMPONENT, MODAL_SUBMIT = 2, 3, 5

# Gateway intents.
GUILDS, GUILD_MEMBERS, GUILD_PRESENCES = 1 << 0, 1 << 1, 1 << 8
GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT = 1 << 9, 1 << 12, 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

# Permissions.
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

EVERYONE_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | ADD_REACTIONS
)
# What the README's invite link grants the bot.
BOT_PERMISSIONS = (
    VIEW_CHANNEL
    | SEND_MESSAGES
    | SEND_MESSAGES_IN_THREADS
    | CREATE_PUBLIC_THREADS
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
)


def iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


class ApiError(Exception):
    """A Discord-style error answer: HTTP status, JSON error code and message."""

    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        return body


def invalid_form(problem: str) -> ApiError:
    return ApiError(400, 50035, "Invalid Form Body", {"_errors": [{"message": problem}]})


@dataclass(eq=False)
class User:
    id: int
    name: str
    bot: bool = False
    locale: str = "en-US"
    manage_guild: bool = False
    dms_open: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": None if self.bot else self.name.title(),
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass(eq=False)
class Channel:
    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    recipient: User | None = None  # DM channels
    members: set[int] = field(default_factory=set)  # threads
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: float = field(default_factory=time.time)
    deleted: bool = False
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self) -> dict[str, Any]:
        if self.type == DM:
            assert self.recipient is not None
            return {"id": str(self.id), "type": DM, "recipients": [self.recipient.payload()]}
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "rate_limit_per_user": 0,
            "nsfw": False,
            "flags": 0,
        }
        if self.is_thread:
            data |= {
                "owner_id": str(self.owner_id),
                "message_count": self.message_count,
                "total_message_sent": self.message_count,
                "member_count": min(len(self.members), 50),
                "thread_metadata": {
                    "archived": self.archived,
                    "locked": self.locked,
                    "invitable": self.invitable,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.created_at),
                    "create_timestamp": iso(self.created_at),
                },
            }
        else:
            data |= {"position": 0, "permission_overwrites": [], "topic": None}
        return data


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    content: bytes
    content_type: str = "application/octet-stream"
    description: str | None = None

    def payload(self, base_url: str) -> dict[str, Any]:
        url = f"{base_url}/attachments/{self.id}/{self.filename}"
        data = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.content),
            "url": url,
            "proxy_url": url,
            "content_type": self.content_type,
        }
        if self.description:
            data["description"] = self.description
        return data


def iter_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first: rows, their buttons and selects, v2 containers' children."""
    for component in components:
        yield component
        yield from iter_components(component.get("components", []))
        if "accessory" in component:
            yield from iter_components([component["accessory"]])


MENTION = re.compile(r"<@!?(\d+)>")


def notified_users(content: str, allowed_mentions: dict[str, Any] | None) -> frozenset[int]:
    """Who Discord notifies for a newly created message: the users mentioned in its content
    (or, laid out, its text displays) that `allowed_mentions` lets through (absent: every one).
    Embeds and edits never notify, so only message creation asks this."""
    mentioned = {int(found) for found in MENTION.findall(content or "")}
    if allowed_mentions is not None and "users" not in (allowed_mentions.get("parse") or []):
        mentioned &= {int(user) for user in allowed_mentions.get("users") or []}
    return frozenset(mentioned)


@dataclass(frozen=True)
class Version:
    """A message as it was shown at one time: created, or after an edit."""

    content: str
    embeds: list[dict[str, Any]]
    components: list[dict[str, Any]]

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    @property
    def text(self) -> str:
        """Its content, then its text displays (a laid-out message has no content)."""
        texts = [c.get("content", "") for c in iter_components(self.components)]
        texts = [t for t in texts if t and isinstance(t, str)]
        return "\n".join(p for p in (self.content, *texts) if p)


@dataclass(eq=False)
class Message:
    id: int
    channel_id: int
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    ephemeral_for: int | None = None  # the only user who sees this message
    interaction: Interaction | None = None  # the interaction this message answers
    reference_id: int | None = None
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    edits: int = 0
    deleted: bool = False
    # Who Discord notified when the message was created (`notified_users`); never changes.
    notified: frozenset[int] = frozenset()
    versions: list[Version] = field(default_factory=list)  # as created, then after each edit

    def keep_version(self) -> None:
        self.versions.append(
            Version(self.content, copy.deepcopy(self.embeds), copy.deepcopy(self.components))
        )

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_for is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content and embeds (titles, descriptions, fields, footers) as one text, for asserts."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [embed.get("author", {}).get("name", ""), embed.get("title", "")]
            parts.append(embed.get("description", ""))
            for f in embed.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append(embed.get("footer", {}).get("text", ""))
        for c in iter_components(self.components):
            if c.get("type") == 10:  # v2 text display
                parts.append(c.get("content", ""))
        return "\n".join(p for p in parts if p)

    def all_components(self) -> list[dict[str, Any]]:
        return list(iter_components(self.components))

    def buttons(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") == 2]

    def selects(self) -> list[dict[str, Any]]:
        return [c for c in iter_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def component(self, label_or_custom_id: str) -> dict[str, Any]:
        """The button or select with this custom_id, or the button with this label."""
        for c in iter_components(self.components):
            if c.get("custom_id") == label_or_custom_id:
                return c
        labelled = [c for c in self.buttons() if c.get("label") == label_or_custom_id]
        if len(labelled) == 1:
            return labelled[0]
        known = [c.get("label") or c.get("custom_id") for c in self.buttons() + self.selects()]
        problem = "several components are" if labelled else "no component is"
        raise LookupError(
            f"{problem} labelled or identified {label_or_custom_id!r} in message {self.id}; "
            f"it has {known}"
        )

    def payload(self, state: FakeState) -> dict[str, Any]:
        channel = state.channels[self.channel_id]
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload(state.base_url) for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
        }
        if channel.guild_id is not None:
            data["guild_id"] = str(channel.guild_id)
        if self.reference_id is not None:
            data["message_reference"] = {
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel_id),
            }
        if self.interaction is not None:
            data["webhook_id"] = str(state.application_id)
            data["application_id"] = str(state.application_id)
            data["interaction_metadata"] = {
                "id": str(self.interaction.id),
                "type": self.interaction.type,
                "user": self.interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id or state.guild_id)},
            }
        return data


@dataclass(eq=False)
class Interaction:
    """One interaction sent to the bot, and how and when the bot answered it."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    name: str  # "/kamiza start" for a command, the custom_id for a component or modal
    payload: dict[str, Any]
    message: Message | None = None  # the message whose component was used
    sent_at: float = field(default_factory=time.monotonic)
    answered_at: float | None = None
    callback_type: int | None = None
    original: Message | None = None  # the response message (or the component's message)
    followups: list[Message] = field(default_factory=list)
    modal: dict[str, Any] | None = None
    choices: list[dict[str, Any]] | None = None  # autocomplete answer
    late_callbacks: list[float] = field(default_factory=list)  # seconds, refused with 10062

    @property
    def answered(self) -> bool:
        return self.answered_at is not None

    @property
    def elapsed(self) -> float | None:
        """Seconds from dispatch until the bot's callback (Discord allows 3)."""
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def response(self) -> Message | None:
        return self.original

    def messages(self) -> list[Message]:
        """The response and the follow-ups still present."""
        found = [self.original, *self.followups] if self.original else list(self.followups)
        return [m for m in found if not m.deleted]


@dataclass
class Request:
    method: str
    route: str  # "POST /channels/{channel_id}/messages", or the raw path if unknown
    path: str
    status: int
    body: Any
    at: float = field(default_factory=time.monotonic)

    def __str__(self) -> str:
        return f"{self.method} {self.path} -> {self.status}"


@dataclass
class Fault:
    route: str  # "POST /channels/{channel_id}/messages"
    status: int  # 429 or a 5xx
    times: int = 1
    retry_after: float = 0.05
    hits: int = 0


@dataclass
class Identify:
    intents: int
    properties: dict[str, Any]
    shard: list[int] | None
    token_ok: bool
    at: float = field(default_factory=time.monotonic)


class Gateway(Protocol):
    intents: int
    ready: bool
    shard: tuple[int, int]  # (shard id, shard count) of its IDENTIFY; (0, 1) unsharded

    def dispatch(self, event: str, data: dict[str, Any]) -> None: ...


_EVENT_INTENTS = {
    "CHANNEL_CREATE": GUILDS,
    "CHANNEL_UPDATE": GUILDS,
    "CHANNEL_DELETE": GUILDS,
    "THREAD_CREATE": GUILDS,
    "THREAD_UPDATE": GUILDS,
    "THREAD_DELETE": GUILDS,
}
_MESSAGE_EVENTS = ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE")


class FakeState:
    """The whole fake world. One guild with #general and #games, the bot and its application;
    `add_guild` adds more (every user is a member of every guild).

    Sharding as Discord does it: a connection IDENTIFYs as shard `[id, count]`; a guild's events
    go only to the connection of its shard, `(guild_id >> 22) % count`, and direct messages
    (events and interactions without a guild) only to shard 0's."""

    def __init__(self, token: str = "fake-bot-token") -> None:
        self.token = token
        self.base_url = "http://127.0.0.1"  # the server sets the real one
        self._ids = itertools.count(1)
        self.bot = User(self.snowflake(), "kamiza", bot=True)
        self.application_id = self.bot.id
        self.guild_id = self.snowflake()
        self.guild_names: dict[int, str] = {self.guild_id: "Kamiza Test Server"}
        self.guild_locale = "en-US"  # the server's language (set before the bot connects)
        self.owner = User(self.snowflake(), "owner", manage_guild=True)
        self.bot_role_id = self.snowflake()
        self.bot_permissions = BOT_PERMISSIONS
        self.users: dict[int, User] = {u.id: u for u in (self.bot, self.owner)}
        self.members: set[int] = {self.bot.id, self.owner.id}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self.messages_in: dict[int, list[Message]] = {}  # channel id -> its messages, in order
        self._topics: dict[object, asyncio.Event] = {}
        self.general = self.add_channel("general")
        self.games = self.add_channel("games")
        self.global_commands: list[dict[str, Any]] = []
        self.guild_commands: dict[int, list[dict[str, Any]]] = {}
        self.command_overwrites: list[Request] = []  # every bulk overwrite, in order
        self.interactions: list[Interaction] = []
        self.interaction_index: dict[int, Interaction] = {}
        self.interaction_tokens: dict[str, Interaction] = {}
        self.interaction_deadline = 3.0
        # An interaction's token takes follow-ups (and their edits and deletions) this long
        # after the interaction, then Discord answers 10015 "Unknown Webhook".
        self.token_life = 15 * 60.0
        self.requests: list[Request] = []
        self.unknown_routes: list[Request] = []
        # Ids sent as numbers where Discord's published schema has strings (`snowflakes.py`).
        self.schema_problems: list[str] = []
        self.faults: list[Fault] = []
        # Discord's global and per-route limits (`RateLimits`), or None: no limit (the default)
        self.rate_limits: RateLimits | None = None
        # While this event is cleared, the bot token's requests wait before Discord receives
        # (and counts) them: a congested network or a busy Discord, where requests sent a second
        # apart arrive together. None: they arrive as sent (the default).
        self.in_transit: asyncio.Event | None = None
        self.identifies: list[Identify] = []
        # Discord starts one session per `identify_spacing` seconds (max_concurrency 1): an
        # IDENTIFY sooner is refused with op 9 and kept here. None: not enforced (the default).
        self.identify_spacing: float | None = None
        self.refused_identifies: list[Identify] = []
        self.session_starts: list[Identify] = []  # the IDENTIFYs that started a session
        self.sessions: dict[int, Gateway] = {}  # by shard id: the connection of each shard
        self.shard_count = 1  # of the latest IDENTIFY
        self.ready_count = 0  # READY + GUILD_CREATE sent, over all sessions
        self.dropped_events: list[str] = []  # dispatched while no session was ready
        self._changed = asyncio.Event()

    # -- ids and change notification ------------------------------------------------------

    def snowflake(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._ids) & 0x3FFFFF)

    def changed(self) -> None:
        """Wake every `wait_for`. Called by the server after each request and gateway frame."""
        self._changed.set()
        self._changed = asyncio.Event()

    def touch(self, topic: object) -> None:
        """Wake the `wait_for`s watching `topic` (a channel id, an interaction id)."""
        event = self._topics.pop(topic, None)
        if event is not None:
            event.set()

    async def wait_for(
        self,
        predicate: Callable[[], T],
        timeout: float = 5.0,
        what: str = "",
        topic: object = None,
    ) -> T:
        """Await until predicate() is truthy; return its value. It is re-checked on every change,
        or with `topic` only when that topic is touched (cheap when many wait at once)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            # taken before checking: no change can slip between
            event = (
                self._changed if topic is None else self._topics.setdefault(topic, asyncio.Event())
            )
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"waited {timeout:g}s for {what or predicate!r}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)

    # -- guild ----------------------------------------------------------------------------

    def add_guild(self, name: str, shard: tuple[int, int] | None = None) -> int:
        """A new guild with its own #general and #games; with `shard=(id, count)`, its id puts
        it on that shard. Every user is a member, the bot included."""
        guild_id = self.snowflake()
        if shard is not None:
            wanted, count = shard
            ms = guild_id >> 22
            guild_id = ((ms - (ms - wanted) % count) << 22) | (guild_id & 0x3FFFFF)
        self.guild_names[guild_id] = name
        self.add_channel("general", guild_id=guild_id)
        self.add_channel("games", guild_id=guild_id)
        return guild_id

    def shard_of(self, guild_id: int | None, count: int | None = None) -> int:
        """The shard whose connection gets a guild's events; 0 for direct messages."""
        if guild_id is None:
            return 0
        return (guild_id >> 22) % (count or self.shard_count)

    def known_guild(self, guild_id: int | str) -> int:
        if int(guild_id) not in self.guild_names:
            raise ApiError(404, 10004, "Unknown Guild")
        return int(guild_id)

    def add_user(
        self, name: str, *, locale: str = "en-US", manage_guild: bool = False, member: bool = True
    ) -> User:
        user = User(self.snowflake(), name, locale=locale, manage_guild=manage_guild)
        self.users[user.id] = user
        if member:
            self.members.add(user.id)
        return user

    def add_channel(
        self,
        name: str,
        type: int = TEXT,
        parent: Channel | None = None,
        guild_id: int | None = None,
    ) -> Channel:
        channel = Channel(
            self.snowflake(),
            type,
            name,
            guild_id=guild_id or (parent.guild_id if parent else None) or self.guild_id,
            parent_id=None if parent is None else parent.id,
        )
        self.channels[channel.id] = channel
        return channel

    def channel(self, channel_id: int | str) -> Channel:
        channel = self.channels.get(int(channel_id))
        if channel is None or channel.deleted:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    def channel_named(self, name: str, guild_id: int | None = None) -> Channel:
        """The channel `name` (of the first guild, or of `guild_id`)."""
        guild_id = guild_id or self.guild_id
        for channel in self.channels.values():
            if channel.name == name and not channel.deleted and channel.guild_id == guild_id:
                return channel
        raise LookupError(f"no channel named {name!r}")

    def threads(self, parent: Channel | None = None) -> list[Channel]:
        return [
            c
            for c in self.channels.values()
            if c.is_thread and not c.deleted and (parent is None or c.parent_id == parent.id)
        ]

    def dm_channel(self, user: User, create: bool = True) -> Channel | None:
        for channel in self.channels.values():
            if channel.type == DM and channel.recipient is user:
                return channel
        if not create:
            return None
        channel = Channel(self.snowflake(), DM, "", recipient=user)
        self.channels[channel.id] = channel
        return channel

    def member_permissions(self, user: User) -> int:
        if user is self.bot:
            return EVERYONE_PERMISSIONS | self.bot_permissions
        if user is self.owner:
            return (1 << 50) - 1  # every permission
        return EVERYONE_PERMISSIONS | (MANAGE_GUILD if user.manage_guild else 0)

    def can_see(self, user: User, channel: Channel) -> bool:
        if channel.deleted:
            return False
        if channel.type == DM:
            return channel.recipient is user
        if channel.type == PRIVATE_THREAD:
            return user.id in channel.members or user is self.owner
        return user.id in self.members

    def member_payload(self, user: User, *, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "user": user.payload(),
            "roles": [str(self.bot_role_id)] if user is self.bot else [],
            "joined_at": iso(time.time() - 86400),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
        }
        if with_permissions:
            data["permissions"] = str(self.member_permissions(user))
        return data

    def guild_payload(self, guild_id: int | None = None) -> dict[str, Any]:
        guild_id = guild_id or self.guild_id

        def role(id_: int, name: str, permissions: int, position: int) -> dict[str, Any]:
            return {
                "id": str(id_),
                "name": name,
                "color": 0,
                "hoist": False,
                "position": position,
                "permissions": str(permissions),
                "managed": id_ != guild_id,
                "mentionable": False,
                "flags": 0,
            }

        channels = [c for c in self.channels.values() if c.guild_id == guild_id and not c.deleted]
        return {
            "id": str(guild_id),
            "name": self.guild_names[guild_id],
            "icon": None,
            "owner_id": str(self.owner.id),
            "roles": [
                role(guild_id, "@everyone", EVERYONE_PERMISSIONS, 0),
                role(self.bot_role_id, "Kamiza", self.bot_permissions, 1),
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "preferred_locale": self.guild_locale,
            "member_count": len(self.members),
            "large": False,
            "unavailable": False,
            "joined_at": iso(time.time() - 86400),
            "members": [self.member_payload(self.bot)],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    # -- messages -------------------------------------------------------------------------

    def message(self, channel: Channel, message_id: int | str) -> Message:
        message = self.messages.get(int(message_id))
        if message is None or message.deleted or message.channel_id != channel.id:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    def channel_messages(self, channel: Channel) -> list[Message]:
        return [m for m in self.messages_in.get(channel.id, ()) if not m.deleted]

    def post(self, channel: Channel, author: User, **fields: Any) -> Message:
        message = Message(self.snowflake(), channel.id, author, **fields)
        message.keep_version()
        self.messages[message.id] = message
        self.messages_in.setdefault(channel.id, []).append(message)
        self.touch(channel.id)
        if not message.ephemeral:
            channel.message_count += 1
            self.dispatch_message("MESSAGE_CREATE", message)
        return message

    def dispatch_message(self, event: str, message: Message) -> None:
        if message.ephemeral:
            return  # Discord sends no gateway event for ephemeral messages
        channel = self.channels[message.channel_id]
        if event == "MESSAGE_DELETE":
            data = {"id": str(message.id), "channel_id": str(channel.id)}
            if channel.guild_id:
                data["guild_id"] = str(channel.guild_id)
        else:
            data = message.payload(self)
        self.dispatch(event, data, DIRECT_MESSAGES if channel.type == DM else GUILD_MESSAGES)

    # -- gateway --------------------------------------------------------------------------

    def dispatch(self, event: str, data: dict[str, Any], intent: int | None = None) -> None:
        """Send an event to the gateway session of its guild's shard (a DM's: shard 0) if its
        intents ask for it."""
        if event in _EVENT_INTENTS:
            intent = _EVENT_INTENTS[event]
        guild_id = data.get("guild_id")
        session = self.sessions.get(self.shard_of(int(guild_id) if guild_id else None))
        if session is None or not session.ready:
            self.dropped_events.append(event)
            return
        if intent is None or session.intents & intent:
            session.dispatch(event, data)

    @property
    def session(self) -> Gateway | None:
        """Shard 0's connection: the only one of an unsharded bot."""
        return self.sessions.get(0)

    @property
    def connected(self) -> bool:
        return self.session is not None and self.session.ready

    def connected_shards(self) -> set[int]:
        """The shards with a ready connection."""
        return {shard for shard, session in self.sessions.items() if session.ready}

    def attach(self, session: Gateway) -> None:
        """A connection IDENTIFYed: it takes its shard's events (a reconnect replaces one)."""
        self.shard_count = session.shard[1]
        self.sessions[session.shard[0]] = session

    def detach(self, session: Gateway) -> None:
        if self.sessions.get(session.shard[0]) is session:
            del self.sessions[session.shard[0]]

    def guilds_of_shard(self, shard: int, count: int) -> list[int]:
        return [g for g in self.guild_names if self.shard_of(g, count) == shard]

    # -- commands -------------------------------------------------------------------------

    def commands_for(self, guild_id: int | None = None) -> list[dict[str, Any]]:
        """The commands users of the guild see: guild commands first, then global ones."""
        guild_id = self.guild_id if guild_id is None else guild_id
        return [*self.guild_commands.get(guild_id, []), *self.global_commands]

    def command(self, name: str) -> dict[str, Any]:
        for command in self.commands_for():
            if command["name"] == name and command.get("type", 1) == 1:
                return command
        names = sorted(c["name"] for c in self.commands_for())
        raise LookupError(f"the bot registered no slash command /{name}; it has {names}")

    # -- interactions ---------------------------------------------------------------------

    def new_interaction(
        self,
        type: int,
        user: User,
        channel: Channel,
        name: str,
        data: dict[str, Any],
        message: Message | None = None,
    ) -> Interaction:
        interaction_id = self.snowflake()
        token = f"itoken.{interaction_id}.{secrets.token_hex(8)}"
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": type,
            "data": data,
            "token": token,
            "version": 1,
            "locale": user.locale,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "app_permissions": str(EVERYONE_PERMISSIONS | self.bot_permissions),
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel.type == DM:
            payload |= {"user": user.payload(), "context": 1}
        else:
            guild_id = channel.guild_id or self.guild_id
            payload |= {
                "guild_id": str(guild_id),
                "guild_locale": self.guild_locale,
                "guild": {"id": str(guild_id), "locale": self.guild_locale, "features": []},
                "member": self.member_payload(user, with_permissions=True),
                "context": 0,
                "authorizing_integration_owners": {"0": str(guild_id)},
            }
        if message is not None:
            payload["message"] = message.payload(self)
        interaction = Interaction(
            interaction_id, token, type, user, channel.id, name, payload, message=message
        )
        self.interactions.append(interaction)
        self.interaction_index[interaction.id] = interaction
        self.interaction_tokens[interaction.token] = interaction
        return interaction

    def interaction_by_token(self, token: str) -> Interaction:
        interaction = self.interaction_tokens.get(token)
        if interaction is None or time.monotonic() - interaction.sent_at > self.token_life:
            raise ApiError(404, 10015, "Unknown Webhook")
        return interaction

    def interaction_timings(self) -> list[tuple[str, float | None]]:
        return [(i.name, i.elapsed) for i in self.interactions]

    # -- requests and faults --------------------------------------------------------------

    def inject_fault(
        self, route: str, status: int = 429, *, times: int = 1, retry_after: float = 0.05
    ) -> Fault:
        """Answer the next `times` requests of `route` ("METHOD /path/{param}") with `status`."""
        fault = Fault(route, status, times, retry_after)
        self.faults.append(fault)
        return fault

    def take_fault(self, route: str) -> Fault | None:
        for fault in self.faults:
            if fault.route == route and fault.hits < fault.times:
                fault.hits += 1
                return fault
        return None

    def requests_to(self, route: str) -> list[Request]:
        return [r for r in self.requests if r.route == route]

    def failed_requests(self) -> list[Request]:
        return [r for r in self.requests if r.status >= 400]
