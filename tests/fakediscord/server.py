"""A Discord-compatible HTTP API and gateway on 127.0.0.1, serving a `FakeState`.

Only what the bot uses: login, application commands, messages (with attachments), threads and
channels, DMs, interaction callbacks and follow-ups. Any other route answers Discord's 404 and is
recorded in `state.unknown_routes`. Errors look like Discord's (`{"message", "code"}`), and the
JSON content type is exactly `application/json` (discord.py parses nothing else).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import re
import secrets
import socket
import time
from typing import Any

from aiohttp import WSMsgType, web

from . import components_v2
from .snowflakes import number_snowflakes
from .state import (
    APPLICATION_COMMAND,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EPHEMERAL,
    LOADING,
    MANAGE_CHANNELS,
    MODAL_SUBMIT,
    PRIVATE_THREAD,
    PRIVILEGED_INTENTS,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    TEXT,
    ApiError,
    Attachment,
    Channel,
    FakeState,
    Identify,
    Interaction,
    Message,
    Request,
    invalid_form,
    iso,
    iter_components,
    notified_users,
)

API = "/api/v10"
GATEWAY_PATH = "/gateway"
HEARTBEAT_INTERVAL_MS = 41250
# Flags a bot may set when sending: suppress embeds, suppress notifications, components v2.
SUPPRESS_NOTIFICATIONS = 1 << 12  # "@silent": the message notifies nobody
SENDABLE_FLAGS = (1 << 2) | SUPPRESS_NOTIFICATIONS | (1 << 15)
COMPONENTS_V2 = 1 << 15
BODY = web.RequestKey("body", object)  # the parsed request body, for the request record


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None):
    headers = {"Content-Type": "application/json", "Via": "1.1 fakediscord", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=headers)


def major_parameter(match: web.UrlMappingMatchInfo) -> str:
    """What Discord keys a route's bucket by besides the route: its channel, guild or webhook."""
    for name in ("channel_id", "guild_id", "webhook_id"):
        if name in match:
            return match[name]
    return ""


# -- message bodies ----------------------------------------------------------------------------


async def read_body(request: web.Request) -> tuple[dict[str, Any], dict[int, Attachment]]:
    """The JSON payload and the uploaded files (by index) of a JSON or multipart request."""
    files: dict[int, Attachment] = {}
    payload: Any = {}
    if request.content_type.startswith("multipart/"):
        reader = await request.multipart()
        async for part in reader:
            name = part.name or ""
            if name == "payload_json":
                payload = json.loads(await part.text())  # type: ignore[union-attr]
            elif m := re.fullmatch(r"files\[(\d+)\]", name):
                content = bytes(await part.read())  # type: ignore[union-attr]
                ctype = part.headers.get("Content-Type", "application/octet-stream")
                files[int(m[1])] = Attachment(0, part.filename or "file", content, ctype)
    elif request.can_read_body:
        payload = await request.json()
    request[BODY] = payload
    return payload if payload is not None else {}, files


def message_fields(
    state: FakeState,
    payload: dict[str, Any],
    files: dict[int, Attachment],
    existing: Message | None = None,
) -> dict[str, Any]:
    """The Message fields a create or edit payload sets."""
    fields: dict[str, Any] = {}
    if existing is not None and payload.get("flags") is not None:
        was_v2 = bool(existing.flags & COMPONENTS_V2)
        components_v2.check_flag_change(was_v2, bool(int(payload["flags"]) & COMPONENTS_V2))
    if "content" in payload:
        fields["content"] = payload["content"] or ""
    if "embeds" in payload:
        fields["embeds"] = payload["embeds"] or []
    if "components" in payload:
        fields["components"] = payload["components"] or []
    kept = {a.id: a for a in existing.attachments} if existing else {}
    if payload.get("attachments") is not None:
        attachments = []
        for item in payload["attachments"]:
            ref = int(item["id"])
            if ref in files:
                upload = files.pop(ref)
                attachments.append(
                    dataclasses.replace(
                        upload,
                        id=state.snowflake(),
                        filename=item.get("filename") or upload.filename,
                        description=item.get("description"),
                    )
                )
            elif ref in kept:
                attachments.append(kept[ref])
            else:
                raise invalid_form(f"attachments: unknown attachment id {ref}")
        fields["attachments"] = attachments
    if files:
        new = [dataclasses.replace(f, id=state.snowflake()) for _, f in sorted(files.items())]
        fields["attachments"] = fields.get("attachments", list(kept.values())) + new
    return fields


def _check_length(value: Any, limit: int, what: str) -> None:
    if value is not None and len(str(value)) > limit:
        raise invalid_form(f"{what}: must be {limit} or fewer in length")


