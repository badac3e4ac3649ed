"""Chaos for end-to-end tests: a crowd clicking whatever it sees while the bot is killed with -9.

    chaos = Chaos(state, bot_process, crowd, tables, random.Random(seed))
    await chaos.run(seconds=30, kills=3)      # monkeys, slash commands, double clicks, kill -9
    await chaos.finish(deadline)              # seated members play properly until every game ends
    chaos.late_answers(), chaos.watcher.problems, all_games(db) ...

Nothing here knows a game's rules: members click the components Discord would show them (public
messages and their own ephemerals), choose random options in selects (within min/max values) and
run random slash commands. `Watcher` looks at every message the moment it is posted or edited:
no private menu in a public message, no face-down KAMIZA card shown before the reveal, and the
card numbers each public Kobayakawa message showed (`kobayakawa_public_cards` says which the
rules make public).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import sqlite3
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot_process import BotProcess
from fakediscord import FakeUser
from fakediscord.driver import SlashError
from fakediscord.state import DM, Channel, FakeState, Interaction, Message
from table_play import whose_turn

from bot.i18n import LANGUAGES, t
from rules.log import apply_entry, start

# Custom id verbs of private menus (ephemeral only): a public message carrying one shows a hand.
PRIVATE_VERBS = re.compile(r"^(g:(kz[bchp]|kb[a-z]|rl[a-z]+|cancel_yes)|s:rl[a-z]*):")
# Verbs that only show the menu again: a member playing properly does not go round in circles.
REFRESH_VERBS = ("g:kzh:", "g:kbh:", "g:rlh:")
NOT_FORWARD = (*REFRESH_VERBS, "g:dm:")  # nor the hand menu's toggle: hands by DM
HAND_VERB = "g:hand:"
# The KAMIZA table embed (not the reveal), in both languages.
KAMIZA_TABLE_TITLE = re.compile(
    r"^(KAMIZA · Game \d/3 · Round \d/3|上座 · 第\dゲーム/3 · 第\dラウンド/3)"
)
FACE_DOWN = "🂠"
# The laid-out KAMIZA table: its blocks' titles and a seat's "has played" mark, in both languages.
KAMIZA_AREAS = {
    f"**{t(lang, f'kamiza.table.area_{a}')}**" for lang in LANGUAGES for a in ("kamiza", "shimoza")
}
KAMIZA_SEATS = {f"**{t(lang, 'kamiza.table.seats')}**" for lang in LANGUAGES}
KAMIZA_PLAYED = tuple(t(lang, "kamiza.table.played", card="") for lang in LANGUAGES)
# A Kobayakawa round's public messages (the table, the showdown) and the cards they show.
KOBAYAKAWA_ROUND = re.compile(
    r"^(?:Kobayakawa · Round (\d+)/7|小早川 · 第(\d+)/7ラウンド|Round (\d+) · |第(\d+)ラウンド · )"
)
KOBAYAKAWA_CARD = re.compile(r"🎴 \*\*(\d+)\*\*")
GROUPS = {"kamiza": "kamiza", "kobayakawa": "kobayakawa", "rights-of-losers": "losers"}
ENDED = ("finished", "cancelled", "abandoned")


@dataclass
class TableUnderTest:
    """A table the test opened: where it lives, its game, the members seated at it."""

    game: str  # "kamiza", "kobayakawa", "rights-of-losers"
    home: Channel
    seated: dict[int, FakeUser]
    advanced: bool = False
    game_id: int | None = None


@dataclass
class Sent:
    """One interaction the crowd sent, and what it was."""

    interaction: Interaction
    user: FakeUser
    what: str
    start: int  # the bot process's start number when it was sent


@dataclass
class Outage:
    killed_at: float  # time.monotonic()
    killed_wall: float  # time.time(), to compare with messages' created_at
    up_at: float | None = None


# -- the ledger ------------------------------------------------------------------------------------


def all_games(db_path) -> list[dict[str, Any]]:
    """Every game in the ledger file: id, game, status, home, log, stored scores and winners."""
    con = sqlite3.connect(db_path)
    try:
        rows = con.execute(
            "SELECT id, game, status, header, channel_id, thread_id, end_reason, ended_at"
            " FROM games"
        ).fetchall()
        games = []
        for gid, game, status, header, channel_id, thread_id, reason, ended_at in rows:
            actions = [
                json.loads(a)
                for (a,) in con.execute(
                    "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (gid,)
                )
            ]
            results = con.execute(
                "SELECT player, score, winner FROM results WHERE game_id = ?", (gid,)
            ).fetchall()
            games.append(
                {
                    "id": gid,
                    "game": game,
                    "status": status,
                    "reason": reason,
                    "ended_at": datetime.fromisoformat(ended_at).timestamp() if ended_at else None,
                    "home": thread_id or channel_id,
                    "log": {**json.loads(header), "actions": actions} if header else None,
                    "scores": {p: s for p, s, _ in results},
                    "winners": sorted(p for p, _, w in results if w),
                }
            )
    finally:
        con.close()
    return games


def game_statuses(db_path) -> dict[int, str]:
    con = sqlite3.connect(db_path)
    try:
        return dict(con.execute("SELECT id, status FROM games").fetchall())
    finally:
        con.close()


def kobayakawa_public_cards(log: dict[str, Any]) -> dict[int, set[int]]:
    """Per round, the cards the rules make public: the Kobayakawa (each replacement too, and the
    next round's, which the showdown announces), the discards, the revealed fighters' cards. The
    other cards of a round's deck (cards of players who passed, of a lone fighter, the pile under
    the draws) are never shown."""
    game = start({**log, "actions": []})
    public: dict[int, set[int]] = {}
    events = list(game.opening_events())
    for entry in log["actions"]:
        events += apply_entry(game, entry)
    current = 0
    for e in events:
        if e.kind == "round_started":
            public.setdefault(current, set()).add(e.kobayakawa)  # announced by the showdown
            current = e.round
            public.setdefault(current, set()).add(e.kobayakawa)
        elif e.kind == "kobayakawa_replaced":
            public[current].add(e.kobayakawa)
        elif e.kind == "drew":
            public[current].add(e.discarded)
        elif e.kind == "showdown":
            public[current].update(e.cards.values())
    return public


# -- what a member can do with a message ----------------------------------------------------------


def usable(message: Message) -> list[dict[str, Any]]:
    """The enabled buttons (with a custom id) and string selects of a message."""
    found = []
    for c in message.all_components():
        if c.get("disabled") or "custom_id" not in c:
            continue
        if c.get("type") == 2 or (c.get("type") == 3 and c.get("options")):
            found.append(c)
    return found


def hand_button(message: Message) -> dict[str, Any] | None:
    return next(
        (b for b in message.buttons() if b.get("custom_id", "").startswith(HAND_VERB)), None
    )


def press(user: FakeUser, message: Message, verb: str, wait: bool = True):
    """Click the button whose custom id has this verb (`g:<verb>:...`), in any language."""
    button = next(b for b in message.buttons() if b.get("custom_id", "").startswith(f"g:{verb}:"))
    return user.click(message, button["custom_id"], wait=wait)


def table_message(state: FakeState, home: Channel) -> Message | None:
    """The newest public message with a "Your hand" button in the table's home."""
    for message in reversed(state.messages_in.get(home.id, ())):
        if not message.ephemeral and not message.deleted and hand_button(message):
            return message
    return None


