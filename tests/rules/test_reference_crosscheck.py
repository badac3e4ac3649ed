"""Cross-check `rules.log.replay` against independent reference judges written from RULES.md.

Random whole games, their prefixes, mutated logs (a random action, a wrong player, an action
repeated, an unknown or missing field, a field of the wrong type, a swap, a deletion, an
insertion), mutated headers, and random walks of mostly illegal candidate actions must get the
same answer from both: same `over`, `scores`, `winners`, `next` (and the per-game details both
report), or a refusal at the same action index (None for the header).

The default run is small; `CROSSCHECK_GAMES=5000 pytest tests/rules/test_reference_crosscheck.py`
runs that many games (and walks) per game and player count.

LOG_FORMAT.md asks for "distinct strings" as player names: both judges accept "" (see
`test_empty_player_name_is_a_name`).
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest
import reference_kamiza
import reference_kobayakawa
import reference_losers

from rules.agents import computer_action, random_action
from rules.base import IllegalAction
from rules.log import LogError, apply_entry, new_header, replay, result, start
from rules.random_play import random_match

REFERENCES = {
    "kamiza": reference_kamiza,
    "kobayakawa": reference_kobayakawa,
    "rights-of-losers": reference_losers,
}
COMMON = ("over", "scores", "winners", "next")
DETAILS = {
    "kamiza": ("wanted", "dropped"),
    "kobayakawa": ("out", "centre", "pot", "box"),
    "rights-of-losers": ("chips_left", "land", "reversed"),
}
SETUPS = [
    ("kamiza", 3, {"edition": "second", "advanced": False}),
    ("kamiza", 4, {"edition": "second", "advanced": True}),
    ("kamiza", 3, {"edition": "classic", "advanced": True}),
    ("kamiza", 4, {"edition": "classic", "advanced": False}),
    ("kobayakawa", 3, None),
    ("kobayakawa", 4, None),
    ("kobayakawa", 6, None),
    ("rights-of-losers", 3, None),
    ("rights-of-losers", 4, None),
    ("rights-of-losers", 5, None),
]
SETUP_IDS = [f"{g}-{n}-{(o or {}).get('edition', '')}" for g, n, o in SETUPS]
LONG = int(os.environ.get("CROSSCHECK_GAMES", "0"))


def games(default: int) -> int:
    return LONG or default


# -- answers ------------------------------------------------------------------------------------


def _pick(game: str, answer: dict[str, Any]) -> dict[str, Any]:
    picked = {key: answer.get(key) for key in COMMON + DETAILS[game]}
    if game == "kobayakawa":
        picked["out"] = sorted(picked["out"])
    return picked


def engine_answer(log: dict[str, Any], game: str) -> tuple[str, Any]:
    try:
        return "ok", _pick(game, replay(log))
    except LogError as exc:
        return "refused", exc.index


def reference_answer(log: dict[str, Any], game: str) -> tuple[str, Any]:
    ref = REFERENCES[game]
    try:
        return "ok", _pick(game, ref.replay(log))
    except ref.RefError as exc:
        return "refused", exc.index


def check(log: dict[str, Any], what: str, game: str | None = None) -> None:
    game = game or log["game"]
    engine, reference = engine_answer(log, game), reference_answer(log, game)
    if engine != reference:
        pytest.fail(
            f"{what}: rules/ and the reference disagree\nlog: {json.dumps(log)}\n"
            f"rules/:    {engine}\nreference: {reference}"
        )


# -- random actions -------------------------------------------------------------------------------

ALL_KAMIZA = ["boss", "underboss", "hitman", "policeman", "raid"]
LOSERS_CARDS = sorted(reference_losers.CARDS)


def _spot(rng: random.Random, top: int) -> list[int]:
    if rng.random() < 0.05:
        return [rng.randint(-1, top + 1), rng.randint(-1, top + 1)]
    return [rng.randint(0, top), rng.randint(0, top)]


def random_entry(log: dict[str, Any], index: int, rng: random.Random) -> dict[str, Any]:
    """A random, often well-formed, action to stand at `index` of `log`."""
    game, players, actions = log["game"], log["players"], log["actions"]
    if index < len(actions) and rng.random() < 0.7:
        player = actions[index]["player"]
    else:
        player = rng.choice([*players, "nobody"])
    if game == "kamiza":
        area = rng.choice(["kamiza", "shimoza", "shimoza", "kamiza", "middle"])
        return {"player": player, "card": rng.choice(ALL_KAMIZA), "area": area}
    if game == "kobayakawa":
        kind = rng.choice(["draw", "draw", "kobayakawa", "fight", "pass", "bet"])
        entry: dict[str, Any] = {"player": player, "action": kind}
        if kind == "draw":
            entry["keep"] = rng.choice(["drawn", "held", "both"])
        return entry
    earlier = actions[:index]
    kind = rng.choice(["play", "play", "chip", "chip", "build", "appoint", "reverse", "move"])
    if kind == "play":
        hand = log["setup"]["hands"].get(player, LOSERS_CARDS)
        return {"player": player, "action": "play", "card": rng.choice(hand)}
    if kind == "chip":
        return {"player": player, "action": "chip", "at": _spot(rng, 8)}
    if kind == "build":
        played = [a["card"] for a in earlier if a.get("action") == "play"][-5:] or LOSERS_CARDS
        cells = [_spot(rng, 4), _spot(rng, 4)]
        return {
            "player": player,
            "action": "build",
            "cards": rng.sample(played * 2, 2),
            "at": cells,
        }
    if kind == "appoint":
        return {"player": player, "action": "appoint", "lead": rng.choice([*players, "nobody"])}
    if kind == "move":
        mine = [a["at"] for a in earlier if a.get("action") == "chip" and a["player"] == player]
        src = rng.choice(mine) if mine and rng.random() < 0.8 else _spot(rng, 8)
        return {"player": player, "action": "move", "from": src, "to": _spot(rng, 8)}
    return {"player": player, "action": kind}


MUTATIONS = (
    "replace",
    "player",
    "repeat",
    "unknown",
    "missing",
    "swap",
    "delete",
    "insert",
    "type",
)
ODD_VALUES = (None, 0, 1.0, True, "", "X", [], {}, [0], [[0, 0]], [1.0, 2], [True, 0], [0, 0, 0])


def _odd(value: Any, rng: random.Random) -> Any:
    """A value of the wrong type or shape, or one close to `value`."""
    if isinstance(value, str) and rng.random() < 0.3:
        return rng.choice([value.upper(), value + " ", [value]])
    if isinstance(value, list) and value and rng.random() < 0.3:
        return [*value, value[0]]
    return rng.choice(ODD_VALUES)


def mutate(log: dict[str, Any], rng: random.Random) -> tuple[dict[str, Any], str]:
    actions = copy.deepcopy(log["actions"])
    if not actions:
        return log, "none"
    kind = rng.choice(MUTATIONS)
    i = rng.randrange(len(actions))
    if kind == "replace":
        actions[i] = random_entry(log, i, rng)
    elif kind == "player":
        others = [p for p in log["players"] if p != actions[i]["player"]]
        actions[i]["player"] = rng.choice([*others, "nobody"])
    elif kind == "repeat" and i > 0:
        j = rng.randrange(i)
        same = [k for k in range(i) if actions[k]["player"] == actions[i]["player"]]
        actions[i] = copy.deepcopy(actions[rng.choice(same) if same else j])
    elif kind == "unknown":
        actions[i][rng.choice(["extra", "note", "card", "action", "keep", "lead"])] = "x"
    elif kind == "missing":
        field = rng.choice(sorted(actions[i]))
        del actions[i][field]
    elif kind == "swap" and i + 1 < len(actions):
        actions[i], actions[i + 1] = actions[i + 1], actions[i]
    elif kind == "delete":
        del actions[i]
    elif kind == "insert":
        actions.insert(i, random_entry(log, i, rng))
    elif kind == "type":
        field = rng.choice(sorted(actions[i]))
        actions[i][field] = _odd(actions[i][field], rng)
    return {**log, "actions": actions}, f"{kind}@{i}"


# -- random whole games, prefixes and mutations ------------------------------------------------


@pytest.mark.parametrize(("game", "count", "options"), SETUPS, ids=SETUP_IDS)
def test_random_games_prefixes_and_mutations(
    game: str, count: int, options: dict[str, Any] | None
) -> None:
    players = [f"p{i}" for i in range(count)]
    for seed in range(games(120)):
        _, log = random_match(game, players, seed, options)
        rng = random.Random(seed)
        check(log, f"whole game seed {seed}")
        for _ in range(2):
            cut = rng.randrange(len(log["actions"]) + 1)
            check({**log, "actions": log["actions"][:cut]}, f"prefix {cut} seed {seed}")
        for _ in range(4):
            mutated, how = mutate(log, rng)
            check(mutated, f"mutation {how} seed {seed}")
        extra = random_entry(log, len(log["actions"]), rng)
        check({**log, "actions": [*log["actions"], extra]}, f"action after the end seed {seed}")


# -- headers --------------------------------------------------------------------------------------


def _header_mutations(log: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    players, setup = log["players"], log["setup"]
    lead_key = "lead_player" if "lead_player" in setup else "start_player"
    out: list[dict[str, Any]] = []

    def put(path: tuple[Any, ...], value: Any) -> None:
        new = copy.deepcopy(log)
        here = new
        for key in path[:-1]:
            here = here[key]
        if value is KeyError:
            del here[path[-1]]
        else:
            here[path[-1]] = value
        out.append(new)

    for key in ("format", "options", "actions", "game", "players", "setup"):
        put((key,), KeyError)
    for value in (2, "1", None):
        put(("format",), value)
    for value in (None, {}, {"x": 1}, {"edition": "classic"}, {"advanced": 1}, []):
        put(("options",), value)
    put(("options",), {"edition": "second", "advanced": True})
    put(("game",), "hanabi")
    put(("players",), players[:2])
    put(("players",), [*players, "x1", "x2", "x3", "x4"])
    put(("players",), [players[0]] * len(players))
    put(("players",), [*players[:-1], 7])
    put(("players",), list(reversed(players)))
    put(("setup", "seed"), "anything")
    put(("setup", lead_key), "nobody")
    put(("setup", lead_key), KeyError)
    put(("setup", lead_key), rng.choice(players))
    put(("actions",), {})
    if "decks" in setup:
        decks = setup["decks"]
        put(("setup", "decks"), decks[: rng.randint(0, 6)])
        put(("setup", "decks"), [*decks, decks[0]])
        put(("setup", "decks", rng.randrange(7)), decks[0][:14])
        put(("setup", "decks", rng.randrange(7)), [1] * 15)
        put(("setup", "decks", rng.randrange(7)), [float(n) for n in decks[0]])
        put(("setup", "decks", rng.randrange(7), rng.randrange(15)), True)
        put(("setup", "decks", rng.randrange(7)), list(reversed(decks[0])))
        put(("setup", "decks"), KeyError)
    if "hands" in setup:
        hands, who = setup["hands"], rng.choice(players)
        other = rng.choice([p for p in players if p != who])
        put(("setup", "hands", who), hands[who][:9])
        put(("setup", "hands", who, 0), hands[other][0])
        put(("setup", "hands", who, 0), "red-11")
        put(("setup", "hands", who, 0), 7)
        put(("setup", "hands", "nobody"), [])
        put(("setup", "hands", who), KeyError)
        put(("setup", "hands", who), hands[other])
        put(("setup", "hands"), {**hands, who: hands[other], other: hands[who]})
    return out


@pytest.mark.parametrize(("game", "count", "options"), SETUPS, ids=SETUP_IDS)
def test_header_mutations(game: str, count: int, options: dict[str, Any] | None) -> None:
    for seed in range(games(20) // 10 + 1):
        _, log = random_match(game, [f"p{i}" for i in range(count)], seed, options)
        cut = {**log, "actions": log["actions"][: random.Random(seed).randrange(40)]}
        for i, mutated in enumerate(_header_mutations(cut, random.Random(seed))):
            check(mutated, f"header mutation {i} seed {seed}", game)


# -- random walks: candidate actions judged one at a time ----------------------------------------


def _kamiza_candidate(ref: Any, player: str, rng: random.Random, taste: dict[str, Any]) -> dict:
    if rng.random() < taste["junk"]:
        return random_entry({"game": "kamiza", "players": ref.players, "actions": []}, 0, rng)
    hand = sorted(ref.hands[player])
    if taste["cops"] and rng.random() < 0.9:  # bribes in a row, to reach K-10 drop-outs
        cop_there = any(c == "policeman" and a == "kamiza" for _, c, a in ref.plays)
        if "policeman" in hand and not cop_there:
            return {"player": player, "card": "policeman", "area": "kamiza"}
        seated = {c for _, c, a in ref.plays if a == "kamiza"}
        for card in ("boss", "underboss"):
            if card in hand and card not in seated:
                return {"player": player, "card": card, "area": "kamiza"}
        return {"player": player, "card": hand[0], "area": "shimoza"}
    card = rng.choices(hand, [taste["card"].get(c, 1.0) for c in hand])[0]
    area = "kamiza" if rng.random() < taste["kamiza"].get(card, 0.5) else "shimoza"
    return {"player": player, "card": card, "area": area}


def _kobayakawa_candidate(ref: Any, player: str, rng: random.Random, taste: dict) -> dict:
    if rng.random() < taste["junk"]:
        return random_entry({"game": "kobayakawa", "players": ref.players, "actions": []}, 0, rng)
    if ref.phase == "draw":
        if rng.random() < 0.3:
            return {"player": player, "action": "kobayakawa"}
        return {"player": player, "action": "draw", "keep": rng.choice(["drawn", "held"])}
    fight = rng.random() < taste["fight"]
    return {"player": player, "action": "fight" if fight else "pass"}


def _losers_candidate(ref: Any, player: str, rng: random.Random, taste: dict) -> dict:
    if rng.random() < taste["junk"]:
        fake = {"game": "rights-of-losers", "players": ref.players, "actions": []}
        fake["setup"] = {"hands": {p: sorted(h) or LOSERS_CARDS for p, h in ref.hands.items()}}
        return random_entry(fake, 0, rng)
    if ref.phase == "play":
        hand = sorted(ref.hands[player])
        return {"player": player, "action": "play", "card": rng.choice(hand)}
    if ref.phase == "chip":
        near = [list(s) for s in reference_losers.SPOTS if ref.legal_spot(s)]
        spot = rng.choice(near) if near and rng.random() < 0.8 else _spot(rng, 8)
        return {"player": player, "action": "chip", "at": spot}
    if ref.phase == "build":
        trick = [c for _, c in ref.played]
        empty = [[r, c] for r, c in reference_losers.CELLS if (r, c) not in ref.board]
        cells = rng.sample(empty, 2) if len(empty) >= 2 and rng.random() < 0.8 else None
        cards = rng.sample(trick, 2) if rng.random() < 0.9 else [trick[0], trick[0]]
        return {
            "player": player,
            "action": "build",
            "cards": cards,
            "at": cells or [_spot(rng, 4), _spot(rng, 4)],
        }
    kind = rng.choices(["appoint", "reverse", "move", "pass"], taste["choice"])[0]
    if kind == "appoint":
        return {"player": player, "action": "appoint", "lead": rng.choice(ref.players)}
    if kind == "move":
        mine = [list(s) for s, p in ref.chips.items() if p == player]
        src = rng.choice(mine) if mine and rng.random() < 0.8 else _spot(rng, 8)
        near = [list(s) for s in reference_losers.SPOTS if ref.legal_spot(s)]
        dst = rng.choice(near) if near and rng.random() < 0.8 else _spot(rng, 8)
        return {"player": player, "action": "move", "from": src, "to": dst}
    return {"player": player, "action": kind}


CANDIDATES = {
    "kamiza": _kamiza_candidate,
    "kobayakawa": _kobayakawa_candidate,
    "rights-of-losers": _losers_candidate,
}


def _reference_state(log: dict[str, Any]) -> Any:
    game = log["game"]
    if game == "kamiza":
        return reference_kamiza.Match(*reference_kamiza._header(log))
    if game == "kobayakawa":
        return reference_kobayakawa.Game(*reference_kobayakawa._header(log))
    return reference_losers.Game(*reference_losers._header(log))


def _taste(game: str, rng: random.Random) -> dict[str, Any]:
    """A per-walk bias, so that walks reach rare states (drop-outs, players out, moves)."""
    return {
        "junk": rng.choice([0.0, 0.1, 0.3]),
        "card": {c: rng.choice([0.2, 1.0, 5.0]) for c in ALL_KAMIZA},
        "kamiza": {c: rng.random() for c in ALL_KAMIZA},
        "cops": game == "kamiza" and rng.random() < 0.3,
        "fight": rng.choice([0.2, 0.5, 0.9, 1.0]),
        "choice": [rng.random() for _ in range(4)],
    }


def walk(game: str, count: int, options: dict[str, Any] | None, seed: int) -> dict[str, Any]:
    """Grow a log one candidate at a time; both judges must accept or refuse each candidate."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    log = new_header(game, players, options, seed=rng.randrange(2**32))
    engine, ref = start(log), _reference_state(log)
    taste = _taste(game, rng)
    smart = rng.random() < 0.3
    while (nxt := ref.answer()["next"]) is not None:
        if rng.random() < 0.15:
            fallback = computer_action if smart else random_action
            candidate = {"player": nxt["player"], **fallback(engine, nxt["player"], rng).to_json()}
        else:
            candidate = CANDIDATES[game](ref, nxt["player"], rng, taste)
            if rng.random() < 0.1:
                candidate["player"] = rng.choice([*players, "nobody"])
        trial = copy.deepcopy(ref)
        try:
            trial.apply(candidate)
            ref_ok = True
        except ValueError:
            ref_ok = False
        try:
            apply_entry(engine, candidate)
            engine_ok = True
        except IllegalAction:
            engine_ok = False
        if ref_ok != engine_ok:
            bad = {**log, "actions": [*log["actions"], candidate]}
            pytest.fail(
                f"walk seed {seed}: rules/ {'accepts' if engine_ok else 'refuses'}, the reference "
                f"{'accepts' if ref_ok else 'refuses'}\nlog: {json.dumps(bad)}"
            )
        if ref_ok:
            ref = trial
            log["actions"].append(candidate)
            mine, theirs = _pick(game, ref.answer()), _pick(game, result(engine))
            if mine != theirs:
                pytest.fail(
                    f"walk seed {seed}: answers differ\nlog: {json.dumps(log)}\n"
                    f"rules/:    {theirs}\nreference: {mine}"
                )
    return log


