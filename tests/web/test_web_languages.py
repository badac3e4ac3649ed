"""Every page in English and Japanese: the language from ?lang= (kept in the page's links),
else Accept-Language, else English; the replay's events in the bot's own words; and
`python -m web --help`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from web_seed import HIDDEN, OFF, ON

from bot.i18n import t
from web.replay import public_step
from web.told import as_html
from web.words import chosen, preferred

SERVER = f"/s/{ON}"
ROOT = Path(__file__).resolve().parents[2]
JA = {"Accept-Language": "ja"}


async def page(client, path: str, status: int = 200, headers: dict[str, str] | None = None):
    response = await client.get(path, headers=headers or {})
    text = await response.text()
    assert response.status == status, (path, text[:300])
    assert response.content_type == "text/html"
    return response, text


def test_the_language_is_the_querys_else_the_browsers_else_english():
    assert chosen({"lang": "ja"}, "en") == ("ja", True)
    assert chosen({"lang": "en"}, "ja") == ("en", True)
    assert chosen({"lang": "xx"}, None) == ("en", False)  # not an error: ignored
    assert chosen({"lang": "xx"}, "ja-JP") == ("ja", False)
    assert chosen({}, None) == ("en", False)
    assert preferred("ja,en;q=0.8") == "ja"
    assert preferred("en-US,ja;q=0.9") == "en"
    assert preferred("fr-FR, ja;q=0.5, en;q=0.4") == "ja"  # the first of ours it prefers
    assert preferred("en;q=0.5, ja;q=0.9") == "ja"
    assert preferred("fr, de") == "en" and preferred("*") == "en" and preferred("") == "en"
    assert preferred("ja;q=0, en") == "en" and preferred("ja;q=nonsense, en") == "en"


async def test_every_page_kind_in_both_languages(client, community):
    game = f"{SERVER}/games/{community.kobayakawa[0]}"
    kinds = {
        "/": ("ウェブコンパニオン", "<code>/設定 ウェブ: 公開</code>", "/settings web: on"),
        SERVER: ("<h1>ランキング</h1>", "<h2>最近の対局</h2>", "<h1>Leaderboards</h1>"),
        f"{SERVER}/leaderboard/kamiza": ("<h1>KAMIZA（上座）", ">勝率</a>", "<h1>KAMIZA ·"),
        f"{SERVER}/players/1001": ("<h2>レートの推移</h2>", "<h2>戦績</h2>", "Rating over time"),
        game: ("<h1>小早川 #", '<h2 id="replay">リプレイ</h2>', "<h1>Kobayakawa #"),
    }
    for path, (heading, other, english) in kinds.items():
        joiner = "&" if "?" in path else "?"
        for how, headers, query in (("query", None, f"{joiner}lang=ja"), ("header", JA, "")):
            response, text = await page(client, path + query, headers=headers)
            assert '<html lang="ja">' in text, (path, how)
            assert response.headers["Content-Language"] == "ja"
            assert "Accept-Language" in response.headers["Vary"]
            assert heading in text and other in text, (path, how)
            assert english not in text, (path, how)
            assert ">English</a>" in text  # the switch back
        _, text = await page(client, path)
        assert '<html lang="en">' in text and english in text and heading not in text, path
        assert ">日本語</a>" in text


async def test_error_pages_in_both_languages(client, community):
    _, text = await page(client, f"/s/{OFF}?lang=ja", 404)
    assert "<h1>見つかりません</h1>" in text and "Not found" not in text
    _, text = await page(client, "/nowhere", 404, JA)
    assert '<html lang="ja">' in text and "見つかりません" in text
    _, text = await page(client, f"{SERVER}/leaderboard/kamiza?page=x&lang=ja", 400)
    assert "不正なリクエスト" in text and "page は整数で指定してください" in text
    _, text = await page(client, f"{SERVER}/leaderboard/kamiza?sort=nonsense", 400)
    assert "Bad request" in text and "sort must be one of" in text


async def test_an_unknown_language_is_english_not_an_error(client):
    _, text = await page(client, f"{SERVER}/leaderboard/kamiza?lang=xx")
    assert '<html lang="en">' in text and "Rating ▾" in text and "lang=xx" not in text


async def test_a_language_chosen_by_the_query_stays_in_the_links(client, community):
    base = f"{SERVER}/games/{community.kamiza[0]}"
    _, text = await page(client, f"{base}?step=2&lang=ja")
    assert f'rel="next" href="{base}?step=3&amp;lang=ja#replay"' in text
    assert f'href="{SERVER}?lang=ja">サーバー</a>' in text and 'href="/?lang=ja"' in text
    assert "/players/1001?lang=ja" in text or "/players/1002?lang=ja" in text
    assert f'href="{base}?step=2&amp;lang=en"' in text  # the switch: the same page in English
    board = f"{SERVER}/leaderboard/kamiza"
    _, text = await page(client, f"{board}?lang=ja")
    assert f'href="{board}?season=1&amp;sort=wins&amp;lang=ja"' in text
    _, text = await page(client, base, headers=JA)  # the browser's: links stay plain
    assert f'rel="next" href="{base}?step=1#replay"' in text and "lang=ja#" not in text
    assert f'href="{base}?lang=en"' in text


async def test_replay_events_read_as_the_bot_tells_them(client, community):
    """The same event in the same words as in Discord: a KAMIZA reveal's judging lines and
    reasons (rule ids included) are the bot's, in each language."""
    from bot.kamiza.render import reason, step_line
    from rules.kamiza_judge import JudgeEvent

    game_id = community.kamiza[0]
    log = community.logs[game_id]
    names = dict(community_names(community, game_id))
    for index in range(1, len(log["actions"]) + 1):
        judged = [e for e in public_step(log, index)["shown"] if isinstance(e, JudgeEvent)]
        if judged:
            break
    else:
        pytest.fail("no reveal in the game")
    for lang in ("en", "ja"):
        _, text = await page(client, f"{SERVER}/games/{game_id}?step={index}&lang={lang}")
        for event in judged:
            line = step_line(event, lang, lambda seat: names[seat])
            why = reason(event, lang)
            assert why and why.endswith(")") and "-" in why  # "... (K-4)"
            assert as_html(line) in text and as_html(why) in text, (line, why)
    _, ja = await page(client, f"{SERVER}/games/{game_id}?step={index}&lang=ja")
    assert t("ja", "glossary.kamiza.kamiza") in ja  # the cards and areas too


