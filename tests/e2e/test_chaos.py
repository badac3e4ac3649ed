"""Chaos: a crowd clicks everything it sees while the bot is killed with -9 and restarted.

Four tables (KAMIZA second edition; KAMIZA classic with the advanced rule, started by a member
with Manage Server; Kobayakawa opened inside an existing thread; Rights of Losers; computer
players at each) and an open lobby. Twelve members (seated players, strangers, Japanese clients,
one with Manage Server; the server itself speaks English or Japanese) click random components of
public messages and of their own ephemerals, choose random select options, double-click, run
random slash commands (and open tables of their own), while the bot is killed 3-4 times at random
moments (now and then while it handles a click, or again just after it came back). Then the
seated members play properly until every game has ended and what the crowd opened is cancelled.

Checked: every interaction answered within 3 s (those in flight at a kill excused and listed),
no deferred answer left "thinking", no unknown route and no error response, no traceback, error
or bot warning in the bot's log, every game in the ledger ended and every finished one stored
with the scores and winners its log replays to, its standings posted; no private menu in a public
message, no face-down KAMIZA card shown to anyone but its owner before the reveal (the advanced
rule's start player excepted), no Kobayakawa card the rules keep secret (a passer's, a lone
fighter's, the pile's) in a public message of its round, no lobby message left offering Join on
a game that left the lobby (except one posted before a kill: a restarted bot no longer knows that
message).

    CHAOS_SEED=7 python -m pytest -s tests/e2e/test_chaos.py   # another seed; -s: the report
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import statistics
import time
from collections import Counter

import pytest
from chaos_monkey import (
    ENDED,
    GROUPS,
    Chaos,
    TableUnderTest,
    all_games,
    kobayakawa_public_cards,
    press,
    quiet,
    table_message,
    usable,
)
from fakediscord.state import PUBLIC_THREAD

from rules.log import replay

SEED = int(os.environ.get("CHAOS_SEED", "1"))
CHAOS_SECONDS = float(os.environ.get("CHAOS_SECONDS", "26"))
# The finishing members act on the turn the table message names, and a table message is edited
# at most once a second (`bot.tables.edit_pacing`): a long Rights of Losers game needs more.
FINISH_SECONDS = 40.0

# Log lines that are no problem (none so far): patterns of understood ERROR/WARNING lines.
UNDERSTOOD_LOG: tuple[re.Pattern[str], ...] = ()


async def open_lobby(state, host, group, where, **options):
    """`/<group> start` in `where`: the table's home (a new thread, or `where` if a thread)."""
    started = await host.slash(group, "start", where=where, **options)
    if where.is_thread:
        home = where
    else:
        announcement = started.response
        assert announcement is not None and not announcement.ephemeral, started
        home = await state.wait_for(lambda: state.channels.get(announcement.id), 5, "the thread")
    lobby = await host.wait_for_message(lambda m: lobby_of(m) is not None, channel=home)
    return home, lobby


def lobby_of(message) -> int | None:
    """The game id of a lobby message (one with a Join button)."""
    for b in message.buttons():
        if b.get("custom_id", "").startswith("g:join:"):
            return int(b["custom_id"].split(":")[2])
    return None


async def seat_and_start(state, lobby, starter, joiners=(), leavers=()):
    for user in joiners:
        await press(user, lobby, "join")
    for user in leavers:
        await press(user, lobby, "leave")
    await press(starter, lobby, "start")
    await state.wait_for(lambda: not lobby.buttons(), 5, "the lobby to start")


def log_problems(log: str) -> list[str]:
    """Tracebacks and ERROR lines, and the bot's own warnings (a text it could not format, a
    message it could not post), each with the lines after it."""
    lines = log.splitlines()
    found = []
    for n, line in enumerate(lines):
        bad = "Traceback" in line or " ERROR " in line or " CRITICAL " in line
        bad = bad or " WARNING bot." in line
        if bad and not any(p.search(line) for p in UNDERSTOOD_LOG):
            found.append("\n".join(lines[n : n + 12]))
    return found


