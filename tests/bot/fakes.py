"""A stand-in for `discord.Interaction` with what the table handlers read and call.

Real handlers, real tables and a real ledger; only Discord's side is recorded instead of sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
from fakediscord.components_v2 import check_layout
from fakediscord.server import validate_components, validate_embeds

from bot.i18n import t
from bot.layout import as_text, check
from bot.layout.board import controls_in
from bot.layout.payload import CONTAINER, MEDIA_GALLERY, children, kind, payload, walk


@dataclass
class Answer:
    """One thing the handler sent back: an edit of the clicked message or a private message."""

    kind: str  # "edit", "message" or "followup"
    content: str | None
    embed: Any = None
    view: Any = None
    ephemeral: bool = False  # a private answer only the clicking user sees


@dataclass
class FakeResponse:
    answers: list[Answer]
    done: bool = False

    def is_done(self) -> bool:
        return self.done

    def _once(self) -> None:
        if self.done:
            raise RuntimeError("interaction answered twice")
        self.done = True

    async def edit_message(self, *, content: str | None = None, **kw: Any) -> None:
        self._once()
        self.answers.append(Answer("edit", content, kw.get("embed"), kw.get("view")))

    async def send_message(self, content: str | None = None, **kw: Any) -> None:
        self._once()
        self.answers.append(
            Answer("message", content, kw.get("embed"), kw.get("view"), kw.get("ephemeral", False))
        )

    async def defer(self, **kw: Any) -> None:
        self._once()


@dataclass
class FakeFollowup:
    answers: list[Answer]

    async def send(self, content: str | None = None, **kw: Any) -> None:
        self.answers.append(
            Answer("followup", content, kw.get("embed"), kw.get("view"), kw.get("ephemeral", False))
        )


@dataclass
class FakeInteraction:
    """A click or command by `user_id` in `guild_id`, seen by a client holding `tables`."""

    tables: Any
    user_id: int
    guild_id: int | None
    channel_id: int = 0
    manage_guild: bool = False
    locale: str = "en-US"
    answers: list[Answer] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.client = SimpleNamespace(tables=self.tables)
        self.user = SimpleNamespace(id=self.user_id, display_name=f"user{self.user_id}")
        self.permissions = SimpleNamespace(manage_guild=self.manage_guild, administrator=False)
        self.response = FakeResponse(self.answers)
        self.followup = FakeFollowup(self.answers)
        self.data: dict[str, Any] = {}

    def texts(self) -> list[str]:
        """Every answer as text: content, embed title, description and fields."""
        out = []
        for a in self.answers:
            parts = [a.content or ""]
            if a.embed is not None:
                parts += [a.embed.title or "", a.embed.description or ""]
                parts += [f"{f.name} {f.value}" for f in a.embed.fields]
            parts.append(layout_text(a.view))
            out.append("\n".join(p for p in parts if p))
        return out


# -- the bot a presenter posts through -------------------------------------------------------------


@dataclass
class Posted:
    """One message a presenter posted ("send") or edited ("edit"), with the keyword arguments."""

    kind: str
    channel_id: int
    message_id: int
    kwargs: dict[str, Any]

    @property
    def content(self) -> str | None:
        return self.kwargs.get("content")

    @property
    def is_ping(self) -> bool:
        """A turn's ping (a message that may notify named users only) or its deletion."""
        allowed = self.kwargs.get("allowed_mentions")
        return self.kind == "delete" or isinstance(getattr(allowed, "users", None), list)

    @property
    def embed(self) -> Any:
        return self.kwargs.get("embed")

    @property
    def view(self) -> Any:
        return self.kwargs.get("view")

    @property
    def text(self) -> str:
        """What the message shows: its content, its embed's strings, its layout read out."""
        parts = [self.content or "", *embed_strings(self.embed), layout_text(self.view)]
        return "\n".join(p for p in parts if p)


def layout_text(view: Any) -> str:
    """A laid-out view as a screen reader reads it; "" for anything else."""
    return as_text(view) if isinstance(view, discord.ui.LayoutView) else ""


def heading(view: Any) -> str:
    """A laid-out message's title (its first line, "### title"); "" for anything else."""
    lines = layout_text(view).splitlines()
    return lines[0].removeprefix("### ") if lines else ""


