"""Scripted Discord users for tests: they run slash commands, click buttons, choose select
options and read what Discord would show them.

    alice = FakeUser(fake.state, fake.state.add_user("alice"))
    started = await alice.slash("kamiza", "start", edition="classic")
    lobby = started.response
    await bob.click(lobby, "Join")
    hand = await alice.wait_for_message(lambda m: m.ephemeral and "Your hand" in m.text)

Every interaction waits for the bot's callback (Discord allows 3 s) and returns the
`Interaction` record: `.response`, `.elapsed`, `.followups`, `.modal`.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from typing import Any

from .state import (
    ADMINISTRATOR,
    APPLICATION_COMMAND,
    DM,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    Channel,
    FakeState,
    Interaction,
    Message,
    User,
)


class SlashError(AssertionError):
    """The user could not run this command: Discord's client would not have sent it."""


def _option_value(state: FakeState, option: dict[str, Any], value: Any, resolved: dict) -> Any:
    name, kind = option["name"], option["type"]
    if isinstance(value, FakeUser):
        value = value.user
    if kind == 3:
        if not isinstance(value, str):
            raise SlashError(f"option {name}: a string, not {value!r}")
        if not option.get("min_length", 0) <= len(value) <= option.get("max_length", 6000):
            raise SlashError(f"option {name}: length out of range")
    elif kind in (4, 10):
        numeric = (int,) if kind == 4 else (int, float)
        if isinstance(value, bool) or not isinstance(value, numeric):
            raise SlashError(f"option {name}: a number, not {value!r}")
        if "min_value" in option and value < option["min_value"]:
            raise SlashError(f"option {name}: at least {option['min_value']}")
        if "max_value" in option and value > option["max_value"]:
            raise SlashError(f"option {name}: at most {option['max_value']}")
    elif kind == 5:
        if not isinstance(value, bool):
            raise SlashError(f"option {name}: a boolean, not {value!r}")
    elif kind == 6:
        if not isinstance(value, User):
            raise SlashError(f"option {name}: a user, not {value!r}")
        resolved.setdefault("users", {})[str(value.id)] = value.payload()
        if value.id in state.members:
            member = state.member_payload(value, with_permissions=True)
            del member["user"]
            resolved.setdefault("members", {})[str(value.id)] = member
        return str(value.id)
    elif kind == 7:
        if not isinstance(value, Channel):
            raise SlashError(f"option {name}: a channel, not {value!r}")
        if option.get("channel_types") and value.type not in option["channel_types"]:
            raise SlashError(f"option {name}: channel type {value.type} not allowed")
        data = value.payload() | {"permissions": str((1 << 50) - 1)}
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    else:
        raise SlashError(f"option {name}: the fake does not send option type {kind}")
    choices = option.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise SlashError(f"option {name}: {value!r} is not one of {[c['value'] for c in choices]}")
    return value


def command_data(
    state: FakeState, user: User, channel: Channel, names: tuple[str, ...], options: dict
) -> tuple[dict[str, Any], str]:
    """The `data` of a chat-input interaction, checked against the registered commands."""
    if len(names) == 1 and " " in names[0]:
        names = tuple(names[0].split())
    name, *path = names
    command = state.command(name)
    required = int(command.get("default_member_permissions") or 0)
    granted = state.member_permissions(user)
    hidden = required and granted & required != required and not granted & ADMINISTRATOR
    if channel.type != DM and hidden:
        raise SlashError(f"/{name} is hidden from {user.name} (needs permissions {required})")
    contexts = command.get("contexts")
    if channel.type == DM and (command.get("dm_permission") is False or 1 not in (contexts or [1])):
        raise SlashError(f"/{name} cannot be used in DMs")
    data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    node, target, label = command, data, f"/{name}"
    for sub in path:
        child = next(
            (o for o in node.get("options", []) if o["name"] == sub and o["type"] in (1, 2)), None
        )
        if child is None:
            raise SlashError(f"{label} has no subcommand {sub!r}")
        entry: dict[str, Any] = {"name": sub, "type": child["type"], "options": []}
        target.setdefault("options", []).append(entry)
        node, target, label = child, entry, f"{label} {sub}"
    subs = [o["name"] for o in node.get("options", []) if o["type"] in (1, 2)]
    if subs:
        raise SlashError(f"{label} needs a subcommand: one of {subs}")
    given, resolved, left = [], {}, dict(options)
    for option in node.get("options", []):
        if option["name"] in left:
            value = _option_value(state, option, left.pop(option["name"]), resolved)
            given.append({"name": option["name"], "type": option["type"], "value": value})
        elif option.get("required"):
            raise SlashError(f"{label}: option {option['name']!r} is required")
    if left:
        known = [o["name"] for o in node.get("options", [])]
        raise SlashError(f"{label} has no option {sorted(left)}; it has {known}")
    target["options"] = given
    if resolved:
        data["resolved"] = resolved
    return data, label