async def cancel_as(chaos: Chaos, mod, game: dict) -> tuple | None:
    """`/<game> cancel` in the game's home and confirm; what was said if it was refused."""
    where = chaos.state.channels[game["home"]]
    group = GROUPS[game["game"]]
    asked = await chaos.send(
        mod, "cancel", lambda: mod.slash(group, "cancel", where=where, wait=False)
    )
    answer = asked.response if asked else None
    if answer is None or not any(c["custom_id"].startswith("g:cancel_yes") for c in usable(answer)):
        return game["id"], answer.text if answer else asked  # it closed meanwhile?
    await chaos.send(mod, "cancel", lambda: press(mod, answer, "cancel_yes", wait=False))
    return None


def report(chaos: Chaos, games: list[dict], seconds: float, began_wall: float) -> None:
    """What happened, for `pytest -s` (and for the failure's context)."""
    state, sent = chaos.state, chaos.sent
    late, excused = chaos.late_answers()
    elapsed = sorted(s.interaction.elapsed for s in sent if s.interaction.elapsed is not None)
    print(f"\n== chaos seed {SEED}, server {state.guild_locale}: {seconds:.1f}s in all")
    kills = [
        f"at {o.killed_wall - began_wall:.1f}s for {o.up_at - o.killed_at:.2f}s"
        for o in chaos.outages
        if o.up_at
    ]
    print(f"kills: {kills}")
    print(f"interactions: {len(sent)} {dict(Counter(s.what for s in sent))}")
    verbs = Counter(":".join(s.interaction.name.split(":")[:2]) for s in sent)
    print(f"by verb: {dict(verbs)}")
    if elapsed:
        p99 = elapsed[max(0, int(len(elapsed) * 0.99) - 1)]
        median = statistics.median(elapsed)
        print(f"answered in p50 {median:.3f}s, p99 {p99:.3f}s, max {elapsed[-1]:.3f}s")
    print(f"not sent: {dict(chaos.skipped)}")
    print(f"in flight at a kill (excused): {[(s.what, s.interaction.name) for s in excused]}")
    print(f"late: {[(s.what, s.interaction.name, s.interaction.late_callbacks) for s in late]}")
    failed = Counter(f"{r.route} -> {r.status}" for r in state.failed_requests())
    print(f"error responses: {dict(failed)}")
    print(f"messages inspected: {chaos.watcher.inspected}")
    print(f"KAMIZA tables checked for face-down cards: {chaos.watcher.kamiza_tables_seen}")
    for g in games:
        actions = len(g["log"]["actions"]) if g["log"] else 0
        ended = f"{g['ended_at'] - began_wall:.1f}s" if g["ended_at"] else "-"
        print(f"game {g['id']} {g['game']}: {g['status']} {g['reason'] or ''} {actions} actions,")
        print(f"    ended at {ended}")
    answers = Counter(
        (s.interaction.response.text.splitlines() or ["(no text)"])[0][:60]
        for s in sent
        if s.interaction.response is not None and s.interaction.response.ephemeral
    )
    print(f"private answers: {answers.most_common(25)}")