def block(text: str, title: str | None = None) -> list[str]:
    """The lines of the block titled `title` in a layout's text (`as_text`), or with None the
    lines right under the heading; up to the next block's title, a separator, a picture, the
    footer or a row of buttons."""
    lines = text.splitlines()
    start = lines.index(f"**{title}**") + 1 if title is not None else 1
    taken = []
    for line in lines[start:]:
        if is_title(line) or line.startswith(("———", "[", "-# ")):
            break
        taken.append(line)
    return taken


def is_title(line: str) -> bool:
    return line.startswith("**") and line.endswith("**") and line.count("**") == 2


def following(text: str) -> list[str]:
    """The lines after a layout's last separator, up to its buttons."""
    lines = text.splitlines()
    last = max(i for i, line in enumerate(lines) if line == "———")
    return [line for line in lines[last + 1 :] if not line.startswith("[")]


def accepted(posted: Posted) -> None:
    """Discord's checks of a posted message, as the fake Discord makes them: its embed's
    limits, or its layout's (components, text, custom ids)."""
    if posted.embed is not None:
        validate_embeds([posted.embed.to_dict()])
    if isinstance(posted.view, discord.ui.LayoutView):
        layout_accepted(posted.view)


def layout_accepted(view: discord.ui.LayoutView) -> list[dict[str, Any]]:
    """The payload Discord gets, after every checker has accepted it: the product's own
    (`bot.layout.check`), then the fake Discord's."""
    check(view)
    sent = payload(view)
    validate_components(sent, v2=True)
    check_layout(sent, v2=True)
    return sent


def whole(view: discord.ui.LayoutView, lang: str) -> str:
    """The layout read out, asserting nothing of it gave way to fit (no "… and N more")."""
    text = as_text(view)
    folded = t(lang, "layout.more", n=0).split("0")[0]
    assert folded not in text, text
    return text


def container_kinds(sent: list[dict[str, Any]]) -> list[int]:
    """The kinds of the components in a layout's one container, in order."""
    (container,) = sent
    assert kind(container) == CONTAINER
    return [kind(c) for c in children(container)]


def galleries(sent: list[dict[str, Any]]) -> list[list[tuple[str, str]]]:
    """Each media gallery's pictures: their url and their description."""
    return [
        [(item["media"]["url"], item.get("description")) for item in c.get("items") or []]
        for c in walk(sent)
        if kind(c) == MEDIA_GALLERY
    ]


def custom_ids(view: Any) -> list[str]:
    """The custom ids of a view's buttons and selects, laid out or not, in order."""
    if view is None:
        return []
    items = controls_in(view) if isinstance(view, discord.ui.LayoutView) else view.children
    return [item.custom_id for item in items]


def embed_strings(embed: Any) -> list[str]:
    """Every string an embed shows: title, description, field names and values, footer."""
    if embed is None:
        return []
    parts = [embed.title, embed.description, embed.footer.text if embed.footer else None]
    for f in embed.fields:
        parts += [f.name, f.value]
    return [p for p in parts if p]


@dataclass
class FakePartialMessage:
    channel: FakeChannel
    id: int

    async def edit(self, **kwargs: Any) -> None:
        self.channel.bot.posted.append(Posted("edit", self.channel.id, self.id, kwargs))

    async def delete(self) -> None:
        self.channel.bot.posted.append(Posted("delete", self.channel.id, self.id, {}))


@dataclass
class FakeChannel:
    bot: FakeBot
    id: int

    async def send(self, **kwargs: Any) -> SimpleNamespace:
        self.bot.next_message_id += 1
        message_id = self.bot.next_message_id
        self.bot.posted.append(Posted("send", self.id, message_id, kwargs))
        return SimpleNamespace(id=message_id)

    def get_partial_message(self, message_id: int) -> FakePartialMessage:
        return FakePartialMessage(self, message_id)


@dataclass
class FakeBot:
    """The `discord.Client` a `MessagePresenter` uses: every guild speaks `locale`; messages
    posted and edited are recorded in order instead of sent."""

    locale: str = "en-US"
    posted: list[Posted] = field(default_factory=list)
    next_message_id: int = 1000

    async def wait_until_ready(self) -> None:
        return None

    def get_guild(self, guild_id: int) -> SimpleNamespace:
        return SimpleNamespace(id=guild_id, preferred_locale=self.locale)

    def get_partial_messageable(self, channel_id: int, guild_id: int | None = None) -> FakeChannel:
        return FakeChannel(self, channel_id)