@pytest.mark.parametrize(("game", "count", "options"), SETUPS, ids=SETUP_IDS)
def test_random_walks(game: str, count: int, options: dict[str, Any] | None) -> None:
    for seed in range(games(20)):
        log = walk(game, count, options, seed)
        check(log, f"walk seed {seed} replayed")


# -- the command line ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(REFERENCES))
def test_replay_command_matches_reference(game: str, tmp_path: Any) -> None:
    _, log = random_match(game, ["ann", "ben", "cho"], 7)
    bad, _ = mutate(log, random.Random(3))
    for which, entry in (("good", log), ("bad", bad)):
        path = tmp_path / f"{which}.json"
        path.write_text(json.dumps(entry), encoding="utf-8")
        run = subprocess.run(
            [sys.executable, "-m", "rules", "replay", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )
        expected = reference_answer(entry, game)
        if expected[0] == "ok":
            assert run.returncode == 0, run.stderr
            assert _pick(game, json.loads(run.stdout)) == expected[1]
        else:
            assert run.returncode == 2
            assert run.stdout == ""
            assert f"action {expected[1]}" in run.stderr


def test_empty_player_name_is_a_name() -> None:
    _, log = random_match("kamiza", ["ann", "ben", "cho"], 4)
    renamed = json.loads(json.dumps(log).replace('"ben"', '""'))
    assert "" in renamed["players"]
    ours, theirs = replay(renamed), reference_kamiza.replay(renamed)
    assert {k: ours[k] for k in ("over", "scores", "winners", "next")} == {
        k: theirs[k] for k in ("over", "scores", "winners", "next")
    }
