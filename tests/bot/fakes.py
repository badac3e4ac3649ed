"""A stand-in for `discord.Interaction` with what the table handlers read and call.

Real handlers, real tables and a real ledger; only Discord's side is recorded instead of sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any


@dataclass
class Answer:
    """One thing the handler sent back: an edit of the clicked message or a private message."""

    kind: str  # "edit", "message" or "followup"
    content: str | None
    embed: Any = None
    view: Any = None


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
        self.answers.append(Answer("message", content, kw.get("embed"), kw.get("view")))

    async def defer(self, **kw: Any) -> None:
        self._once()


@dataclass
class FakeFollowup:
    answers: list[Answer]

    async def send(self, content: str | None = None, **kw: Any) -> None:
        self.answers.append(Answer("followup", content, kw.get("embed"), kw.get("view")))


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
            out.append("\n".join(p for p in parts if p))
        return out
