"""`/kamiza export`: public records of finished games, the full log for Manage Server, seat
views of unfinished games, refusals, both languages.

Finished, cancelled, other-guild and Kobayakawa games are written to the ledger before the bot
starts; the running game is played through the fake Discord.
"""

from __future__ import annotations

import json
import random
import sqlite3

import discord
import pytest
from community_seed import finish_random_game
from kamiza_play import open_table, play_turn, table_message, table_version, wait_turn

from bot.client import KamizaBot
from data.backends import open_ledger
from data.store import Seat
from rules.log import load, public_record, replay
from rules.random_play import random_match

pytestmark = pytest.mark.e2e

HIDDEN_KEYS = {"setup", "seed", "actions", "hands", "decks", "keep"}


def ledger_log(db_path, game_id: int) -> tuple[dict, dict[str, int]]:
    """A game's log and stored scores, read straight from the ledger file."""
    con = sqlite3.connect(db_path)
    try:
        header = json.loads(
            con.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()[0]
        )
        actions = [
            json.loads(row[0])
            for row in con.execute(
                "SELECT action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        ]
        scores = dict(
            con.execute("SELECT player, score FROM results WHERE game_id = ?", (game_id,))
        )
    finally:
        con.close()
    return {**header, "actions": actions}, scores


async def cancel_midway(ledger, guild_id: int, players, seed: int, played: int) -> int:
    """A KAMIZA game cancelled after `played` actions: face-down cards still on the table."""
    by_player = {str(u.id): Seat(str(u.id), u.id, u.name.title()) for u in players}
    _, log = random_match("kamiza", list(by_player), seed)
    seats = [by_player[p] for p in log["players"]]
    game_id = await ledger.create_game(
        game="kamiza",
        options={},
        guild_id=guild_id,
        channel_id=1,
        thread_id=None,
        host_id=players[0].id,
    )
    await ledger.set_seats(game_id, seats)
    await ledger.start_game(game_id, {k: v for k, v in log.items() if k != "actions"}, seats)
    for seq, action in enumerate(log["actions"][:played]):
        await ledger.append_action(game_id, seq, action)
    await ledger.end_game(game_id, "cancelled", "test")
    return game_id


async def export(user, where=None, game="kamiza", **options):
    """Run `/<game> export`; the private answer once the deferred reply is filled in."""
    done = await user.slash(game, "export", where=where, **options)
    message = done.response
    assert message is not None and message.ephemeral, done
    await user.state.wait_for(lambda: not message.loading, 5, "the export answer")
    return message


def attached(message) -> tuple[str, dict]:
    assert len(message.attachments) == 1, message.text
    file = message.attachments[0]
    return file.filename, json.loads(file.content.decode("utf-8"))


def keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys(inner)


def assert_public_record(document: dict, log: dict, game_id: int, guild_id: int) -> None:
    """A finished game's public record: what the table showed, nothing of the setup."""
    assert not HIDDEN_KEYS & set(keys(document)), sorted(HIDDEN_KEYS & set(keys(document)))
    extras = {k: document.pop(k) for k in ("kind", "note", "id", "guild", "status", "results")}
    assert document == public_record(log)
    assert extras["kind"] == "public-record" and extras["status"] == "finished"
    assert extras["id"] == game_id and extras["guild"] == guild_id
    assert {r["player"]: r["score"] for r in extras["results"]} == document["result"]["scores"]


def assert_no_secret(document: dict, me: str) -> None:
    """A seat view: no setup, no action list, no other player's face-down card."""
    assert not HIDDEN_KEYS & set(keys(document)), sorted(HIDDEN_KEYS & set(keys(document)))
    view = document["view"]
    assert view["you"] == me and document["player"] == me
    assert all(p["card"] is None for p in view["table"] if p["player"] != me), view["table"]


async def test_export_finished_and_cancelled_games_and_refusals(
    fake_discord, launch_bot, users, tmp_path
):
    state = fake_discord.state
    ann, ben, cho, dev = (users(n) for n in ("ann", "ben", "cho", "dev"))
    eve, yui = users("eve"), users("yui", locale="ja")
    boss = users("boss", manage_guild=True)  # Manage Server, seated at no game
    db = tmp_path / "seeded.sqlite3"
    ledger = await open_ledger(f"sqlite:///{db}")
    try:
        seats = [(u.id, u.name.title()) for u in (ann, ben, cho, dev)]
        older = await finish_random_game(ledger, state.guild_id, "kamiza", seats, 1)
        finished = await finish_random_game(ledger, state.guild_id, "kamiza", seats, 2)
        kobayakawa = await finish_random_game(ledger, state.guild_id, "kobayakawa", seats, 3)
        elsewhere = await finish_random_game(ledger, state.guild_id + 1, "kamiza", seats, 4)
        cancelled = await cancel_midway(ledger, state.guild_id, [ann, ben, yui], 5, played=5)
    finally:
        await ledger.close()
    await launch_bot(DATABASE_URL=f"sqlite:///{db}")

    # a finished game is public to the server, as the table showed it: a player, or a member
    # who did not play, gets the public record (no seed, decks, hands or action list)
    log, scores = ledger_log(db, finished)
    for user in (ann, eve):
        answer = await export(user, game_id=finished)
        name, document = attached(answer)
        assert name == f"kamiza-{finished}.json" and f"#{finished}" in answer.text
        assert "public record" in answer.text and "`full`" in answer.text
        assert document["result"]["scores"] == scores
        assert_public_record(document, log, finished, state.guild_id)
    # Kobayakawa: nobody's draw, nor the card of a player who passed or fought alone
    answer = await export(eve, game="kobayakawa", game_id=kobayakawa)
    name, document = attached(answer)
    assert name == f"kobayakawa-{kobayakawa}.json"
    assert_public_record(document, ledger_log(db, kobayakawa)[0], kobayakawa, state.guild_id)
    events = [e for step in document["steps"] for e in step["events"]]
    draws = [e for e in events if e["type"] == "drew"]
    assert draws and all(set(e) == {"type", "player", "discarded"} for e in draws)
    showdowns = [e for e in events if e["type"] == "showdown"]
    assert showdowns and all(
        set(e["cards"]) == (set(e["fighters"]) if len(e["fighters"]) > 1 else set())
        for e in showdowns
    )

    # the complete log: Manage Server and a finished game only
    answer = await export(boss, game_id=finished, full=True)
    name, document = attached(answer)
    assert name == f"kamiza-{finished}.json" and "complete log" in answer.text
    extras = {k: document.pop(k) for k in ("id", "guild", "status", "results")}
    assert document == log and "seed" in document["setup"]
    assert extras["id"] == finished and extras["guild"] == state.guild_id
    assert extras["status"] == "finished"
    assert {r["player"]: r["score"] for r in extras["results"]} == scores
    assert replay(document)["scores"] == scores
    for game_id in (finished, elsewhere, 999_999):  # refused before any look-up
        refused = await export(ann, game_id=game_id, full=True)
        assert "Only members with Manage Server" in refused.text and not refused.attachments
    refused = await export(boss, game_id=cancelled, full=True)
    assert "is cancelled" in refused.text and "once the game has finished" in refused.text
    assert not refused.attachments

    # no game id, no table here: the requester's most recent finished KAMIZA game
    latest = attached(await export(ben))[1]
    assert latest["id"] == finished and older < finished < kobayakawa
    none = await export(eve)
    assert "no finished KAMIZA game" in none.text and not none.attachments

    other = await export(ann, game_id=kobayakawa)
    assert "Kobayakawa game" in other.text and not other.attachments
    # ids are sequential: another server's game is answered exactly like a missing one
    for user, full in ((ann, False), (boss, True)):
        missing = await export(user, game_id=999_999, full=full)
        assert "no game #999999 in this server" in missing.text and not missing.attachments
        refused = await export(user, game_id=elsewhere, full=full)
        assert refused.text == missing.text.replace("999999", str(elsewhere))
        assert not refused.attachments

    # a cancelled game may hide face-down cards: only a seated member's own view
    refused = await export(eve, game_id=cancelled)
    assert "no seat" in refused.text and not refused.attachments
    seat_view = await export(ann, game_id=cancelled)
    name, view = attached(seat_view)
    assert name == f"kamiza-{cancelled}.json" and "cancelled" in seat_view.text
    assert view["kind"] == "seat-view" and view["status"] == "cancelled"
    assert view["actions_played"] == 5
    assert_no_secret(view, str(ann.id))
    full_log, _ = ledger_log(db, cancelled)
    assert view["view"]["hand"] == load(full_log).view(str(ann.id))["hand"]

    # Japanese: the member's texts, the file's note and the command's localisations
    japanese = await export(yui, game_id=cancelled)
    assert "中止済み" in japanese.text and "伏せたカード" in japanese.text
    assert "再生できません" in attached(japanese)[1]["note"]
    public_ja = await export(yui, game_id=finished)
    assert "公開記録" in public_ja.text and "再生はできません" in attached(public_ja)[1]["note"]
    refused_ja = await export(yui, game_id=finished, full=True)
    assert "サーバー管理権限" in refused_ja.text and not refused_ja.attachments
    assert "ゲーム #999 はありません" in (await export(yui, game_id=999)).text
    command = state.command("kamiza")
    assert command["name_localizations"]["ja"] == "上座"
    assert "組長" in command["description_localizations"]["ja"]
    subs = {o["name"]: o for o in command["options"]}
    assert set(subs) == {"start", "hand", "status", "cancel", "rules", "export"}
    assert all(
        o["name_localizations"]["ja"] and o["description_localizations"]["ja"]
        for o in subs.values()
    )
    assert subs["export"]["name_localizations"]["ja"] == "書き出し"
    game_id, full = subs["export"]["options"]
    assert game_id["name"] == "game_id" and game_id["name_localizations"]["ja"] == "ゲーム番号"
    assert full["name"] == "full" and full["type"] == 5 and not full.get("required")
    assert full["name_localizations"]["ja"] == "完全" and full["description_localizations"]["ja"]
    edition = next(o for o in subs["start"]["options"] if o["name"] == "edition")
    choices = {c["value"]: c["name_localizations"]["ja"] for c in edition["choices"]}
    assert choices == {"second": "第二世代", "classic": "クラシック版（2014）"}
    assert not state.failed_requests()


async def test_export_of_a_running_game_is_the_seat_view(fake_discord, bot_process, users):
    state = fake_discord.state
    ann, ben, cho = users("ann"), users("ben"), users("cho")
    eve, dev = users("eve"), users("dev", locale="ja")
    thread, lobby = await open_table(ann)
    for user in (ben, cho):
        await user.click(lobby, "Join")
    await state.wait_for(lambda: lobby.text.count("<@") >= 3, 5, "three seats")
    await ann.click(lobby, "Start")
    await state.wait_for(lambda: table_message(ann, thread), 5, "the table")
    by_id = {u.id: u for u in (ann, ben, cho)}
    rng, version = random.Random(5), None
    for _ in range(2):  # two face-down cards on the table
        user = await wait_turn(by_id, thread, after=version)
        version = table_version(ann, thread)
        await play_turn(user, thread, rng)

    for user in (ann, ben):
        answer = await export(user, where=thread)
        name, view = attached(answer)
        assert name.startswith("kamiza-") and "only what your seat can see" in answer.text
        assert view["status"] == "running" and view["actions_played"] == 2
        assert len(view["view"]["table"]) == 2
        assert_no_secret(view, str(user.id))
    by_id_number = await export(ann, game_id=view["id"])
    assert attached(by_id_number)[1]["kind"] == "seat-view"

    cho.user.locale = "ja"  # her client now speaks Japanese (play_turn reads English)
    japanese = await export(cho, where=thread)
    assert "進行中" in japanese.text and attached(japanese)[1]["view"]["you"] == str(cho.id)
    refused = await export(eve, where=thread)
    assert "no seat" in refused.text and not refused.attachments
    # Manage Server does not open a running game: no seat view, and no log while it is played
    boss = users("boss", manage_guild=True)
    refused = await export(boss, where=thread)
    assert "no seat" in refused.text and not refused.attachments
    for user in (boss, ann):
        refused = await export(user, where=thread, full=True)
        assert not refused.attachments
    assert "is still being played" in (await export(boss, where=thread, full=True)).text
    assert "Only members with Manage Server" in refused.text  # ann, seated but no manager
    refused_ja = await export(dev, game_id=view["id"])
    assert "座っていません" in refused_ja.text and not refused_ja.attachments
    assert not state.failed_requests()


class _Response:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def is_done(self) -> bool:
        return False

    async def send_message(self, text: str, ephemeral: bool = False) -> None:
        assert ephemeral
        self.sent.append(text)


class _Interaction:
    def __init__(self, locale: discord.Locale) -> None:
        self.locale = locale
        self.command = None
        self.response = _Response()


@pytest.mark.parametrize(
    ("locale", "check", "failure"),
    [
        (discord.Locale.japanese, "ここでは使えません", "問題が発生しました"),
        (discord.Locale.american_english, "can't use this command here", "Something went wrong"),
    ],
)
async def test_command_errors_speak_the_users_language(locale, check, failure, caplog):
    from discord import app_commands

    for error, expected in ((app_commands.CheckFailure(), check), (RuntimeError(), failure)):
        interaction = _Interaction(locale)
        await KamizaBot._on_tree_error(None, interaction, error)  # type: ignore[arg-type]
        assert expected in interaction.response.sent[0]
