"""Record the differential fixture: seeded logs per title and today's judgement of each.

    python -m tests.rules.differential.record                  # logs and outcomes, all titles
    python -m tests.rules.differential.record --expected-only  # keep the logs, re-judge them
    python -m tests.rules.differential.record --title kobayakawa --expected-only
    python -m tests.rules.differential.record --show kamiza:123  # one log's outcome, in full

Run it only to change the fixture deliberately: after a change of the rules that is meant to
change judgements, first read what `tests/rules/test_differential.py` reports (each mismatch
with a diff against the engine that recorded the fixture, rebuilt from git), then re-judge the
stored logs with `--expected-only` and commit the new `*.expected.jsonl.gz` with the change. A
full run (without `--expected-only`) draws the logs again with `rules.random_play.random_match`
and the mutations below; with an unchanged engine and random play it rewrites the same bytes.
Counts and parameters of the last run go to `data/manifest.json`.

The corpus per title: complete random games (every player count and option mix), a few
hundred complete games of a biased policy that reach endings random play almost never does
(KAMIZA WANTED drop-outs, Kobayakawa ended by too few players), and mutants
of some of them, written right after the game they come from: truncated prefixes, an action
replaced by another legal one or by a well-formed illegal one, a wrong player, malformed
fields, swapped / doubled / dropped actions, an action after the end, bad headers (format,
game, players, options, setup) and, for Kobayakawa, a setup without the decks of later rounds.
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import random
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/rules, as pytest has it

from differential import outcome
from differential.fixture import (
    DATA,
    REPO,
    TITLES,
    expected_path,
    logs_path,
    read_jsonl,
    write_jsonl,
)
from rules.log import apply_entry, new_header, start
from rules.random_play import random_match

COMPLETE = dict.fromkeys(TITLES, 4800)
SCRIPTED: dict[str, dict[str, int]] = {  # how many scripted games of each rare ending
    "kamiza": {"drop-out": 220, "match-ended-by-drop-outs": 80},
    "kobayakawa": {"too-few-players": 200},
    "rights-of-losers": {},
}
MUTANTS_PER_GAME = (0, 1, 1, 1, 2, 2)  # drawn per complete game: 7/6 on average
NAMES = ("ann", "ben", "cho", "dev", "eve", "fay", "gus", "hana", "さくら", "Zoë K")
STRANGER = "zed"

KAMIZA_CARDS = ("boss", "underboss", "hitman", "policeman", "raid")
AREAS = ("kamiza", "shimoza")
KOBAYAKAWA_ACTIONS = (
    {"action": "draw", "keep": "drawn"},
    {"action": "draw", "keep": "held"},
    {"action": "kobayakawa"},
    {"action": "fight"},
    {"action": "pass"},
)
SUITS = ("red", "yellow", "green", "blue", "purple")
LOSERS_CARDS = tuple(f"{suit}-{n}" for suit in SUITS for n in range(1, 11))
WRONG_VALUES = (None, 5, -1, 1.5, True, "x", "", [], {}, ["kamiza"], {"a": 1})

Log = dict[str, Any]


# -- the games -------------------------------------------------------------------------------------


def game_seed(title: str, k: int) -> int:
    return TITLES.index(title) * 1_000_003 + k


def settings(title: str, k: int, rng: random.Random) -> tuple[list[str], dict[str, Any] | None]:
    """Players and options of game k: every player count, and for KAMIZA every option mix."""
    if title == "kamiza":
        n = 3 + k % 2
        options = {"edition": ("second", "classic")[k // 2 % 2], "advanced": k // 4 % 2 == 1}
    elif title == "kobayakawa":
        n, options = 3 + k % 4, None
    else:
        n, options = 3 + k % 3, None
    return rng.sample(NAMES, n), options


def replay_steps(log: Log) -> tuple[list[Any], list[list[dict[str, Any]]]]:
    """The states before each action (deep copies) and each action's events, of a valid log."""
    state = start(log)
    states, events = [], []
    for entry in log["actions"]:
        states.append(state.clone())
        events.append([e.to_json() for e in apply_entry(state, entry)])
    states.append(state)
    return states, events


# -- mutations -------------------------------------------------------------------------------------
# Each takes (title, base log, states, events, rng) and returns (kind, mutant) or None.

Mutation = Callable[[str, Log, list[Any], list[Any], random.Random], tuple[str, Any] | None]


def _copy(log: Log) -> Log:
    return copy.deepcopy(log)


