"""A bot's decision and a hint, computed beside the event loop from what the seat may see.

The server first turns the head's state into an *observation*: the game's sampler replaces
everything the seat cannot see (face-down orders, unrevealed tiles, the campaign's generator) by a
completion drawn from the bot's own generator. Only that observation leaves the event loop, to a
worker process (or a thread), so neither the bot nor the worker ever holds the campaign's
secrets. The policy samples again before it looks, as it does for any state it is handed.

Everything here is deterministic: the seed of a decision is derived from the campaign, the seat
and the version, so two processes that decide the same move choose the same action.
"""

from __future__ import annotations

import functools
import hashlib
import os
import signal
from typing import Any

from domain.bots import make_policy
from domain.bots.hints import hint
from domain.bots.knowledge import knowledge_of
from domain.core.game import Game
from domain.core.rng import Chance, Rng
from domain.games import game_for, get_game
from server.ops.orphans import end_with_parent
from server.settings import BotPriority


def start_worker(priority: BotPriority) -> None:
    """Set up a bot worker process as it starts: give it its ``priority``, and make it end with
    the server process that started it.

    A bot's thinking is CPU-bound and, on a busy machine, competes with the event loop that
    serves people and with everything else the server runs. At ``idle`` (Linux's SCHED_IDLE) a
    worker runs only when nothing else wants the CPU, and any other process that wakes takes the
    core from it at once; under load the bots' moves come later, and nobody's round trip does.
    Nice 19 (``low``) is not enough for that: the kernel still lets a niced task finish its
    slice, and the loop's wake-ups queue behind it (``docs/performance.md``, "Bot partners").
    A thread could do neither: it shares the loop's interpreter lock, so bots without worker
    processes are for tests and small tables.

    A worker ignores Ctrl-C, which a terminal sends to the server and its workers alike: the
    server ends them when it stops. A worker killed with its server would wait for work
    forever: it ends at once instead (:mod:`server.ops.orphans`); nothing of a decision in flight
    is worth keeping then.
    """
    # Ctrl-C in a terminal reaches the whole process group: the server stops its workers
    # itself (``BotDriver.close``), and a worker interrupted on its own only prints a traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if priority == "idle" and hasattr(os, "SCHED_IDLE"):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    elif priority != "normal":
        os.nice(19)
    end_with_parent(functools.partial(os._exit, 0))


def decision_seed(campaign_id: str, seat: str, version: int, purpose: str) -> int:
    digest = hashlib.sha256(f"{purpose}:{campaign_id}:{seat}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def observation(game: Game, state: Any, seat: str, seed: int) -> Any:
    """A full state ``seat`` could be in, given only what it may see of ``state``."""
    return knowledge_of(game).sample(state, seat, Chance(Rng(seed, 0, "observation")))


def decide(
    game_name: str, seen: Any, seat: str, level: int, seed: int, ruleset: str = ""
) -> tuple[str, str]:
    """The search bot's action for ``seat``: ``(id, label)``, under the campaign's ``ruleset``
    (empty: the one in force). Runs in a worker."""
    game = game_for(game_name, ruleset) if ruleset else get_game(game_name)
    chosen = make_policy(game, seed, level).decide(game, seen, seat)
    return chosen.id, chosen.label


def advise(
    game_name: str, seen: Any, seat: str, level: int, seed: int, ruleset: str = ""
) -> tuple[str, str, str]:
    """What the search bot would do for ``seat``, and why: ``(id, label, reason)``."""
    game = game_for(game_name, ruleset) if ruleset else get_game(game_name)
    found = hint(game, seen, seat, level=level, seed=seed)
    return found.action.id, found.action.label, found.reason
