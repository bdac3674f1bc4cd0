"""Seeded simulations: many campaigns played by a bot through the campaign service.

Everything is derived from the simulation seed (campaign ids, seeds, salts, bot choices, a clock
that stands still), so the same arguments give byte-identical exports.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from domain.core.events import Options
from domain.core.game import Game
from domain.core.rng import word
from domain.games import get_game
from server.bots import Policy, RandomBot
from server.fresh import Counted
from server.service import CampaignService
from server.store.memory import MemoryStore

MAX_ACTIONS = 100_000  # a guard against a game that never ends; no real game comes near it


class Report(msgspec.Struct):
    games: int
    wins: int
    losses: int
    events: int
    events_per_s: float
    avg_days: float | None = None


class ExportLine(msgspec.Struct):
    campaign: str
    version: int
    event: Any
    hash: str
    seat: str | None


@dataclass
class Simulation:
    game: str
    games: int
    seed: int
    seats: tuple[str, ...] | None = None
    options: Options = field(default_factory=dict)
    policy: Policy | None = None
    finished: Callable[[Game, Any], str] | None = None
    """Optional: when a game-specific episode ends before the campaign does (an Eila chapter)."""


def _episode_result(sim: Simulation, game: Game, state: Any) -> str:
    if sim.finished is not None:
        return sim.finished(game, state)
    return game.outcome(state)


async def run(
    sim: Simulation,
    *,
    export: IO[bytes] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    game = get_game(sim.game)
    service = CampaignService(MemoryStore(), fresh=Counted(f"sim{sim.seed}", sim.seed), clock=_zero)
    encoder = msgspec.json.Encoder()
    wins = losses = events = 0
    days: list[int] = []
    started = time.perf_counter()
    for n in range(sim.games):
        created = await service.create(
            sim.game, seed=word(sim.seed, n), options=sim.options, seats=sim.seats
        )
        bot = RandomBot(word(sim.seed, sim.games + n), sim.policy)
        version, state = await service.state_at(created.id)
        result = _episode_result(sim, game, state)
        steps = 0
        while result == "running":
            steps += 1
            if steps > MAX_ACTIONS:
                raise RuntimeError(f"Campaign {created.id} did not end in {MAX_ACTIONS} actions.")
            seat, choice = bot.choose(game, state)
            acted = await service.act(
                created.id, seat, choice.id, expected_version=version, command_id=f"b{steps}"
            )
            version, state = await service.state_at(created.id)
            assert version == acted.last
            result = _episode_result(sim, game, state)
        wins += result == "won"
        losses += result == "lost"
        events += version
        day = getattr(state, "day", None)
        if isinstance(day, int):
            days.append(day)
        if export is not None:
            for recorded in await service.events(created.id):
                line = ExportLine(
                    created.id, recorded.version, recorded.event, recorded.hash, recorded.seat
                )
                export.write(encoder.encode(line) + b"\n")
        if progress is not None:
            progress(n + 1, sim.games)
    elapsed = time.perf_counter() - started
    return Report(
        games=sim.games,
        wins=wins,
        losses=losses,
        events=events,
        events_per_s=round(events / elapsed, 1) if elapsed > 0 else 0.0,
        avg_days=round(sum(days) / len(days), 2) if days else None,
    )


def _zero() -> int:
    return 0
