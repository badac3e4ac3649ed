"""What a whole game left in the thread, checked against its log: every turn of a member was
told by a notification, and no round's message ever showed another round or changed after it
was closed. The same checks for every game."""

from __future__ import annotations

import re
from collections import Counter

from fakediscord.state import Channel, FakeState, Message, Version

from rules.log import apply_entry, start

# A table message's round, from its title: "Game 2/3 · Round 1/3", "Round 5/7",
# "Trick 4/10" (the English titles of KAMIZA, Kobayakawa and Rights of Losers).
ROUND = re.compile(r"(?:Game \d+/\d+ · )?(?:Round|Trick) \d+")
HAND_BUTTON = "g:hand:"
WHY_BUTTON = "g:why:"
# Not a play: the "?" that explains the rules, and the final standings' Rematch and Leaderboard.
NOT_PLAYS = (WHY_BUTTON, "g:rematch:", "g:board:")


def member_turns(log: dict, members: set[str]) -> Counter[str]:
    """Each member's turns in a finished game's log: the runs of actions one player took in a row
    within one round (a chip after a chip, a keep after a draw, is the same turn)."""
    state, turns = start(log), Counter[str]()
    previous: tuple[str, int] | None = None
    for entry in log["actions"]:
        acting = (entry["player"], state.round_number())
        if acting != previous and entry["player"] in members:
            turns[entry["player"]] += 1
        previous = acting
        apply_entry(state, entry)
    return turns


def thread_messages(state: FakeState, thread: Channel) -> list[Message]:
    """Every public message the bot created in the thread, deleted ones too."""
    return [m for m in state.messages_in.get(thread.id, []) if not m.ephemeral]


def notifications(state: FakeState, thread: Channel, user_id: int) -> list[Message]:
    return [m for m in thread_messages(state, thread) if user_id in m.notified]


def round_of(version: Version) -> str | None:
    """The round a table message shows, from its title (a layout's "### " heading, or an
    embed's title)."""
    headings = [line for line in version.text.splitlines() if line.startswith("### ")]
    titles = [e.get("title", "") for e in version.embeds] + headings
    found = [m.group(0) for t in titles if (m := ROUND.search(t))]
    return found[0] if found else None


def live(version: Version) -> bool:
    """The version offers something to play with: an enabled button but the "?" that explains
    the rules (`g:why:`, kept on closed rounds and reveals) and the standings' buttons."""
    return any(
        not b.get("disabled") and not b["custom_id"].startswith(NOT_PLAYS)
        for b in version.buttons()
    )


def assert_history_true(state: FakeState, thread: Channel) -> int:
    """Every table message shows one round all its life; once closed (its buttons gone) it never
    changes again and names nobody to play; at the end nothing in the thread
    can be played with. Returns how many table messages there were."""
    tables = 0
    for message in thread_messages(state, thread):
        versions = message.versions
        if not any(b["custom_id"].startswith(HAND_BUTTON) for b in versions[0].buttons()):
            continue
        tables += 1
        rounds = {r for v in versions if (r := round_of(v)) is not None}
        assert len(rounds) == 1, (message.id, [v.text for v in versions], rounds)
        closed = next((i for i, v in enumerate(versions) if not live(v)), None)
        if closed is not None:
            assert all(v == versions[closed] for v in versions[closed:]), message.id
            shown = versions[closed]  # names nobody to play, in its text or its picture
            assert "▶️" not in shown.text and "Turn:" not in shown.text, shown
            assert "Turn:" not in str(shown.embeds), shown
            # ...and keeps the "?" of the rules that decided its round (issue "At the table")
            assert any(b["custom_id"].startswith(WHY_BUTTON) for b in shown.buttons()), shown
    for message in thread_messages(state, thread):
        if not message.deleted:
            assert not live(message.versions[-1]), (message.id, message.text)
    return tables


def assert_every_turn_pinged(
    state: FakeState, thread: Channel, log: dict, members: dict[str, int]
) -> int:
    """Per member (player name -> user id): as many notifications as turns, each a new message
    naming them alone, and no ping left standing once the game is over. Returns the turns."""
    turns = member_turns(log, set(members))
    for player, user_id in members.items():
        pings = notifications(state, thread, user_id)
        assert len(pings) == turns[player], (player, len(pings), turns[player])
        assert all(p.notified == {user_id} and p.deleted for p in pings), player
    return sum(turns.values())
