"""`/kamiza export`: finished logs, seat views of unfinished games, refusals, both languages.

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
from data.store import Seat, open_ledger
from rules.log import load, replay
from rules.random_play import random_match

pytestmark = pytest.mark.e2e

HIDDEN_KEYS = {"setup", "seed", "actions", "hands", "decks"}


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


async def export(user, where=None, **options):
    """Run `/kamiza export`; the private answer once the deferred reply is filled in."""
    done = await user.slash("kamiza", "export", where=where, **options)
    message = done.response
    assert message is not None and message.ephemeral, done
    await user.state.wait_for(lambda: not message.loading, 5, "the export answer")
    return message


def attached(message) -> tuple[str, dict]:
    assert len(message.attachments) == 1, message.text
    file = message.attachments[0]
    return file.filename, json.loads(file.content.decode("utf-8"))


def assert_no_secret(document: dict, me: str) -> None:
    """A seat view: no setup, no action list, no other player's face-down card."""

    def keys(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                yield key
                yield from keys(inner)
        elif isinstance(value, list):
            for inner in value:
                yield from keys(inner)

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

    answer = await export(ann, game_id=finished)
    name, document = attached(answer)
    assert name == f"kamiza-{finished}.json" and f"#{finished}" in answer.text
    log, scores = ledger_log(db, finished)
    extras = {k: document.pop(k) for k in ("id", "guild", "status", "results")}
    assert document == log and "seed" in document["setup"]
    assert extras["id"] == finished and extras["guild"] == state.guild_id
    assert extras["status"] == "finished"
    assert {r["player"]: r["score"] for r in extras["results"]} == scores
    assert replay(document)["scores"] == scores

    # a finished game is public to the server: a member who did not play may export it too
    assert attached(await export(eve, game_id=finished))[1]["id"] == finished
    # no game id, no table here: the requester's most recent finished KAMIZA game
    latest = attached(await export(ben))[1]
    assert latest["id"] == finished and older < finished < kobayakawa
    none = await export(eve)
    assert "no finished KAMIZA game" in none.text and not none.attachments

    other = await export(ann, game_id=kobayakawa)
    assert "Kobayakawa game" in other.text and not other.attachments
    for game_id in (elsewhere, 999_999):
        refused = await export(ann, game_id=game_id)
        assert f"no game #{game_id} in this server" in refused.text and not refused.attachments

    # a cancelled game may hide face-down cards: only a seated member's own view
    refused = await export(eve, game_id=cancelled)
    assert "no seat" in refused.text and not refused.attachments
    seat_view = await export(ann, game_id=cancelled)
    name, view = attached(seat_view)
    assert name == f"kamiza-{cancelled}.json" and "cancelled" in seat_view.text
    assert view["kind"] == "seat-view" and view["status"] == "cancelled"
    assert view["actions_played"] == 5
    assert_no_secret(view, str(ann.id))
    full, _ = ledger_log(db, cancelled)
    assert view["view"]["hand"] == load(full).view(str(ann.id))["hand"]

    # Japanese: the member's texts, the file's note and the command's localisations
    japanese = await export(yui, game_id=cancelled)
    assert "中止済み" in japanese.text and "伏せたカード" in japanese.text
    assert "再生できません" in attached(japanese)[1]["note"]
    assert "完全な記録" in (await export(yui, game_id=finished)).text
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
    game_id = subs["export"]["options"][0]
    assert game_id["name"] == "game_id" and game_id["name_localizations"]["ja"] == "ゲーム番号"
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
