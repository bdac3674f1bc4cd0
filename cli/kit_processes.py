"""The kit's one check that needs a second process: the same playthroughs, the same stream.

A game that orders something by a ``set`` (or by anything else that hashes strings) plays the
same in one process and differently in the next, since each process hashes strings with its own
seed: a server restarted, a campaign imported elsewhere, another worker. So the playthroughs are
played again in a child process with another ``PYTHONHASHSEED``, in the reverse order (a game
that keeps something between campaigns shows it too), and every event must come out the same.

The child is this module run with ``--child``; it loads the game from its spec
(:func:`cli.game_source.spec_of`) and prints each playthrough's events as JSON lines.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Sequence

import msgspec

from cli.game_source import loaded
from domain.core.events import Options
from domain.core.game import Game
from domain.kit import Broken, Budget
from domain.kit.checks import moves_for, seats_for
from domain.kit.playthrough import play_through

PROMISE = "same-in-every-process"


def other_hash_seed() -> str:
    """A ``PYTHONHASHSEED`` unlike this process's."""
    return "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"


def streams(game: Game, seeds: Sequence[int], moves: int, options: Options) -> dict[int, list[str]]:
    """Each playthrough's events as JSON, by seed, played in the order of ``seeds`` (a
    playthrough whose stream cannot be written as JSON is left out: other promises name it)."""
    played: dict[int, list[str]] = {}
    for seed in seeds:
        try:
            one = play_through(game, seats_for(game, seed), options, seed, moves=moves)
            played[seed] = [msgspec.json.encode(event).decode() for event in one.events]
        except Exception:  # whatever a game raises here, the in-process checks name
            continue
    return played


def across_processes(game: Game, spec: str | None, budget: Budget) -> list[Broken]:
    """The first playthrough, if any, that another process plays differently; a game with no
    spec another process can load from is told so."""
    seeds = list(range(budget.seed, budget.seed + budget.playthroughs))
    ruleset = game.info.ruleset
    if spec is None:
        detail = (
            "The game could not be named for another process to load (give check-game an "
            "installed name or the game package's folder), so this was not checked."
        )
        return [Broken(PROMISE, detail, ruleset=ruleset)]
    moves = moves_for(game, budget)
    here = streams(game, seeds, moves, budget.options)
    hash_seed = other_hash_seed()
    command = [
        sys.executable,
        "-m",
        "cli.kit_processes",
        "--child",
        spec,
        "--moves",
        str(moves),
        "--options",
        json.dumps(budget.options),
        *map(str, reversed(seeds)),
    ]
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": os.pathsep.join(sys.path)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    if done.returncode != 0:
        tail = done.stderr.strip().splitlines()[-1:] or ["no output"]
        detail = f"The game could not be played in another process: {tail[0]}"
        return [Broken(PROMISE, detail, ruleset=ruleset)]
    there: dict[int, list[str]] = {}
    for line in done.stdout.splitlines():
        seed, events = json.loads(line)
        there[int(seed)] = events
    for seed in seeds:
        one, other = here.get(seed), there.get(seed)
        if one is None or other is None:
            continue
        differs = _first_difference(one, other)
        if differs is None:
            continue
        version, mine, theirs = differs
        detail = (
            f"In another process (PYTHONHASHSEED={hash_seed}, the playthroughs in reverse "
            f"order), version {version} is {_cut(theirs)} where here it is {_cut(mine)}: the "
            "game depends on the order of a set or a dict of strings, or on something else a "
            "process does not share (a module-level cache, an id)."
        )
        return [Broken(PROMISE, detail, seed, version, seats_for(game, seed), ruleset)]
    return []


def _first_difference(one: list[str], other: list[str]) -> tuple[int, str, str] | None:
    for version, (mine, theirs) in enumerate(zip(one, other, strict=False), 1):
        if mine != theirs:
            return version, mine, theirs
    if len(one) != len(other):
        version = min(len(one), len(other)) + 1
        return version, f"{len(one)} events", f"{len(other)} events"
    return None


def _cut(text: str, most: int = 160) -> str:
    return text if len(text) <= most else text[: most - 3] + "..."


def child(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m cli.kit_processes")
    parser.add_argument("--child", required=True, help="the game's spec")
    parser.add_argument("--moves", type=int, required=True)
    parser.add_argument("--options", default="{}")
    parser.add_argument("seeds", type=int, nargs="+")
    args = parser.parse_args(argv)
    with loaded(args.child) as game:
        played = streams(game, args.seeds, args.moves, json.loads(args.options))
    for seed, events in played.items():
        print(json.dumps([seed, events]))
    return 0


if __name__ == "__main__":
    sys.exit(child(sys.argv[1:]))