def _fill_modal(components: list[dict[str, Any]], values: dict[str, Any]) -> list[dict]:
    filled = copy.deepcopy(components)
    stack = list(filled)
    while stack:
        c = stack.pop()
        if c.get("type") == 4 and c.get("custom_id") in values:
            c["value"] = values.pop(c["custom_id"])
        elif c.get("type") == 3 and c.get("custom_id") in values:
            c["values"] = list(values.pop(c["custom_id"]))
        stack += c.get("components", [])
        if "component" in c:
            stack.append(c["component"])
    if values:
        raise SlashError(f"the modal has no input {sorted(values)}")
    return filled


class FakeUser:
    """A guild member driven by a test."""

    def __init__(self, state: FakeState, user: User) -> None:
        self.state = state
        self.user = user

    def __repr__(self) -> str:
        return f"<FakeUser {self.user.name} {self.user.id}>"

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return self.user.mention

    @property
    def dms_open(self) -> bool:
        return self.user.dms_open

    @dms_open.setter
    def dms_open(self, value: bool) -> None:
        """False: the bot's DMs to this user fail with 50007, as when DMs are closed."""
        self.user.dms_open = value

    # -- acting ---------------------------------------------------------------------------

    async def slash(
        self, *names: str, where: Channel | None = None, wait: bool = True, **options: Any
    ) -> Interaction:
        """Run `/names... option=value`, in `where` (default #general)."""
        channel = where or self.state.general
        self._check_can_see(channel)
        data, label = command_data(self.state, self.user, channel, names, options)
        return await self._send(APPLICATION_COMMAND, channel, label, data, None, wait)

    async def click(self, message: Message, label_or_custom_id: str, wait: bool = True):
        """Click the button with this label or custom_id."""
        component = self._component(message, label_or_custom_id)
        if component.get("type") != 2 or "custom_id" not in component:
            raise SlashError(f"{label_or_custom_id!r} is not a clickable button")
        data = {"custom_id": component["custom_id"], "component_type": 2}
        channel = self._channel_of(message)
        return await self._send(MESSAGE_COMPONENT, channel, data["custom_id"], data, message, wait)

    async def select(
        self, message: Message, custom_id: str, values: list[str], wait: bool = True
    ) -> Interaction:
        """Choose `values` in the string select `custom_id`."""
        component = self._component(message, custom_id)
        if component.get("type") != 3:
            raise SlashError(f"{custom_id!r} is not a string select (the fake sends only those)")
        offered = [o["value"] for o in component["options"]]
        if any(v not in offered for v in values) or len(set(values)) != len(values):
            raise SlashError(f"select {custom_id!r} offers {offered}, not {values}")
        if not component.get("min_values", 1) <= len(values) <= component.get("max_values", 1):
            raise SlashError(f"select {custom_id!r}: wrong number of values {len(values)}")
        data = {"custom_id": component["custom_id"], "component_type": 3, "values": list(values)}
        channel = self._channel_of(message)
        return await self._send(MESSAGE_COMPONENT, channel, custom_id, data, message, wait)

    async def submit(self, opened: Interaction, values: dict[str, Any], wait: bool = True):
        """Submit the modal the bot opened in answer to `opened`: {input custom_id: value}."""
        modal = opened.modal
        if modal is None or opened.user is not self.user:
            raise SlashError("that interaction opened no modal for this user")
        data = {
            "custom_id": modal["custom_id"],
            "components": _fill_modal(modal["components"], dict(values)),
        }
        channel = self.state.channels[opened.channel_id]
        name = modal["custom_id"]
        return await self._send(MODAL_SUBMIT, channel, name, data, opened.message, wait)

    async def _send(
        self,
        kind: int,
        channel: Channel,
        name: str,
        data: dict[str, Any],
        message: Message | None,
        wait: bool,
    ) -> Interaction:
        state = self.state
        if state.shard_of(channel.guild_id) not in state.connected_shards():
            raise RuntimeError("the bot is not connected to the gateway: nobody would answer")
        interaction = state.new_interaction(kind, self.user, channel, name, data, message)
        state.dispatch("INTERACTION_CREATE", interaction.payload)
        state.changed()
        if wait:
            await self.answered(interaction)
        return interaction

    async def answered(self, interaction: Interaction) -> Interaction:
        """Await the bot's callback; fail if it does not come within Discord's 3 seconds."""
        deadline = self.state.interaction_deadline
        with contextlib.suppress(TimeoutError):
            await self.state.wait_for(
                lambda: interaction.answered or interaction.late_callbacks,
                timeout=deadline + 0.25,
                what=f"an answer to {interaction.name}",
                topic=interaction.id,
            )
        if not interaction.answered:
            late = interaction.late_callbacks
            detail = f" (it answered after {late[0]:.2f}s)" if late else ""
            raise AssertionError(
                f"the bot did not answer {interaction.name} for {self.name} within "
                f"{deadline:g}s{detail}; Discord shows 'This interaction failed'"
            )
        return interaction

    # -- seeing ---------------------------------------------------------------------------

    def can_see(self, message: Message) -> bool:
        channel = self.state.channels[message.channel_id]
        if message.deleted or not self.state.can_see(self.user, channel):
            return False
        return message.ephemeral_for in (None, self.user.id)

    def visible_messages(self, channel: Channel | None = None) -> list[Message]:
        """Messages this user sees, oldest first: in `channel`, or everywhere."""
        pool = (
            self.state.messages.values()
            if channel is None
            else (self.state.messages_in.get(channel.id, ()))
        )
        return [m for m in pool if self.can_see(m)]

    def ephemerals(self) -> list[Message]:
        """Ephemeral messages shown to this user (only they see them)."""
        return [m for m in self.visible_messages() if m.ephemeral_for == self.user.id]

    def dms(self) -> list[Message]:
        """Messages the bot sent to this user by DM."""
        channel = self.state.dm_channel(self.user, create=False)
        return [] if channel is None else self.visible_messages(channel)

    async def wait_for_message(
        self,
        predicate: Callable[[Message], Any] = lambda m: True,
        *,
        channel: Channel | None = None,
        timeout: float = 5.0,
    ) -> Message:
        """The newest visible message that satisfies predicate, awaiting it if needed."""

        def find() -> Message | None:
            found = [m for m in self.visible_messages(channel) if predicate(m)]
            return found[-1] if found else None

        message = await self.state.wait_for(
            find, timeout, what=f"a message for {self.name}", topic=channel.id if channel else None
        )
        assert message is not None
        return message

    # -- helpers --------------------------------------------------------------------------

    def _check_can_see(self, channel: Channel) -> None:
        if not self.state.can_see(self.user, channel):
            raise SlashError(f"{self.name} cannot see channel {channel.name or channel.id}")

    def _channel_of(self, message: Message) -> Channel:
        if not self.can_see(message):
            raise SlashError(f"{self.name} cannot see message {message.id}")
        return self.state.channels[message.channel_id]

    def _component(self, message: Message, label_or_custom_id: str) -> dict[str, Any]:
        self._channel_of(message)
        component = message.component(label_or_custom_id)
        if component.get("disabled"):
            raise SlashError(f"{label_or_custom_id!r} is disabled")
        return component