@pytest.mark.e2e
@pytest.mark.slow
async def test_a_crowd_and_kill_9_leave_every_game_consistent(fake_discord, launch_bot, users):
    state = fake_discord.state
    rng = random.Random(SEED)
    began, began_wall = time.monotonic(), time.time()
    chat = state.add_channel("chat", PUBLIC_THREAD, parent=state.general)  # an existing thread
    chat.owner_id = state.owner.id
    state.guild_locale = rng.choice(["en-US", "en-US", "ja"])  # public messages in Japanese too
    bot = await launch_bot(TURN_SECONDS=5, LOBBY_SECONDS=20, BOT_DELAY_SECONDS=0.05)

    ann, ben, cho, dan = users("ann"), users("ben"), users("cho", locale="ja"), users("dan")
    eve, fay, gus, hal = users("eve"), users("fay"), users("gus", locale="ja"), users("hal")
    ivy, kim, lee = users("ivy"), users("kim"), users("lee", locale="ja")
    mod = users("mod", manage_guild=True)
    crowd = [ann, ben, cho, dan, eve, fay, gus, hal, ivy, kim, lee, mod]

    home1, lobby1 = await open_lobby(state, ann, "kamiza", state.general, bots=1)
    await seat_and_start(state, lobby1, ann, joiners=[ben, cho, dan], leavers=[dan])
    home2, lobby2 = await open_lobby(
        state, dan, "kamiza", state.games, edition="classic", advanced=True, bots=2
    )
    await seat_and_start(state, lobby2, mod, joiners=[fay])
    home3, lobby3 = await open_lobby(state, eve, "kobayakawa", chat, bots=2)
    await seat_and_start(state, lobby3, eve, joiners=[gus, kim], leavers=[kim])
    home4, lobby4 = await open_lobby(state, hal, "losers", state.general, bots=1)
    await seat_and_start(state, lobby4, hal, joiners=[ivy])
    await open_lobby(state, kim, "kobayakawa", state.games, bots=1)  # left to the crowd
    tables = [
        TableUnderTest("kamiza", home1, {u.id: u for u in (ann, ben, cho)}),
        TableUnderTest("kamiza", home2, {u.id: u for u in (dan, fay)}, advanced=True),
        TableUnderTest("kobayakawa", home3, {u.id: u for u in (eve, gus)}),
        TableUnderTest("rights-of-losers", home4, {u.id: u for u in (hal, ivy)}),
    ]
    by_home = {g["home"]: g for g in all_games(bot.database_path)}
    for table in tables:
        assert by_home[table.home.id]["status"] == "running"
        table.game_id = by_home[table.home.id]["id"]

    chaos = Chaos(state, bot, crowd, tables, rng)
    await chaos.run(CHAOS_SECONDS, kills=rng.choice([3, 4]))
    chaos.starts_allowed = False

    # The end: the seated members play properly; what the crowd opened is cancelled.
    await chaos.finish(time.monotonic() + FINISH_SECONDS)
    ours = {t.game_id for t in tables}
    refused = [
        await cancel_as(chaos, mod, game)
        for game in all_games(bot.database_path)
        if game["status"] not in ENDED and game["id"] not in ours
    ]
    await quiet(state)
    games = all_games(bot.database_path)
    report(chaos, games, time.monotonic() - began, began_wall)

    late, _ = chaos.late_answers()
    assert not late, f"interactions not answered within 3 s: {late}"
    thinking = [
        (s.what, s.interaction.name)
        for s in chaos.sent
        if s.interaction.response is not None
        and s.interaction.response.loading
        and not chaos.excused(s.interaction)
    ]
    assert not thinking, f"deferred answers never filled in: {thinking}"
    assert not state.unknown_routes
    assert not state.failed_requests(), [str(r) for r in state.failed_requests()]
    problems = log_problems(bot.log)
    assert not problems, "the bot's log:\n" + "\n--\n".join(problems)
    assert not chaos.watcher.problems, chaos.watcher.problems
    assert chaos.watcher.kamiza_tables_seen  # the face-down check read laid-out tables

    stuck = [(g["id"], g["game"], g["status"]) for g in games if g["status"] not in ENDED]
    assert not stuck, f"games left unfinished: {stuck} (cancelling refused: {refused})"
    for game in games:
        if game["status"] == "finished":
            answer = replay(game["log"])
            assert answer["over"], game["id"]
            assert answer["scores"] == game["scores"], game["id"]
            assert sorted(answer["winners"]) == game["winners"], game["id"]

    # Kobayakawa: no public message of a round ever showed a card the rules keep secret (checked
    # where one Kobayakawa game was played, so that rounds are not confused).
    shown, checked = chaos.watcher.kobayakawa_shown, 0
    for game in games:
        same_home = [g for g in games if g["home"] == game["home"] and g["game"] == "kobayakawa"]
        if game["game"] != "kobayakawa" or not game["log"] or len(same_home) != 1:
            continue
        allowed = kobayakawa_public_cards(game["log"])
        for (home, number), cards in shown.items():
            secret = cards - allowed.get(number, set())
            assert home != game["home"] or not secret, (game["id"], number, sorted(secret))
            checked += home == game["home"]
    print(f"Kobayakawa rounds checked for secret cards: {checked}")

    public = [m for m in state.messages.values() if not m.ephemeral and not m.deleted]
    footers = [e.get("footer", {}).get("text", "") for m in public for e in m.embeds]
    # a laid-out message's footer is its small print ("-# …")
    footers += [line for m in public for line in m.text.splitlines() if line.startswith("-# ")]
    kills = [o.killed_wall for o in chaos.outages]
    unannounced = [
        g
        for g in games
        if g["status"] == "finished" and not any(f"#{g['id']} " in f for f in footers)
    ]
    # Known (see the report): the standings are posted after the result is committed; a kill in
    # between (a few ms, or seconds behind a rate limit) loses them for good.
    lost = [g["id"] for g in unannounced if any(0 <= k - g["ended_at"] < 5 for k in kills)]
    print(f"standings lost to a kill right after the finish: {lost}")
    unexplained = [g["id"] for g in unannounced if g["id"] not in lost]
    assert not unexplained, f"finished games whose standings were never posted: {unexplained}"
    # A lobby message posted before a kill is never edited again (the restarted bot does not know
    # its id); any other lobby message must lose its buttons when its game leaves the lobby.
    left_lobby = {g["id"] for g in games if g["status"] != "lobby"}
    stale = [m for m in public if lobby_of(m) in left_lobby]
    print(f"lobby messages left offering Join by a kill: {[(lobby_of(m), m.id) for m in stale]}")
    stale = [(lobby_of(m), m.id) for m in stale if not any(k > m.created_at for k in kills)]
    assert not stale, f"lobby messages still offering Join on games that left the lobby: {stale}"