def community_names(community, game_id: int) -> list[tuple[str, str]]:
    """Seat keys and the names the page gives them (the seed's members, none hidden here)."""
    log = community.logs[game_id]
    from web_seed import MEMBERS

    by_id = {str(uid): name for uid, name in [*MEMBERS, HIDDEN]}
    return [(f"seat-{n + 1}", by_id[player]) for n, player in enumerate(log["players"])]


async def test_a_hidden_member_is_on_no_japanese_page(client, community):
    paths = [SERVER, f"{SERVER}/players/1002"]
    paths += [f"{SERVER}/leaderboard/{g}" for g in ("kamiza", "kobayakawa")]
    for game_id in [*community.kamiza, *community.kobayakawa, community.running]:
        paths += [f"{SERVER}/games/{game_id}", f"{SERVER}/games/{game_id}?step=999"]
    seen = ""
    for path in paths:
        _, text = await page(client, path, headers=JA)
        assert HIDDEN[1] not in text and str(HIDDEN[0]) not in text, path
        seen += text
    assert "非公開のプレイヤー" in seen and "Hidden player" not in seen
    await page(client, f"{SERVER}/players/{HIDDEN[0]}?lang=ja", 404)


async def test_a_face_down_card_stays_hidden_in_japanese(client, community):
    """G-3 (K-3): the step of a card put face down names its area, never its card."""
    game_id = community.running
    for index in range(1, 4):
        step = public_step(community.logs[game_id], index)["step"]
        placed = [e["event"] for e in step["events"] if e["event"]["type"] == "card_placed"]
        if placed and not placed[0]["face_up"]:
            break
    else:
        pytest.skip("no face-down card in the first steps")
    _, text = await page(client, f"{SERVER}/games/{game_id}?step={index}&lang=ja")
    item = next(line for line in text.splitlines() if "カードを置いた" in line)
    cards = ("boss", "underboss", "hitman", "policeman", "raid")
    assert "カード: —" in item
    assert not any(t("ja", f"glossary.kamiza.{card}") in item for card in cards)


def run_web(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "web", *args],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite:////nonexistent/never.sqlite3"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_help_names_the_settings_and_opens_nothing():
    done = run_web("--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: python -m web")
    for name, default in (
        ("DATABASE_URL", "sqlite:///kamiza.sqlite3"),
        ("WEB_HOST", "127.0.0.1"),
        ("WEB_PORT", "8080"),
        ("WEB_BASE_URL", "none"),
        ("WEB_WORKERS", "1"),
    ):
        line = next(line for line in done.stdout.splitlines() if line.strip().startswith(name))
        assert f"(default: {default})" in line
    assert "?lang=" in done.stdout and not done.stderr
    assert run_web("-h").returncode == 0


def test_an_unknown_argument_is_one_line_and_status_2():
    done = run_web("--port", "9000")
    assert done.returncode == 2 and not done.stdout
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines == ["web: unknown argument '--port' (python -m web --help)"]