def _index(log: Log, rng: random.Random) -> int:
    return rng.randrange(len(log["actions"]))


def shaped_action(title: str, players: list[str], rng: random.Random) -> dict[str, Any]:
    """A well-formed action of the title, legal or not."""
    if title == "kamiza":
        return {"card": rng.choice(KAMIZA_CARDS), "area": rng.choice(AREAS)}
    if title == "kobayakawa":
        return dict(rng.choice(KOBAYAKAWA_ACTIONS))

    def spot() -> list[int]:
        return [rng.randint(-1, 9), rng.randint(-1, 9)]

    def cell() -> list[int]:
        return [rng.randint(-1, 5), rng.randint(-1, 5)]

    kinds = ("play", "play", "chip", "chip", "build", "appoint", "reverse", "move", "pass")
    kind = rng.choice(kinds)
    if kind == "play":
        return {"action": "play", "card": rng.choice(LOSERS_CARDS)}
    if kind == "chip":
        return {"action": "chip", "at": spot()}
    if kind == "build":
        return {"action": "build", "cards": rng.sample(LOSERS_CARDS, 2), "at": [cell(), cell()]}
    if kind == "appoint":
        return {"action": "appoint", "lead": rng.choice([*players, STRANGER])}
    if kind == "move":
        return {"action": "move", "from": spot(), "to": spot()}
    return {"action": kind}