async def quiet(state: FakeState, seconds: float = 1.0, limit: float = 10.0) -> None:
    """Wait until the bot made no request for `seconds` (its outboxes are done)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        count = len(state.requests)
        await asyncio.sleep(seconds)
        if len(state.requests) == count:
            return


# -- watching every message ---------------------------------------------------------------------


class Watcher:
    """Inspects each message when it is posted or edited (hooked on `FakeState.touch`)."""

    def __init__(self, state: FakeState, advanced_homes: set[int]) -> None:
        self.state = state
        self.advanced_homes = advanced_homes
        self.problems: list[str] = []
        self.inspected = 0
        self.kamiza_tables_seen = 0
        # (channel id, round) -> every card number a public Kobayakawa message of it ever showed
        self.kobayakawa_shown: dict[tuple[int, int], set[int]] = {}
        self._seen: dict[int, int] = {}
        self._index: dict[int, int] = {}
        self._recent: dict[int, deque[Message]] = {}  # the newest messages of each channel
        self._public: dict[int, list[Message]] = {}  # the bot's public messages, by channel
        self.ephemerals: dict[int, deque[Message]] = {}  # by user id, newest last
        touch = state.touch

        def watched_touch(topic: object) -> None:
            touch(topic)
            if isinstance(topic, int) and topic in state.channels:
                self._scan(topic)

        state.touch = watched_touch  # type: ignore[method-assign]

    def _scan(self, channel_id: int) -> None:
        """Inspect what is new or edited in a channel (posts and edits touch their channel)."""
        messages = self.state.messages_in.get(channel_id, [])
        recent = self._recent.setdefault(channel_id, deque(maxlen=30))
        public = self._public.setdefault(channel_id, [])
        for message in messages[self._index.get(channel_id, 0) :]:
            recent.append(message)
            if message.ephemeral_for is not None:
                mine = self.ephemerals.setdefault(message.ephemeral_for, deque(maxlen=12))
                mine.append(message)
            elif message.author is self.state.bot:
                public.append(message)
        self._index[channel_id] = len(messages)
        for message in (*recent, *public):
            if self._seen.get(message.id) != message.edits:
                self._seen[message.id] = message.edits
                self._inspect(message)

    def _inspect(self, message: Message) -> None:
        self.inspected += 1
        where = f"message {message.id} in channel {message.channel_id}"
        if message.ephemeral_for is not None:
            owner = message.interaction.user.id if message.interaction else None
            if owner != message.ephemeral_for:
                self.problems.append(f"{where}: ephemeral for {message.ephemeral_for}, not {owner}")
        elif self.state.channels[message.channel_id].type != DM:  # a DM is private too
            for c in message.all_components():
                if PRIVATE_VERBS.match(c.get("custom_id", "")):
                    self.problems.append(f"{where}: public message with {c['custom_id']}")
        heading = message.text.split("\n", 1)[0]
        if KAMIZA_TABLE_TITLE.match(heading.removeprefix("### ")) and heading.startswith("### "):
            self.kamiza_tables_seen += 1
            self._check_laid_out_face_down(message, where)
        for embed in message.embeds:
            if KAMIZA_TABLE_TITLE.match(embed.get("title", "")):
                self.kamiza_tables_seen += 1
                self._check_face_down(message, embed, where)
            found = KOBAYAKAWA_ROUND.match(embed.get("title", ""))
            if found and message.ephemeral_for is None:
                number = int(next(g for g in found.groups() if g))
                shown = self.kobayakawa_shown.setdefault((message.channel_id, number), set())
                shown.update(int(n) for n in KOBAYAKAWA_CARD.findall(message.text))

    def _check_face_down(self, message: Message, embed: dict[str, Any], where: str) -> None:
        fields = embed.get("fields", [])
        if len(fields) < 3:
            self.problems.append(f"{where}: a KAMIZA table without its areas: {embed}")
            return
        start = next((row for row in fields[2]["value"].splitlines() if "⭐" in row), "")
        starter = re.split(r"[:：]", start, maxsplit=1)[0].strip()
        own = f"<@{message.ephemeral_for}>" if message.ephemeral_for else None
        advanced = message.channel_id in self.advanced_homes
        for area in fields[:2]:
            for line in area["value"].splitlines():
                if line.startswith(FACE_DOWN) or line == "—":
                    continue
                owner = line.rsplit(" · ", 1)[-1].strip()
                if owner == own or (advanced and starter and owner == starter):
                    continue
                visible = "publicly" if own is None else f"to <@{message.ephemeral_for}>"
                self.problems.append(f"{where}: face-up card shown {visible}: {line!r}")

    def _check_laid_out_face_down(self, message: Message, where: str) -> None:
        """The laid-out table (`bot.kamiza.boards`): each seat line (its "has played" card) and
        each area line shows a card face up only to its owner, or the advanced start player's."""
        shown: list[tuple[str, str]] = []  # (owner, the line showing their card)
        starter, block, areas = "", "", 0
        for line in message.text.splitlines():
            if line in KAMIZA_SEATS or line in KAMIZA_AREAS:
                block, areas = line, areas + (line in KAMIZA_AREAS)
                continue
            if line.startswith(("**", "-# ")):
                block = ""
            elif block in KAMIZA_SEATS:
                head, _, state = line.partition(" — ")
                owner = head.removesuffix(" ⭐").strip()
                starter = owner if head.endswith("⭐") else starter
                for mark in KAMIZA_PLAYED:
                    if mark in state and not state.split(mark, 1)[1].startswith(FACE_DOWN):
                        shown.append((owner, line))
            elif block in KAMIZA_AREAS and not (line.startswith(FACE_DOWN) or line == "—"):
                shown.append((line.rsplit(" · ", 1)[-1].strip(), line))
        if areas < 2:
            self.problems.append(f"{where}: a KAMIZA table without its areas: {message.text!r}")
        own = f"<@{message.ephemeral_for}>" if message.ephemeral_for else None
        advanced = message.channel_id in self.advanced_homes
        for owner, line in shown:
            if owner == own or (advanced and starter and owner == starter):
                continue
            visible = "publicly" if own is None else f"to <@{message.ephemeral_for}>"
            self.problems.append(f"{where}: face-up card shown {visible}: {line!r}")


