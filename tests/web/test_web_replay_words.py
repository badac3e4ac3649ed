"""A Japanese replay shows no raw English value: phases, actions, cards, suits, reasons and the
kinds of events kept in the table read in the bot's own Japanese words (`web.values`), on every
step of a finished game of each of the three games. Only words change: what a spectator could
not see stays unseen."""

from __future__ import annotations

import re
from html import unescape

import pytest
from community_seed import finish_random_game
from test_web_languages import SERVER, page
from web_seed import MEMBERS, ON

from bot.i18n import t
from bot.losers.render import card
from web.replay import public_step
from web.values import VALUE_KEYS

TAG = re.compile(r"<[^>]+>")
WORD = re.compile(r"[A-Za-z][A-Za-z_]*(?:-[A-Za-z0-9]+)*")
# What may stay in Latin letters: a rule's id ("K-12", "R-4"), a cell of the Rights of Losers
# field ("C3"), and the bot's own Japanese words that are Latin ("WANTED" chips).
ALLOWED = re.compile(r"^(?:[A-Z]-\d+|[A-E]\d?|WANTED)$")
# The raw values these pages used to show in Japanese: each must be gone.
FOUND_BEFORE = {
    "draw", "fight", "pass", "over", "play", "build", "choice", "chip",  # phases, actions
    "type", "showdown", "round_won", "nobody_fought", "trick_won",  # events in the table
    "highest", "lowest", "lone_fighter", "tie_closest_to_start",  # who won and why
    "winner", "chosen", "appointed",  # why a player leads
    "owner", "most", "on_card", "edge", "tie", "no_chips",  # what decided a card's owner
    "red", "yellow", "green", "blue", "purple", "green-5",  # suits and cards
}  # fmt: skip


async def last_step(client, game_id: int) -> int:
    _, html = await page(client, f"{SERVER}/games/{game_id}?step=999")
    found = re.search(r"Step (\d+) of (\d+)", html)
    assert found is not None
    return int(found[2])


def shown_words(html: str) -> list[str]:
    """The Latin words of a replay's step and result (not the page's frame: its title, the
    language switch, the keyboard hint)."""
    start = html.index('<section id="step">')
    end = html.index("<script", start)
    return WORD.findall(unescape(TAG.sub(" ", html[start:end])))


async def house_rule_game(community, game: str, options: dict[str, object]) -> int:
    """A finished game played with a house rule (`options`), beside the seed's."""
    return await finish_random_game(community.ledger, ON, game, MEMBERS, 11, options=options)


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("kamiza", None),
        ("kobayakawa", None),
        ("losers", None),
        ("kobayakawa", {"simultaneous": True}),  # H-2: who has chosen, who still chooses
        ("kamiza", {"simultaneous": True, "edition": "second"}),
    ],
)
async def test_every_step_of_a_japanese_replay_is_in_japanese(client, community, game, options):
    if options is None:
        game_id = getattr(community, game)[0]
    else:
        game_id = await house_rule_game(community, game, options)
    names = {name for _, name in MEMBERS}
    steps = await last_step(client, game_id)
    english: dict[str, int] = {}
    for step in range(steps + 1):
        _, html = await page(client, f"{SERVER}/games/{game_id}?step={step}&lang=ja")
        for word in shown_words(html):
            if word not in names and not ALLOWED.match(word):
                english.setdefault(word, step)
        if game == "losers":  # G-3: a spectator sees no hand
            assert "<dt>手札</dt><dd>—</dd>" in html, step
        if game == "kobayakawa":  # G-3: nor anyone's own card
            assert "<dt>カード</dt><dd>—</dd>" in html, step
    assert not english, f"English on the Japanese replay (word: first step): {english}"
    assert not FOUND_BEFORE & set(english)


async def test_the_values_are_the_bots_words(client, community):
    """The same catalogue texts as in Discord: Kobayakawa's buttons and reasons, the Rights of
    Losers' cards, suits and tasks."""
    kobayakawa = community.kobayakawa[0]
    _, html = await page(client, f"{SERVER}/games/{kobayakawa}?step=999&lang=ja")
    assert f"行動: {t('ja', 'kobayakawa.hand.pass')}" in html  # 降りる, the button's word
    losers = community.losers[0]
    played = next(
        e["event"]["card"]
        for e in public_step(community.logs[losers], 1)["step"]["events"]
        if e["event"]["type"] == "card_played"
    )
    _, html = await page(client, f"{SERVER}/games/{losers}?step=1&lang=ja")
    assert f"<dd>{t('ja', 'losers.task.play')}</dd>" in html  # the phase: 札を出す
    assert f"カード: {card('ja', played)}" in html  # "🟩 緑5"
    _, english = await page(client, f"{SERVER}/games/{losers}?step=1&lang=en")
    assert played not in english and f"card: {card('en', played)}" in english  # "🟩 green 5"


def test_every_value_key_has_both_languages():
    for fields in VALUE_KEYS.values():
        for values in fields.values():
            for key in values.values():
                assert t("ja", key) != key and t("en", key) != key, key