def validate_embeds(embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > 10:
        raise invalid_form("embeds: at most 10")
    total = 0
    for e in embeds:
        texts = [
            (e.get("title"), 256, "embed title"),
            (e.get("description"), 4096, "embed description"),
            (e.get("footer", {}).get("text"), 2048, "embed footer text"),
            (e.get("author", {}).get("name"), 256, "embed author name"),
        ]
        fields = e.get("fields", [])
        if len(fields) > 25:
            raise invalid_form("embed fields: at most 25")
        for f in fields:
            texts += [(f.get("name"), 256, "embed field name"), (f.get("value"), 1024, "field")]
            if not f.get("name") or not f.get("value"):
                raise invalid_form("embed fields: name and value are required")
        for value, limit, what in texts:
            _check_length(value, limit, what)
            total += len(value or "")
    if total > 6000:
        raise invalid_form("embeds: more than 6000 characters in all")


def validate_components(components: list[dict[str, Any]], v2: bool) -> None:
    if not v2:
        if len(components) > 5:
            raise invalid_form("components: at most 5 action rows")
        if any(row.get("type") != 1 for row in components):
            raise invalid_form("components: top-level components must be action rows")
    custom_ids: set[str] = set()
    for c in iter_components(components):
        kind = c.get("type")
        if "custom_id" in c:
            custom_id = c["custom_id"]
            if not 1 <= len(custom_id) <= 100:
                raise invalid_form(f"custom_id {custom_id!r}: must be 1 to 100 characters")
            if custom_id in custom_ids:
                raise invalid_form(f"custom_id {custom_id!r}: must be unique in a message")
            custom_ids.add(custom_id)
        if kind == 1:
            children = c.get("components", [])
            if not 1 <= len(children) <= 5:
                raise invalid_form("action row: 1 to 5 components")
            if len(children) > 1 and any(ch.get("type") != 2 for ch in children):
                raise invalid_form("action row: a select menu must be alone in its row")
        elif kind == 2:
            _check_length(c.get("label"), 80, "button label")
            if c.get("style") == 5:
                if not c.get("url") or "custom_id" in c:
                    raise invalid_form("link button: needs a url and no custom_id")
            elif "custom_id" not in c and c.get("style") != 6:
                raise invalid_form("button: custom_id is required")
            if not c.get("label") and not c.get("emoji"):
                raise invalid_form("button: needs a label or an emoji")
        elif kind == 3:
            options = c.get("options", [])
            if not 1 <= len(options) <= 25:
                raise invalid_form("select menu: 1 to 25 options")
            for o in options:
                _check_length(o.get("label"), 100, "select option label")
                _check_length(o.get("value"), 100, "select option value")
                _check_length(o.get("description"), 100, "select option description")
            if len({o.get("value") for o in options}) != len(options):
                raise invalid_form("select menu: option values must be unique")
            lo, hi = c.get("min_values", 1), c.get("max_values", 1)
            if not 0 <= lo <= hi <= len(options):
                raise invalid_form("select menu: min_values/max_values out of range")
        if kind in (3, 5, 6, 7, 8):
            if "custom_id" not in c:
                raise invalid_form("select menu: custom_id is required")
            _check_length(c.get("placeholder"), 150, "select placeholder")


def validate_message(message: Message) -> None:
    v2 = bool(message.flags & COMPONENTS_V2)
    _check_length(message.content, 2000, "content")
    validate_embeds(message.embeds)
    components_v2.check_message(message.content, message.embeds, v2)
    validate_components(message.components, v2)
    components_v2.check_layout(message.components, v2)
    if not (
        message.content
        or message.embeds
        or message.attachments
        or message.components
        or message.loading
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def edit_message(state: FakeState, message: Message, fields: dict[str, Any]) -> Message:
    candidate = dataclasses.replace(message, **fields)
    candidate.flags &= ~LOADING
    validate_message(candidate)
    for name, value in fields.items():
        setattr(message, name, value)
    message.flags &= ~LOADING
    message.edited_at = time.time()
    message.edits += 1
    message.keep_version()
    state.touch(message.channel_id)
    state.dispatch_message("MESSAGE_UPDATE", message)
    return message


def new_message(
    state: FakeState,
    channel: Channel,
    fields: dict[str, Any],
    allowed_mentions: dict[str, Any] | None,
    **extra: Any,
) -> Message:
    """Post the bot's message; `allowed_mentions` as the request sent it (None: absent)."""
    candidate = Message(0, channel.id, state.bot, **fields, **extra)
    validate_message(candidate)
    notified = frozenset[int]()
    silent = extra.get("flags", 0) & SUPPRESS_NOTIFICATIONS
    if extra.get("ephemeral_for") is None and not silent:  # ephemeral, "@silent": nobody
        # A laid-out message's text displays notify like content does (Components V2).
        texts = [c.get("content", "") for c in iter_components(fields.get("components") or [])]
        shown = "\n".join([fields.get("content", ""), *(t for t in texts if t)])
        notified = notified_users(shown, allowed_mentions)
    return state.post(channel, state.bot, **fields, notified=notified, **extra)


# -- application commands ----------------------------------------------------------------------

NAME_RE = re.compile(r"^[-_\w]{1,32}$")


def validate_command(command: dict[str, Any]) -> None:
    name = command.get("name", "")
    if not NAME_RE.match(name) or name != name.lower():
        raise invalid_form(f"command name {name!r}: 1-32 lowercase letters, digits, - or _")
    if command.get("type", 1) == 1:
        if not 1 <= len(command.get("description", "")) <= 100:
            raise invalid_form(f"/{name}: description must be 1 to 100 characters")
        validate_options(command.get("options", []), f"/{name}")


def validate_options(options: list[dict[str, Any]], where: str) -> None:
    if len(options) > 25:
        raise invalid_form(f"{where}: at most 25 options")
    names = [o.get("name", "") for o in options]
    if len(set(names)) != len(names):
        raise invalid_form(f"{where}: option names must be unique")
    required_seen_optional = False
    for o in options:
        name = o.get("name", "")
        if not NAME_RE.match(name) or name != name.lower():
            raise invalid_form(f"{where}: bad option name {name!r}")
        if not 1 <= len(o.get("description", "")) <= 100:
            raise invalid_form(f"{where} {name}: description must be 1 to 100 characters")
        if len(o.get("choices") or []) > 25:
            raise invalid_form(f"{where} {name}: at most 25 choices")
        if o.get("type") in (1, 2):
            validate_options(o.get("options", []), f"{where} {name}")
        elif o.get("required"):
            if required_seen_optional:
                raise invalid_form(f"{where}: required options must come before optional ones")
        else:
            required_seen_optional = True


# -- gateway -----------------------------------------------------------------------------------


class GatewaySession:
    """One bot connection: HELLO, IDENTIFY → READY + GUILD_CREATE, heartbeats, dispatches."""

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse) -> None:
        self.fake, self.state, self.ws = fake, fake.state, ws
        self.intents = 0
        self.ready = False
        self.seq = 0
        self.session_id = secrets.token_hex(16)
        self.shard = (0, 1)  # [shard id, shard count] of its IDENTIFY
        self._out: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(self, op: int, d: Any, t: str | None = None) -> None:
        frame = {"op": op, "d": d, "s": None, "t": t}
        if op == 0:
            self.seq += 1
            frame["s"] = self.seq
        self._out.put_nowait(frame)

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.send(0, data, event)

    async def _writer(self) -> None:
        while True:
            frame = await self._out.get()
            await self.ws.send_str(json.dumps(frame))

    async def run(self) -> None:
        writer = asyncio.create_task(self._writer())
        self.send(10, {"heartbeat_interval": HEARTBEAT_INTERVAL_MS})
        try:
            async for msg in self.ws:
                if msg.type == WSMsgType.TEXT:
                    await self.receive(json.loads(msg.data))
                    self.state.changed()
        finally:
            writer.cancel()
            self.ready = False
            self.state.detach(self)
            self.state.changed()

    async def receive(self, msg: dict[str, Any]) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:  # heartbeat
            self.send(11, None)
        elif op == 2:  # identify
            await self.identify(d or {})
        elif op == 6:  # resume: sessions are not kept, so start afresh
            self.send(9, False)

    async def identify(self, d: dict[str, Any]) -> None:
        state = self.state
        token_ok = d.get("token") == state.token
        intents = int(d.get("intents", 0))
        state.identifies.append(
            Identify(intents, d.get("properties", {}), d.get("shard"), token_ok)
        )
        if not token_ok:
            await self.ws.close(code=4004, message=b"Authentication failed.")
            return
        if intents & PRIVILEGED_INTENTS:
            await self.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = d.get("shard") or [0, 1]
        if not (isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]):
            await self.ws.close(code=4010, message=b"Invalid shard.")
            return
        identify = state.identifies[-1]
        spacing, starts = state.identify_spacing, state.session_starts
        if spacing is not None and starts and identify.at - starts[-1].at < spacing:
            state.refused_identifies.append(identify)
            self.send(9, False)  # Discord: too soon after the last session start
            return
        starts.append(identify)
        self.shard = (int(shard[0]), int(shard[1]))
        self.intents = intents
        self.ready = True
        state.attach(self)
        guilds = state.guilds_of_shard(*self.shard)
        user = state.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}
        self.dispatch(
            "READY",
            {
                "v": 10,
                "user": user,
                "guilds": [{"id": str(g), "unavailable": True} for g in guilds],
                "session_id": self.session_id,
                "session_type": "normal",
                "resume_gateway_url": self.fake.gateway_url,
                "application": {"id": str(state.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "user_settings": {},
                "shard": list(self.shard),
            },
        )
        for guild_id in guilds:  # only the guilds of this connection's shard
            self.dispatch("GUILD_CREATE", state.guild_payload(guild_id))
        state.ready_count += 1


# -- REST --------------------------------------------------------------------------------------


class Api:
    """The REST handlers. Each returns a JSON-able value (200), None (204) or a Response."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.state = fake.state

    @web.middleware
    async def middleware(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not request.path.startswith(API + "/"):
            return await handler(request)
        state = self.state
        match = request.match_info
        unknown = match.route.name == "unknown"
        resource = match.route.resource
        template = resource.canonical if resource is not None else request.path
        route = f"{request.method} {(request.path if unknown else template)[len(API) :]}"
        webhook = route.split(" ", 1)[1].startswith(("/interactions/", "/webhooks/"))
        limits = state.rate_limits if not (webhook or unknown) else None
        bucket = f"{route}:{major_parameter(match)}"
        try:
            if unknown:
                raise ApiError(404, 0, "404: Not Found")
            if not webhook and request.headers.get("Authorization") != f"Bot {state.token}":
                raise ApiError(401, 0, "401: Unauthorized")
            if state.in_transit is not None and not (webhook or unknown):
                await state.in_transit.wait()  # they arrive together, then are counted
            limited = limits.check(bucket) if limits is not None else None
            fault = None if limited is not None else state.take_fault(route)
            if limited is not None:
                response = json_response(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": round(limited.retry_after, 3),
                        "global": limited.scope == "global",
                    },
                    429,
                    {
                        **limited.headers,
                        "Retry-After": f"{limited.retry_after:.3f}",
                        "X-RateLimit-Scope": limited.scope,
                    },
                )
            elif fault is not None and fault.status == 429:
                response = json_response(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": fault.retry_after,
                        "global": False,
                    },
                    429,
                    {"Retry-After": str(fault.retry_after), "X-RateLimit-Scope": "user"},
                )
            elif fault is not None:
                response = json_response(
                    {"message": f"{fault.status}: Internal Server Error", "code": 0}, fault.status
                )
            else:
                result = await handler(request)
                if isinstance(result, web.StreamResponse):
                    response = result
                elif result is None:
                    response = web.Response(status=204, headers={"Via": "1.1 fakediscord"})
                else:
                    response = json_response(result)
        except ApiError as error:
            response = json_response(error.body(), error.status)
        if limits is not None and response.status != 429:
            response.headers.update(limits.headers(bucket))
        record = Request(request.method, route, request.path, response.status, request.get(BODY))
        state.requests.append(record)
        state.schema_problems += [f"{record}: {p}" for p in number_snowflakes(record.body)]
        if unknown:
            state.unknown_routes.append(record)
        state.changed()
        return response

    # login

    async def get_me(self, request: web.Request) -> Any:
        return self.state.bot.payload() | {"verified": True, "mfa_enabled": False, "flags": 0}

    async def get_application(self, request: web.Request) -> Any:
        state = self.state
        return {
            "id": str(state.application_id),
            "name": "Kamiza",
            "icon": None,
            "description": "",
            "summary": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": state.owner.payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "rpc_origins": [],
            "bot": state.bot.payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
        }

    # application commands

    def _check_application(self, request: web.Request) -> None:
        if request.match_info["application_id"] != str(self.state.application_id):
            raise ApiError(404, 10002, "Unknown Application")

    async def put_commands(self, request: web.Request) -> Any:
        self._check_application(request)
        state = self.state
        guild_id = request.match_info.get("guild_id")
        if guild_id is not None and int(guild_id) not in state.guild_names:
            raise ApiError(403, 50001, "Missing Access")
        payload = await request.json()
        request[BODY] = payload
        if not isinstance(payload, list) or len(payload) > 100:
            raise invalid_form("a list of at most 100 commands")
        old = state.guild_commands.get(int(guild_id)) if guild_id else state.global_commands
        old_ids = {(c["name"], c.get("type", 1)): c["id"] for c in old or []}
        commands = []
        for command in payload:
            validate_command(command)
            key = (command["name"], command.get("type", 1))
            if sum(1 for c in payload if (c["name"], c.get("type", 1)) == key) > 1:
                raise invalid_form(f"command /{command['name']} registered twice")
            permissions = command.get("default_member_permissions")
            commands.append(
                {
                    "type": 1,
                    "nsfw": False,
                    "options": [],
                    **command,
                    "default_member_permissions": None if permissions is None else str(permissions),
                    "id": old_ids.get(key) or str(state.snowflake()),
                    "application_id": str(state.application_id),
                    "version": str(state.snowflake()),
                    **({"guild_id": guild_id} if guild_id else {}),
                }
            )
        if guild_id:
            state.guild_commands[int(guild_id)] = commands
        else:
            state.global_commands = commands
        route = f"PUT {request.path[len(API) :]}"
        state.command_overwrites.append(Request("PUT", route, request.path, 200, payload))
        return commands

    async def get_commands(self, request: web.Request) -> Any:
        self._check_application(request)
        guild_id = request.match_info.get("guild_id")
        if guild_id:
            return self.state.guild_commands.get(int(guild_id), [])
        return self.state.global_commands

    # users, members, DMs

    def _user(self, user_id: str) -> Any:
        if user_id == "@me":
            return self.state.bot
        user = self.state.users.get(int(user_id))
        if user is None:
            raise ApiError(404, 10013, "Unknown User")
        return user

    async def get_user(self, request: web.Request) -> Any:
        return self._user(request.match_info["user_id"]).payload()

    async def get_member(self, request: web.Request) -> Any:
        state = self.state
        state.known_guild(request.match_info["guild_id"])
        user = self._user(request.match_info["user_id"])
        if user.id not in state.members:
            raise ApiError(404, 10007, "Unknown Member")
        return state.member_payload(user)

    async def create_dm(self, request: web.Request) -> Any:
        payload, _ = await read_body(request)
        user = self.state.users.get(int(payload.get("recipient_id", 0)))
        if user is None or user.bot:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        channel = self.state.dm_channel(user)
        assert channel is not None
        return channel.payload()

    # channels and threads

    def _require(self, permission: int) -> None:
        if not self.state.member_permissions(self.state.bot) & permission:
            raise ApiError(403, 50013, "Missing Permissions")

    def _channel_event(self, channel: Channel, verb: str) -> None:
        kind = "THREAD" if channel.is_thread else "CHANNEL"
        data = channel.payload()
        if verb == "CREATE" and channel.is_thread:
            data["newly_created"] = True
        self.state.dispatch(f"{kind}_{verb}", data)

    async def get_channel(self, request: web.Request) -> Any:
        return self.state.channel(request.match_info["channel_id"]).payload()

    async def edit_channel(self, request: web.Request) -> Any:
        channel = self.state.channel(request.match_info["channel_id"])
        payload, _ = await read_body(request)
        if "name" in payload:
            _check_length(payload["name"], 100, "name")
            channel.name = payload["name"]
        if channel.is_thread:
            for key in ("archived", "locked", "invitable", "auto_archive_duration"):
                if key in payload:
                    setattr(channel, key, payload[key])
        self._channel_event(channel, "UPDATE")
        return channel.payload()

    async def delete_channel(self, request: web.Request) -> Any:
        channel = self.state.channel(request.match_info["channel_id"])
        if channel.type == DM:
            return channel.payload()  # "closing" a DM deletes nothing
        if not channel.is_thread:
            self._require(MANAGE_CHANNELS)
        channel.deleted = True
        self._channel_event(channel, "DELETE")
        return channel.payload()

    async def create_guild_channel(self, request: web.Request) -> Any:
        state = self.state
        guild_id = state.known_guild(request.match_info["guild_id"])
        self._require(MANAGE_CHANNELS)
        payload, _ = await read_body(request)
        if payload.get("type", TEXT) != TEXT:
            raise invalid_form("the fake creates text channels only")
        channel = state.add_channel(payload["name"], guild_id=guild_id)
        channel.parent_id = int(payload["parent_id"]) if payload.get("parent_id") else None
        self._channel_event(channel, "CREATE")
        return channel.payload()

    def _new_thread(self, parent: Channel, payload: dict[str, Any], thread_id: int | None):
        state = self.state
        if parent.type != TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        kind = PUBLIC_THREAD if thread_id else payload.get("type", PRIVATE_THREAD)
        if kind not in (PUBLIC_THREAD, PRIVATE_THREAD):
            raise invalid_form("type: a thread type")
        self._require(CREATE_PUBLIC_THREADS if kind == PUBLIC_THREAD else CREATE_PRIVATE_THREADS)
        _check_length(payload.get("name"), 100, "name")
        if not payload.get("name"):
            raise invalid_form("name: required")
        thread = Channel(
            thread_id or state.snowflake(),
            kind,
            payload["name"],
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=state.bot.id,
            members={state.bot.id},
            invitable=payload.get("invitable", True),
            auto_archive_duration=payload.get("auto_archive_duration") or 1440,
        )
        state.channels[thread.id] = thread
        self._channel_event(thread, "CREATE")
        return thread.payload() | {
            "member": {"user_id": str(state.bot.id), "join_timestamp": iso(time.time()), "flags": 0}
        }

    async def create_thread(self, request: web.Request) -> Any:
        parent = self.state.channel(request.match_info["channel_id"])
        payload, _ = await read_body(request)
        return self._new_thread(parent, payload, None)

    async def create_thread_from_message(self, request: web.Request) -> Any:
        state = self.state
        parent = state.channel(request.match_info["channel_id"])
        message = state.message(parent, request.match_info["message_id"])
        if message.ephemeral or message.id in state.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        payload, _ = await read_body(request)
        return self._new_thread(parent, payload, message.id)  # a thread shares its message's id

    async def add_thread_member(self, request: web.Request) -> Any:
        thread = self.state.channel(request.match_info["channel_id"])
        if not thread.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        user = self._user(request.match_info["user_id"])
        if user.id not in self.state.members:
            raise ApiError(404, 10007, "Unknown Member")
        if thread.archived and thread.locked:
            raise ApiError(400, 50083, "Thread is archived")
        thread.members.add(user.id)
        return None

    async def remove_thread_member(self, request: web.Request) -> Any:
        thread = self.state.channel(request.match_info["channel_id"])
        thread.members.discard(self._user(request.match_info["user_id"]).id)
        return None

    # messages

    def _writable(self, channel: Channel) -> None:
        if channel.type == DM:
            assert channel.recipient is not None
            if not channel.recipient.dms_open:
                raise ApiError(403, 50007, "Cannot send messages to this user")
            return
        self._require(SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES)
        if channel.is_thread and channel.archived:
            if channel.locked:
                raise ApiError(400, 50083, "Thread is archived")
            channel.archived = False  # a new message unarchives an unlocked thread
            self._channel_event(channel, "UPDATE")

    async def create_message(self, request: web.Request) -> Any:
        state = self.state
        channel = state.channel(request.match_info["channel_id"])
        payload, files = await read_body(request)
        self._writable(channel)
        fields = message_fields(state, payload, files)
        if fields.get("attachments"):
            self._require(ATTACH_FILES)
        reference = (payload.get("message_reference") or {}).get("message_id")
        message = new_message(
            state,
            channel,
            fields,
            payload.get("allowed_mentions"),
            flags=int(payload.get("flags") or 0) & SENDABLE_FLAGS,
            type=19 if reference else 0,
            reference_id=int(reference) if reference else None,
        )
        return message.payload(state)

    async def list_messages(self, request: web.Request) -> Any:
        state = self.state
        channel = state.channel(request.match_info["channel_id"])
        found = [m for m in state.channel_messages(channel) if not m.ephemeral]
        if "before" in request.query:
            found = [m for m in found if m.id < int(request.query["before"])]
        if "after" in request.query:
            found = [m for m in found if m.id > int(request.query["after"])]
            found = found[: int(request.query.get("limit", 50))]
        else:
            found = found[-int(request.query.get("limit", 50)) :]
        return [m.payload(state) for m in reversed(found)]

    def _channel_message(self, request: web.Request) -> Message:
        channel = self.state.channel(request.match_info["channel_id"])
        message = self.state.message(channel, request.match_info["message_id"])
        if message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def get_message(self, request: web.Request) -> Any:
        return self._channel_message(request).payload(self.state)

    async def edit_channel_message(self, request: web.Request) -> Any:
        message = self._channel_message(request)
        if message.author is not self.state.bot:
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        payload, files = await read_body(request)
        fields = message_fields(self.state, payload, files, message)
        return edit_message(self.state, message, fields).payload(self.state)

    async def delete_channel_message(self, request: web.Request) -> Any:
        message = self._channel_message(request)
        message.deleted = True
        self.state.touch(message.channel_id)
        self.state.dispatch_message("MESSAGE_DELETE", message)
        return None

    # interactions

    async def interaction_callback(self, request: web.Request) -> Any:
        state = self.state
        token = request.match_info["token"]
        interaction = state.interaction_tokens.get(token)
        if interaction is not None and str(interaction.id) != request.match_info["interaction_id"]:
            interaction = None
        if interaction is None:
            raise ApiError(404, 10062, "Unknown interaction")
        payload, files = await read_body(request)
        now = time.monotonic()
        if interaction.answered:
            raise ApiError(400, 40060, "Interaction has already been acknowledged.")
        if now - interaction.sent_at > state.interaction_deadline:
            interaction.late_callbacks.append(now - interaction.sent_at)
            state.touch(interaction.id)
            raise ApiError(404, 10062, "Unknown interaction")
        kind = payload.get("type")
        data = payload.get("data") or {}
        channel = state.channels[interaction.channel_id]
        ephemeral_for = interaction.user.id if int(data.get("flags") or 0) & EPHEMERAL else None
        message: Message | None = None
        if kind == 4:  # channel message
            message = new_message(
                state,
                channel,
                message_fields(state, data, files),
                data.get("allowed_mentions"),
                flags=int(data.get("flags") or 0) & (SENDABLE_FLAGS | EPHEMERAL),
                ephemeral_for=ephemeral_for,
                interaction=interaction,
                type=20 if interaction.type == APPLICATION_COMMAND else 0,
            )
        elif kind == 5:  # deferred channel message: "the bot is thinking"
            message = state.post(
                channel,
                state.bot,
                flags=LOADING | (EPHEMERAL if ephemeral_for else 0),
                ephemeral_for=ephemeral_for,
                interaction=interaction,
                type=20 if interaction.type == APPLICATION_COMMAND else 0,
            )
        elif kind in (6, 7):  # deferred update / update of the component's message
            if interaction.message is None:
                raise ApiError(400, 40004, "Interaction has no message to update")
            message = interaction.message
            if kind == 7:
                edit_message(state, message, message_fields(state, data, files, message))
        elif kind == 8:  # autocomplete result
            interaction.choices = data.get("choices", [])
        elif kind == 9:  # modal
            if interaction.type == MODAL_SUBMIT:
                raise ApiError(400, 40060, "A modal cannot answer a modal")
            if not data.get("custom_id") or not data.get("title") or not data.get("components"):
                raise invalid_form("modal: custom_id, title and components are required")
            interaction.modal = data
        else:
            raise invalid_form(f"type: unknown interaction callback type {kind!r}")
        interaction.answered_at = now
        interaction.callback_type = kind
        interaction.original = message
        state.touch(interaction.id)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        resource: dict[str, Any] = {"type": kind}
        if message is not None:
            resource["message"] = message.payload(state)
        return {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": None if message is None else str(message.id),
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": resource,
        }

    def _webhook_interaction(self, request: web.Request) -> Interaction:
        if request.match_info["application_id"] != str(self.state.application_id):
            raise ApiError(404, 10015, "Unknown Webhook")
        interaction = self.state.interaction_by_token(request.match_info["token"])
        if not interaction.answered:
            raise ApiError(404, 10015, "Unknown Webhook")  # follow-ups need a first answer
        return interaction

    def _webhook_message(self, request: web.Request) -> tuple[Interaction, Message]:
        interaction = self._webhook_interaction(request)
        ref = request.match_info["message_id"]
        if ref == "@original":
            message = interaction.original
        else:
            message = next((m for m in interaction.messages() if str(m.id) == ref), None)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        return interaction, message

    async def create_followup(self, request: web.Request) -> Any:
        state = self.state
        interaction = self._webhook_interaction(request)
        payload, files = await read_body(request)
        fields = message_fields(state, payload, files)
        original = interaction.original
        if original is not None and original.loading and interaction.callback_type == 5:
            message = edit_message(state, original, fields)  # the first follow-up fills it
        else:
            flags = int(payload.get("flags") or 0)
            message = new_message(
                state,
                state.channels[interaction.channel_id],
                fields,
                payload.get("allowed_mentions"),
                flags=flags & (SENDABLE_FLAGS | EPHEMERAL),
                ephemeral_for=interaction.user.id if flags & EPHEMERAL else None,
                interaction=interaction,
            )
            interaction.followups.append(message)
        if request.query.get("wait") in ("1", "true", "True"):
            return message.payload(state)
        return None

    async def get_webhook_message(self, request: web.Request) -> Any:
        return self._webhook_message(request)[1].payload(self.state)

    async def edit_webhook_message(self, request: web.Request) -> Any:
        _, message = self._webhook_message(request)
        payload, files = await read_body(request)
        fields = message_fields(self.state, payload, files, message)
        return edit_message(self.state, message, fields).payload(self.state)

    async def delete_webhook_message(self, request: web.Request) -> Any:
        _, message = self._webhook_message(request)
        message.deleted = True
        self.state.touch(message.channel_id)
        self.state.dispatch_message("MESSAGE_DELETE", message)
        return None

    # outside the API: the gateway and attachment downloads

    async def gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = GatewaySession(self.fake, ws)
        self.fake.sessions.add(session)
        try:
            await session.run()
        finally:
            self.fake.sessions.discard(session)
        return ws

    async def attachment(self, request: web.Request) -> web.StreamResponse:
        for message in self.state.messages.values():
            for a in message.attachments:
                if str(a.id) == request.match_info["attachment_id"]:
                    return web.Response(body=a.content, content_type=a.content_type)
        raise web.HTTPNotFound()

    async def unknown(self, request: web.Request) -> Any:
        raise ApiError(404, 0, "404: Not Found")  # the middleware records it


def build_app(fake: FakeDiscord) -> web.Application:
    api = Api(fake)
    app = web.Application(middlewares=[api.middleware])
    r = app.router
    r.add_get(GATEWAY_PATH, api.gateway)
    r.add_get("/attachments/{attachment_id}/{filename}", api.attachment)
    A, C = "/applications/{application_id}", "/channels/{channel_id}"
    W = "/webhooks/{application_id}/{token}"
    routes = [
        ("GET", "/users/@me", api.get_me),
        ("GET", "/oauth2/applications/@me", api.get_application),
        ("PUT", A + "/commands", api.put_commands),
        ("GET", A + "/commands", api.get_commands),
        ("PUT", A + "/guilds/{guild_id}/commands", api.put_commands),
        ("GET", A + "/guilds/{guild_id}/commands", api.get_commands),
        ("POST", "/users/@me/channels", api.create_dm),
        ("GET", "/users/{user_id}", api.get_user),
        ("GET", "/guilds/{guild_id}/members/{user_id}", api.get_member),
        ("POST", "/guilds/{guild_id}/channels", api.create_guild_channel),
        ("GET", C, api.get_channel),
        ("PATCH", C, api.edit_channel),
        ("DELETE", C, api.delete_channel),
        ("POST", C + "/threads", api.create_thread),
        ("POST", C + "/messages/{message_id}/threads", api.create_thread_from_message),
        ("PUT", C + "/thread-members/{user_id}", api.add_thread_member),
        ("DELETE", C + "/thread-members/{user_id}", api.remove_thread_member),
        ("GET", C + "/messages", api.list_messages),
        ("POST", C + "/messages", api.create_message),
        ("GET", C + "/messages/{message_id}", api.get_message),
        ("PATCH", C + "/messages/{message_id}", api.edit_channel_message),
        ("DELETE", C + "/messages/{message_id}", api.delete_channel_message),
        ("POST", "/interactions/{interaction_id}/{token}/callback", api.interaction_callback),
        ("POST", W, api.create_followup),
        ("GET", W + "/messages/{message_id}", api.get_webhook_message),
        ("PATCH", W + "/messages/{message_id}", api.edit_webhook_message),
        ("DELETE", W + "/messages/{message_id}", api.delete_webhook_message),
    ]  # fmt: skip
    for method, path, handler in routes:
        r.add_route(method, API + path, handler)
    r.add_route("*", API + "/{tail:.*}", api.unknown, name="unknown")
    return app


class FakeDiscord:
    """The fake Discord server: `async with FakeDiscord() as fake:` or start()/close()."""

    def __init__(self, state: FakeState | None = None) -> None:
        self.state = state or FakeState()
        self.sessions: set[GatewaySession] = set()
        self.port = 0
        self._runner: web.AppRunner | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """For DISCORD_API_BASE (discord.http.Route.BASE)."""
        return self.base_url + API

    @property
    def gateway_url(self) -> str:
        """For DISCORD_GATEWAY_URL (discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)."""
        return f"ws://127.0.0.1:{self.port}{GATEWAY_PATH}"

    async def start(self) -> FakeDiscord:
        self._runner = web.AppRunner(build_app(self), access_log=None, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.state.base_url = self.base_url
        return self

    async def disconnect_bot(self, code: int = 1000) -> None:
        """Close every gateway connection (the bot will reconnect)."""
        for session in list(self.sessions):
            with contextlib.suppress(ConnectionError):
                await session.ws.close(code=code)

    async def close(self) -> None:
        await self.disconnect_bot(1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.close()