# -- the crowd ----------------------------------------------------------------------------------


SLASH = (
    ("kamiza", "status"),
    ("kamiza", "hand"),
    ("kamiza", "cancel"),
    ("kamiza", "rules"),
    ("kamiza", "export"),
    ("kobayakawa", "status"),
    ("kobayakawa", "hand"),
    ("kobayakawa", "cancel"),
    ("kobayakawa", "rules"),
    ("kobayakawa", "export"),
    ("losers", "status"),
    ("losers", "hand"),
    ("losers", "cancel"),
    ("losers", "rules"),
    ("losers", "export"),
    ("leaderboard",),
    ("stats",),
    ("about",),
    ("settings",),
    ("season", "list"),
    ("newseason",),
)


@dataclass
class Chaos:
    state: FakeState
    bot: BotProcess
    crowd: list[FakeUser]
    tables: list[TableUnderTest]
    rng: Any  # random.Random
    watcher: Watcher = field(init=False)
    sent: list[Sent] = field(default_factory=list)
    outages: list[Outage] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # why an action was not sent
    starts_allowed: bool = True

    def __post_init__(self) -> None:
        self.watcher = Watcher(self.state, {t.home.id for t in self.tables if t.advanced})
        self._stop = asyncio.Event()

    # -- sending --------------------------------------------------------------------------------

    async def send(
        self, user: FakeUser, what: str, action: Callable[[], Awaitable[Interaction]]
    ) -> Interaction | None:
        """Send one interaction (not while the bot is down) and await its answer or 3 s."""
        found = await self.send_many(user, what, [action])
        return found[0] if found else None

    async def send_many(
        self, user: FakeUser, what: str, actions: list[Callable[[], Awaitable[Interaction]]]
    ) -> list[Interaction]:
        """Send several interactions at once (a double click), then await all the answers."""
        if not self.state.connected:
            self.skipped["bot down"] += 1
            return []
        sent = []
        for action in actions:
            try:
                interaction = await action()
            except RuntimeError:
                self.skipped["bot down"] += 1
                continue
            except (SlashError, LookupError) as exc:
                self.skipped[f"refused by Discord: {type(exc).__name__}"] += 1
                continue
            self.sent.append(Sent(interaction, user, what, self.bot.starts))
            sent.append(interaction)
        for interaction in sent:
            with contextlib.suppress(TimeoutError):
                await self.state.wait_for(
                    lambda i=interaction: i.answered or i.late_callbacks,
                    self.state.interaction_deadline + 0.3,
                    topic=interaction.id,
                )
        return sent

    async def use(
        self, user: FakeUser, message: Message, component: dict[str, Any], double: bool = False
    ) -> Interaction | None:
        """Click a button or choose random options in a select (twice at once if `double`)."""
        custom_id = component["custom_id"]
        if component.get("type") == 3:
            options = [o["value"] for o in component["options"]]
            low = component.get("min_values", 1)
            high = min(component.get("max_values", 1), len(options))
            values = self.rng.sample(options, self.rng.randint(low, high))

            def action() -> Awaitable[Interaction]:
                return user.select(message, custom_id, values, wait=False)

            what = "select"
        else:

            def action() -> Awaitable[Interaction]:
                return user.click(message, custom_id, wait=False)

            what = "click"
        if double:
            found = await self.send_many(user, "double " + what, [action, action])
        else:
            found = await self.send_many(user, what, [action])
        return found[0] if found else None

    # -- one member's moves ---------------------------------------------------------------------

    def homes(self) -> list[Channel]:
        state = self.state
        return [state.general, state.games, *state.threads()]

    def pick_message(self, user: FakeUser) -> Message | None:
        rng = self.rng
        if rng.random() < 0.45:
            pool = [m for m in self.watcher.ephemerals.get(user.id, ()) if not m.deleted]
        else:
            home = rng.choice(self.homes())
            messages = self.state.messages_in.get(home.id, [])
            pool = messages if rng.random() < 0.15 else messages[-40:]  # now and then old ones
            pool = [m for m in pool if m.ephemeral_for is None and user.can_see(m)]
        pool = [m for m in pool if usable(m)]
        return rng.choice(pool) if pool else None

    async def click_something(self, user: FakeUser) -> None:
        message = self.pick_message(user)
        if message is None:
            self.skipped["nothing to click"] += 1
            return
        choices = usable(message)
        component = self.rng.choice(choices)
        if component["custom_id"].startswith("g:cancel_yes:") and self.rng.random() < 0.95:
            self.skipped["spared a table"] += 1  # cancelling is allowed, just not too often
            return
        await self.use(user, message, component, double=self.rng.random() < 0.12)

    async def slash_something(self, user: FakeUser) -> None:
        rng = self.rng
        names = rng.choice(SLASH)
        options: dict[str, Any] = {}
        if names[-1] == "export" and rng.random() < 0.5:
            options["game_id"] = rng.randint(1, 12)
        elif names == ("leaderboard",):
            options["game"] = rng.choice(list(GROUPS))
            if rng.random() < 0.3:
                options["season"] = rng.randint(1, 3)
        elif names == ("stats",) and rng.random() < 0.5:
            options["member"] = rng.choice(self.crowd)
        elif names == ("settings",) and rng.random() < 0.5:
            key, value = rng.choice(
                [
                    ("turn_seconds", rng.choice([0, 4, 6])),
                    ("lobby_seconds", rng.choice([0, 15, 25])),
                    ("rate_bot_games", rng.random() < 0.5),
                    ("edition", rng.choice(["kamiza:second", "kamiza:classic"])),
                ]
            )
            options[key] = value
        elif names == ("newseason",) and rng.random() < 0.5:
            options["name"] = rng.choice(["Spring", "夏", "x" * 50])
        if self.starts_allowed and rng.random() < 0.08:
            group = rng.choice(list(GROUPS.values()))
            names, options = (group, "start"), {"bots": rng.randint(1, 2)}
        where = rng.choice(self.homes())

        def action() -> Awaitable[Interaction]:
            return user.slash(*names, where=where, wait=False, **options)

        await self.send(user, "/" + " ".join(names), action)

    def in_dm(self, message: Message) -> bool:
        return self.state.channels[message.channel_id].type == DM

    async def take_turn(self, user: FakeUser, table: TableUnderTest) -> bool:
        """Play properly: open the hand from the table message and walk the menu forward."""
        message = table_message(self.state, table.home)
        if message is None or message.deleted:
            return False
        hand = hand_button(message)
        assert hand is not None
        opened = await self.use(user, message, hand)
        menu = opened.response if opened else None
        if menu is not None and not usable(menu) and user.dms():
            menu = user.dms()[-1]  # a member who chose hands by DM: their menu came there
        for _ in range(8):
            if menu is None or menu.deleted or not (menu.ephemeral or self.in_dm(menu)):
                return False
            forward = [c for c in usable(menu) if not c["custom_id"].startswith(NOT_FORWARD)]
            if not forward:
                return False
            if await self.use(user, menu, self.rng.choice(forward)) is None:
                return False
        return True

    def my_turn(self, user: FakeUser) -> TableUnderTest | None:
        for table in self.tables:
            if user.id in table.seated:
                message = table_message(self.state, table.home)
                if message is not None and whose_turn(message, table.seated) is user:
                    return table
        return None

    async def monkey(self, user: FakeUser) -> None:
        rng = self.rng
        while not self._stop.is_set():
            await asyncio.sleep(rng.uniform(0.15, 0.6))
            if not self.state.connected:
                self.skipped["bot down"] += 1
                continue
            roll = rng.random()
            try:
                if roll < 0.3 and (table := self.my_turn(user)) is not None:
                    await self.take_turn(user, table)
                elif roll < 0.42:
                    await self.slash_something(user)
                else:
                    await self.click_something(user)
            except (SlashError, LookupError) as exc:
                self.skipped[f"refused by Discord: {type(exc).__name__}"] += 1

    # -- kill -9 --------------------------------------------------------------------------------

    async def killer(self, seconds: float, kills: int) -> None:
        """Kill the bot `kills` times at random moments of `seconds`, restarting it each time:
        now and then while it handles a click, or again just after it came back (before it
        has re-posted its tables)."""
        rng = self.rng
        began = time.monotonic()
        slot = seconds / kills
        quick = False
        for k in range(kills):
            if not quick:
                at = began + k * slot + rng.uniform(0.25, 0.85) * slot
                await asyncio.sleep(max(0.0, at - time.monotonic()))
            if rng.random() < 0.5:  # while the bot handles a click: between commit and answer
                count = len(self.sent)
                with contextlib.suppress(TimeoutError):
                    await self.state.wait_for(lambda c=count: len(self.sent) > c, 2.0)
                await asyncio.sleep(rng.uniform(0.0, 0.01))
            outage = Outage(time.monotonic(), time.time())
            self.outages.append(outage)
            await self.bot.kill9()
            await asyncio.sleep(rng.uniform(0.1, 1.5))
            await self.bot.restart()
            outage.up_at = time.monotonic()
            quick = rng.random() < 0.3
            if quick:
                await asyncio.sleep(rng.uniform(0.1, 1.5))

    async def run(self, seconds: float, kills: int) -> None:
        self._stop.clear()
        began = time.monotonic()
        monkeys = [asyncio.create_task(self.monkey(u), name=f"monkey {u.name}") for u in self.crowd]
        try:
            await self.killer(seconds, kills)
            await asyncio.sleep(max(0.0, began + seconds - time.monotonic()))
        finally:
            self._stop.set()
            await asyncio.gather(*monkeys)

    # -- finishing --------------------------------------------------------------------------------

    async def finish(self, deadline: float) -> None:
        """Seated members play their turns until every table's game has ended (or the deadline)."""
        await asyncio.gather(*(self._drive(t, deadline) for t in self.tables))

    async def _drive(self, table: TableUnderTest, deadline: float) -> None:
        state = self.state
        while time.monotonic() < deadline:
            if game_statuses(self.bot.database_path).get(table.game_id) in ENDED:
                return
            message = table_message(state, table.home)
            user = whose_turn(message, table.seated) if message else None
            version = (message.id, message.edits) if message else None
            if user is not None:
                await self.take_turn(user, table)

            def changed(version: tuple | None = version) -> bool:
                now = table_message(state, table.home)
                return (now.id, now.edits) != version if now else version is not None

            with contextlib.suppress(TimeoutError):
                await state.wait_for(changed, 0.5, topic=table.home.id)

    # -- judging ------------------------------------------------------------------------------

    def excused(self, interaction: Interaction) -> bool:
        """Sent while the bot was being killed, down, or within 3 s before a kill."""
        sent = interaction.sent_at
        deadline = self.state.interaction_deadline
        return any(
            o.killed_at - deadline <= sent <= (o.up_at or float("inf")) for o in self.outages
        )

    def late_answers(self) -> tuple[list[Sent], list[Sent]]:
        """(late or unanswered interactions, the same but excused by a kill)."""
        late, excused = [], []
        for s in self.sent:
            i = s.interaction
            if (
                i.answered
                and i.elapsed is not None
                and i.elapsed <= self.state.interaction_deadline
            ):
                continue
            (excused if self.excused(i) else late).append(s)
        return late, excused