# Quarantined, a known intermittent bug (2 of 6 CI rehearsals on 2026-11-28, since per-route
# buckets came in): the old lobby message is sometimes never edited to "started" after a restart
# (it stays the lobby as it was before the kill, offering Join). To be found, then unmarked.
@pytest.mark.xfail(strict=False, reason="intermittent: the restored lobby's 'started' edit lost")
@pytest.mark.e2e
async def test_start_pressed_before_the_restarted_bot_is_ready_posts_no_new_lobby(
    fake_discord, launch_bot, users
):
    """Found by the chaos test: a restored lobby's message waits for the gateway (about 2 s);
    Start pressed meanwhile on the old lobby message used to be followed by a fresh lobby message
    offering Join on the started game."""
    state = fake_discord.state
    bot = await launch_bot()
    ann, ben = users("ann"), users("ben")
    home, lobby = await open_lobby(state, ann, "kamiza", state.general, bots=1)
    await press(ben, lobby, "join")
    await bot.kill9()
    await bot.restart()
    await press(ann, lobby, "start")
    table = await ann.wait_for_message(lambda m: table_message(state, home) is m, channel=home)
    await quiet(state)

    def joins() -> list:
        return [m for m in ann.visible_messages(home) if lobby_of(m) is not None]

    # The restart kept the lobby's id: it is edited to "started" (late on a loaded machine, so
    # waited for), and no new lobby is posted.
    with contextlib.suppress(TimeoutError):
        await state.wait_for(lambda: not joins(), 10, "no lobby offering Join")
    assert [(m.id == lobby.id, m.text) for m in joins()] == []
    assert lobby_of(lobby) is None
    # the table is the newest message but for the ping of the member whose turn it is
    assert [m for m in ann.visible_messages(home) if not m.notified][-1] is table