def prefix(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    cut = rng.randrange(len(log["actions"]))
    mutant = _copy(log)
    mutant["actions"] = mutant["actions"][:cut]
    return f"prefix@{cut}", mutant


def replace_legal(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    """Another action that was legal at that point; the rest of the log is kept."""
    for _ in range(5):
        k = _index(log, rng)
        entry = log["actions"][k]
        state = states[k]
        legal = [a.to_json() for a in state.legal_actions(entry["player"])]
        others = [a for a in legal if {"player": entry["player"], **a} != entry]
        if others:
            mutant = _copy(log)
            mutant["actions"][k] = {"player": entry["player"], **rng.choice(others)}
            return f"replace-legal@{k}", mutant
    return None


def replace_shaped(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    """A well-formed action, usually illegal at that point (right player)."""
    k = _index(log, rng)
    mutant = _copy(log)
    player = log["actions"][k]["player"]
    mutant["actions"][k] = {"player": player, **shaped_action(title, log["players"], rng)}
    return f"replace-shaped@{k}", mutant


def wrong_player(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    k = _index(log, rng)
    mutant = _copy(log)
    entry = mutant["actions"][k]
    others = [p for p in log["players"] if p != entry["player"]]
    entry["player"] = rng.choice([*others, *others, STRANGER, 5, None, [entry["player"]]])
    return f"wrong-player@{k}", mutant


def malformed(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    k = _index(log, rng)
    mutant = _copy(log)
    entry = mutant["actions"][k]
    fields = [f for f in entry if f != "player"]
    hows = ("not-object", "no-player", "drop-field", "extra-field", "wrong-type", "wrong-type")
    how = rng.choice((*hows, "shape"))
    if how == "not-object":
        mutant["actions"][k] = rng.choice([[entry], json.dumps(entry), 7, None, True])
    elif how == "no-player":
        del entry["player"]
    elif how == "drop-field" and fields:
        del entry[rng.choice(fields)]
    elif how == "extra-field":
        entry[rng.choice(("extra", "keep", "card", "at", "Action", "player "))] = rng.choice(
            WRONG_VALUES
        )
    elif how == "wrong-type" and fields:
        entry[rng.choice(fields)] = rng.choice(WRONG_VALUES)
    else:
        how = "shape"
        _reshape(title, entry, rng)
    return f"malformed:{how}@{k}", mutant


def _reshape(title: str, entry: dict[str, Any], rng: random.Random) -> None:
    """Almost-right values: a case slip, a float coordinate, a list of the wrong length..."""
    if title == "kamiza":
        key = rng.choice(("card", "area"))
        entry[key] = rng.choice((str(entry[key]).capitalize(), str(entry[key]).upper(), "top"))
    elif title == "kobayakawa":
        kind = entry.get("action")
        if kind == "draw":
            entry.update(rng.choice(({"keep": "both"}, {"keep": None}, {"action": "fight"})))
            if entry["action"] == "fight":
                entry["keep"] = "drawn"
        else:
            entry.update(rng.choice(({"keep": "drawn"}, {"action": "Fight"}, {"action": "draw"})))
    else:
        odd = rng.choice(
            ([1], [1, 2, 3], ["1", "2"], [1.0, 2], [True, 1], [2, False], "[1,2]", [[1, 2]])
        )
        kind = entry.get("action")
        if kind == "build":
            if rng.random() < 0.5:
                entry["cards"] = rng.choice(
                    (entry["cards"][:1], [*entry["cards"], "red-1"], [entry["cards"][0]] * 2)
                )
            else:
                entry["at"] = rng.choice((entry["at"][:1], [entry["at"][0], odd], odd))
        elif kind in ("chip", "move"):
            entry[rng.choice(("at",) if kind == "chip" else ("from", "to"))] = odd
        elif kind == "play":
            entry["card"] = rng.choice(("red-11", "Red-7", "red7", "red-0", "pink-3"))
        elif kind == "appoint":
            entry["lead"] = rng.choice((5, None, [entry["lead"]]))
        else:
            entry["action"] = rng.choice(("Pass", "reverse ", "skip"))


def swap(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    if len(log["actions"]) < 2:
        return None
    k = rng.randrange(len(log["actions"]) - 1)
    mutant = _copy(log)
    actions = mutant["actions"]
    actions[k], actions[k + 1] = actions[k + 1], actions[k]
    return f"swap@{k}", mutant


def duplicate(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    k = _index(log, rng)
    mutant = _copy(log)
    mutant["actions"].insert(k, copy.deepcopy(mutant["actions"][k]))
    return f"duplicate@{k}", mutant


def drop(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    k = _index(log, rng)
    mutant = _copy(log)
    del mutant["actions"][k]
    return f"drop@{k}", mutant


def after_end(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    mutant = _copy(log)
    player = rng.choice(log["players"])
    mutant["actions"].append({"player": player, **shaped_action(title, log["players"], rng)})
    return "after-end", mutant


def header_ok(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    """Header changes the log format allows: defaults left out, extra setup keys, other names."""
    mutant = _copy(log)
    how = rng.choice(("no-format", "no-options", "setup-extra", "rename", "rename"))
    if how == "no-format":
        del mutant["format"]
    elif how == "no-options":
        del mutant["options"]  # KAMIZA: the defaults, which may not be the options played
    elif how == "setup-extra":
        mutant["setup"]["table"] = {"channel": 42, "note": "x"}
    else:
        old = rng.choice(log["players"])
        new = rng.choice([n for n in (*NAMES, STRANGER, "Ann", "ann ") if n not in log["players"]])
        mutant = _rename(mutant, old, new)
        how = f"rename:{old}->{new}"
    return f"header-ok:{how}", mutant


def _rename(value: Any, old: str, new: str) -> Any:
    if isinstance(value, dict):
        return {(new if k == old else k): _rename(v, old, new) for k, v in value.items()}
    if isinstance(value, list):
        return [_rename(v, old, new) for v in value]
    return new if value == old else value


def header_bad(title: str, log: Log, states: list[Any], events: list[Any], rng: random.Random):
    """A header the log format refuses (or that the engine may crash on: recorded as it is)."""
    mutant = _copy(log)
    players = mutant["players"]
    choices: dict[str, Callable[[], None]] = {
        "format": lambda: mutant.update(format=rng.choice((2, 0, "1", None, 1.5))),
        "no-game": lambda: mutant.pop("game"),
        "no-players": lambda: mutant.pop("players"),
        "no-setup": lambda: mutant.pop("setup"),
        "game": lambda: mutant.update(
            game=rng.choice(("chess", "Kamiza", "", None, 5, ["kamiza"], {"name": title}))
        ),
        "other-game": lambda: mutant.update(game=rng.choice([t for t in TITLES if t != title])),
        "players-few": lambda: mutant.update(players=players[:2]),
        "players-many": lambda: mutant.update(
            players=players + [n for n in NAMES if n not in players][: 7 - len(players)]
        ),
        "players-dup": lambda: mutant.update(players=[*players[:-1], players[0]]),
        "players-type": lambda: mutant.update(
            players=rng.choice(([*players[:-1], 5], ",".join(players), {p: 1 for p in players}))
        ),
        "options-unknown": lambda: mutant.update(
            options={**(mutant.get("options") or {}), rng.choice(("speed", "Edition")): True}
        ),
        "options-simultaneous": lambda: mutant.update(
            options={**(mutant.get("options") or {}), "simultaneous": True}
        ),
        "options-type": lambda: mutant.update(options=rng.choice((["second"], "second", 1))),
        "setup-type": lambda: mutant.update(setup=rng.choice(([], "x", None))),
        "start": lambda: mutant["setup"].update(
            {_start_key(title): rng.choice((STRANGER, None, 3, players[0].upper()))}
        ),
        "no-start": lambda: mutant["setup"].pop(_start_key(title)),
        "actions-type": lambda: mutant.update(actions=rng.choice(({}, "[]", None, 3))),
        "not-object": lambda: None,
    }
    if title == "kamiza":
        choices["edition"] = lambda: mutant["options"].update(
            edition=rng.choice(("third", "Classic", None, 2))
        )
        choices["advanced"] = lambda: mutant["options"].update(
            advanced=rng.choice(("true", 1, 0, None))
        )
    elif title == "kobayakawa":
        choices["decks"] = lambda: _bad_decks(mutant["setup"], rng)
        choices["decks2"] = choices["decks"]
    else:
        choices["hands"] = lambda: _bad_hands(mutant["setup"], players, rng)
        choices["hands2"] = choices["hands"]
    how = rng.choice(sorted(choices))
    choices[how]()
    if how == "not-object":
        return "header-bad:not-object", rng.choice(([log["game"]], "kamiza", 1, None))
    return f"header-bad:{how}", mutant


def _start_key(title: str) -> str:
    return "lead_player" if title == "rights-of-losers" else "start_player"


def _bad_decks(setup: dict[str, Any], rng: random.Random) -> None:
    decks = setup["decks"]
    i = rng.randrange(len(decks))
    how = rng.randrange(8)
    if how == 0:
        setup["decks"] = []
    elif how == 1:
        setup["decks"] = [*decks, decks[0]]  # 8 decks
    elif how == 2:
        decks[i][0] = decks[i][1]  # a card twice
    elif how == 3:
        decks[i] = decks[i][:14]
    elif how == 4:
        decks[i][rng.randrange(15)] = rng.choice((True, "3", 3.0, 16, 0))
    elif how == 5:
        setup["decks"] = rng.choice(({"1": decks[0]}, "1..15", None))
    elif how == 6:
        decks[i] = {"cards": decks[i]}
    else:
        del setup["decks"]


def _bad_hands(setup: dict[str, Any], players: list[str], rng: random.Random) -> None:
    hands = setup["hands"]
    p, q = rng.sample(players, 2)
    how = rng.randrange(8)
    if how == 0:
        del hands[p]
    elif how == 1:
        hands[STRANGER] = hands[p]
    elif how == 2:
        hands[p] = hands[p][:9]
    elif how == 3:
        hands[p][0] = hands[q][0]  # dealt twice
    elif how == 4:
        hands[p][1] = hands[p][0]  # twice in one hand
    elif how == 5:
        hands[p][rng.randrange(10)] = rng.choice(("red-11", "gold-1", 7, None))
    elif how == 6:
        setup["hands"] = rng.choice((list(hands.values()), "x", None))
    else:
        hands[p] = ",".join(hands[p])


def kobayakawa_decks(title: str, log: Log, states: list[Any], events: list[Any], rng):
    """A setup without the decks of the rounds after round k; the log cut inside round k or
    kept whole (today: refused at the action that would start round k + 1, unless the game
    ended there). Recorded as today's engine judges it, whatever that is."""
    if title != "kobayakawa":
        return None
    first: dict[int, int] = {1: 0}  # round -> index of its first action
    for index, evs in enumerate(events):
        for event in evs:
            if event["type"] == "round_started":
                first[event["round"]] = index + 1
    last = max(first)
    k = rng.randint(1, last - 1 if last == 7 else last)
    mutant = _copy(log)
    mutant["setup"]["decks"] = mutant["setup"]["decks"][:k]
    end = first.get(k + 1, len(log["actions"]))
    if rng.random() < 0.5:
        return f"decks-cut:{k}/{last}", mutant
    cut = rng.randint(first[k], end)
    mutant["actions"] = mutant["actions"][:cut]
    return f"decks-cut:{k}/{last}@{cut}", mutant


MUTATIONS: tuple[tuple[Mutation, int], ...] = (
    (prefix, 16),
    (header_ok, 7),
    (kobayakawa_decks, 9),
    (replace_legal, 9),
    (replace_shaped, 12),
    (wrong_player, 9),
    (malformed, 14),
    (swap, 4),
    (duplicate, 3),
    (drop, 3),
    (after_end, 6),
    (header_bad, 12),
)


# -- scripted games: rare endings random play seldom reaches ------------------------------------


def scripted_game(title: str, k: int) -> tuple[str, Log] | None:
    """A game played by a biased policy, kept (with what it reached) only if it reached a rare
    case: KAMIZA (second edition) WANTED drop-outs and a match ended by them (K-10), Kobayakawa
    a game ended by too few players still in (B-7). The policies read the state only through
    `legal_actions`, `view` and the log they write."""
    rng = random.Random(f"{title}:scripted:{k}")
    if title == "kamiza":
        players = rng.sample(NAMES, 3 + k % 2)
        options = {"edition": "second", "advanced": k % 3 == 0}
    else:
        players, options = rng.sample(NAMES, 3 + k % 4), None
    log = new_header(title, players, options, seed=rng.randrange(2**32))
    state = start(log)
    corrupt = set(rng.sample(log["players"], rng.choice((1, 2))))
    events: list[dict[str, Any]] = []
    while (nxt := state.next()) is not None:
        legal = state.legal_actions(nxt.player)
        if title == "kamiza":
            action = _bribing(state, nxt.player, legal, log["actions"], corrupt, rng)
        else:
            fight = [a for a in legal if a.to_json() == {"action": "fight"}]
            action = fight[0] if fight else rng.choice(legal)
        events.extend(e.to_json() for e in state.apply(nxt.player, action))
        log["actions"].append({"player": nxt.player, **action.to_json()})
    if title == "kamiza":
        dropped = state.details()["dropped"]
        if len(dropped) >= len(players) - 1:
            return "match-ended-by-drop-outs", log
        return ("drop-out", log) if dropped else None
    ended = [e for e in events if e["type"] == "game_ended"]
    return ("too-few-players", log) if ended[-1]["reason"] == "too_few_players" else None


def _bribing(state, player, legal, actions, corrupt, rng: random.Random) -> Any:
    """KAMIZA: the corrupt players put their policeman in kamiza, the next player a Boss or an
    Underboss beside it (a paid bribe: a WANTED chip), the others keep out of kamiza."""
    table = state.view(player)["table"]  # this round's plays so far
    this_round = actions[len(actions) - len(table) :] if table else []
    in_kamiza = [a for a in this_round if a["area"] == "kamiza"]
    policeman = any(a["card"] == "policeman" for a in in_kamiza)
    by_json = {(a.to_json()["card"], a.to_json()["area"]): a for a in legal}
    corrupt_turn = player in corrupt and not policeman
    if corrupt_turn and ("policeman", "kamiza") in by_json and rng.random() < 0.9:
        return by_json["policeman", "kamiza"]
    if policeman and len(in_kamiza) == 1:
        for card in ("boss", "underboss"):
            if (card, "kamiza") in by_json and rng.random() < 0.9:
                return by_json[card, "kamiza"]
    if policeman:
        away = [a for (card, area), a in by_json.items() if area == "shimoza" and card != "boss"]
        if away:
            return rng.choice(away)
    return rng.choice(legal)


def corpus(title: str, complete: int, scripted: dict[str, int]) -> Iterator[dict[str, Any]]:
    """The logs of one title, each as {"kind": ..., "log": ...}: random games then scripted
    ones, each followed by its mutants."""
    for k in range(complete):
        rng = random.Random(f"{title}:{k}")
        players, options = settings(title, k, rng)
        _, log = random_match(title, players, game_seed(title, k), options)
        yield {"kind": "complete", "log": log}
        yield from mutants(title, log, rng)
    wanted = {what: n for what, n in scripted.items() if n}
    for k in range(200 * sum(wanted.values())):
        if not wanted:
            break
        game = scripted_game(title, k)
        if game is None or game[0] not in wanted:
            continue
        yield {"kind": f"complete-scripted:{game[0]}", "log": game[1]}
        yield from mutants(title, game[1], random.Random(f"{title}:scripted-mutants:{k}"))
        wanted[game[0]] -= 1
        if not wanted[game[0]]:
            del wanted[game[0]]


def mutants(title: str, log: Log, rng: random.Random) -> Iterator[dict[str, Any]]:
    count = rng.choice(MUTANTS_PER_GAME)
    if not count:
        return
    states, events = replay_steps(log)
    functions = [m for m, _ in MUTATIONS]
    weights = [w for _, w in MUTATIONS]
    made = 0
    while made < count:
        mutation = rng.choices(functions, weights)[0]
        mutant = mutation(title, log, states, events, rng)
        if mutant is not None:
            yield {"kind": mutant[0], "log": mutant[1]}
            made += 1


# -- recording -------------------------------------------------------------------------------------


def judge(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [outcome.summary(outcome.compute(entry["log"])) for entry in entries]


def reread(entries: Iterator[dict[str, Any]]) -> list[dict[str, Any]]:
    """Entries as the fixture file gives them back (the outcome is computed from these)."""
    texts = (json.dumps(e, separators=(",", ":"), ensure_ascii=False) for e in entries)
    return [json.loads(text) for text in texts]


def git(*args: str) -> str:
    try:
        done = subprocess.run(
            ["git", *args], cwd=REPO, capture_output=True, text=True, timeout=60, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return ""
    return done.stdout.strip()


def record(
    titles: list[str],
    expected_only: bool,
    complete: dict[str, int],
    scripted: dict[str, dict[str, int]],
    root: Path,
) -> None:
    manifest_path = root / "manifest.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    manifest.setdefault("titles", {})
    for title in titles:
        began = time.perf_counter()
        if expected_only:
            entries = list(read_jsonl(logs_path(title, root)))
        else:
            entries = reread(corpus(title, complete[title], scripted[title]))
            write_jsonl(logs_path(title, root), entries)
        summaries = judge(entries)
        write_jsonl(expected_path(title, root), summaries, sort_keys=True)
        kinds = Counter(e["kind"].split("@")[0].split(":")[0] for e in entries)
        rare = Counter(e["kind"] for e in entries if e["kind"].startswith("complete-scripted"))
        refused = sum(s["refused"] is not None for s in summaries)
        errors = Counter(s["refused"]["error"] for s in summaries if s["refused"] is not None)
        stats = {
            "logs": len(entries),
            "complete_games": kinds["complete"] + kinds["complete-scripted"],
            "scripted_games": dict(sorted(rare.items())),
            "refused": refused,
            "refused_at_header": sum(
                s["refused"] is not None and s["refused"]["at"] == "header" for s in summaries
            ),
            "accepted_over": sum(s["refused"] is None and s["over"] is True for s in summaries),
            "accepted_not_over": sum(
                s["refused"] is None and s["over"] is not True for s in summaries
            ),
            "errors": dict(sorted(errors.items())),
            "kinds": dict(sorted(kinds.items())),
            "logs_bytes": logs_path(title, root).stat().st_size,
            "expected_bytes": expected_path(title, root).stat().st_size,
        }
        manifest["titles"][title] = stats
        print(f"{title}: {json.dumps(stats)} in {time.perf_counter() - began:.0f} s", flush=True)
    manifest.update(
        {
            "recorded_with": {
                "rules_last_changed_in": git("log", "-1", "--format=%H", "--", "rules"),
                "rules_tree": git("rev-parse", "HEAD:rules"),
                "rules_changed_since_commit": bool(git("status", "--porcelain", "--", "rules")),
                "python": platform.python_version(),
            },
            "parameters": {
                "sampled_positions": "index * 37 % 97 < 19",
                "legal_in_full": outcome.LEGAL_IN_FULL,
                "part_digest_hex": outcome.PART_DIGEST,
            },
        }
    )
    manifest_path.write_text(json.dumps(manifest, indent=1, ensure_ascii=False) + "\n")


def show(spec: str, root: Path) -> None:
    """Print one stored log and its current outcome in full (spec: TITLE:INDEX)."""
    title, _, index = spec.rpartition(":")
    for i, entry in enumerate(read_jsonl(logs_path(title, root))):
        if i == int(index):
            out = json.loads(outcome.canonical(outcome.compute(entry["log"])))
            print(json.dumps({**entry, "outcome": out}, indent=1, ensure_ascii=False))
            return
    raise SystemExit(f"{title} has no log {index}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", action="append", choices=TITLES, help="default: all")
    parser.add_argument("--expected-only", action="store_true", help="re-judge the stored logs")
    parser.add_argument("--complete", type=int, help="complete games per title (a trial run)")
    parser.add_argument("--out", type=Path, default=DATA, help="default: %(default)s")
    parser.add_argument("--show", metavar="TITLE:INDEX", help="print one log's outcome")
    args = parser.parse_args(argv)
    if args.show:
        show(args.show, args.out)
        return 0
    complete = {t: args.complete or n for t, n in COMPLETE.items()}
    scripted = {
        t: {
            what: n if args.complete is None else min(n, args.complete // 20)
            for what, n in q.items()
        }
        for t, q in SCRIPTED.items()
    }
    record(args.title or list(TITLES), args.expected_only, complete, scripted, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
