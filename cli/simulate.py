"""``tabletale simulate``: many campaigns played by a bot through the campaign service.

Everything is derived from the simulation seed (campaign ids, seeds, salts, bot choices, a clock
that stands still), so the same arguments give byte-identical exports. In a game played in
chapters, asking for one chapter makes each attempt at it one simulated game.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import IO, Any

import msgspec

from cli.console import Advance
from domain.bots import make_bot
from domain.core.errors import InvalidOptions
from domain.core.events import Options
from domain.core.game import Game, Outcome
from domain.core.rng import word
from domain.games import get_game
from domain.machina.summary import EternityReport, EternityTally, eternity_report, tally
from server.campaigns.fresh import Counted
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore

MAX_ACTIONS = 100_000  # a guard against a game that never ends; no real game comes near it


class Report(msgspec.Struct):
    games: int
    wins: int
    losses: int
    events: int
    events_per_s: float
    avg_days: float | None = None
    days_median: int | None = None
    """Game length in the game's rounds (``GameInfo.round_name``): the middle game (the shorter of
    the two middle ones) and the 90th percentile (nearest rank)."""
    days_p90: int | None = None
    attempts_won: int | None = None
    """In a game played in chapters: chapter attempts won and lost over every campaign."""
    attempts_lost: int | None = None
    decision_ms_p50: float | None = None
    """The bot's thinking per decision, in milliseconds of this process's CPU time (so other
    work on the machine does not count), the median and the 95th percentile."""
    decision_ms_p95: float | None = None
    eternity: EternityReport | None = None
    """Machina: how often each Eternity rule fired and each rating level came into play, and
    the rounds per expedition (see :class:`domain.machina.summary.EternityReport`)."""


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
    players: int = 1
    bot: str = "random"
    """A bot's name; ``search:N`` names the search bot at level N."""
    level: int | None = None
    """The search bot's level (None: its default)."""
    options: Options = field(default_factory=dict)
    whole_campaigns: bool = False
    """In a game played in chapters, play whole campaigns instead of one attempt at a chapter."""

    def seats(self, game: Game) -> tuple[str, ...]:
        layouts = [layout for layout in game.info.seat_layouts if len(layout) == self.players]
        if not layouts:
            raise InvalidOptions(f"{game.info.title} is not played by {self.players} players.")
        return layouts[0]

    def bot_and_level(self) -> tuple[str, int | None]:
        name, _, level = self.bot.partition(":")
        if not level:
            return name, self.level
        if not level.isdigit():
            raise InvalidOptions(f"A bot's level is a number, not {level!r}.")
        return name, int(level)


def _result(sim: Simulation, game: Game, state: Any) -> Outcome:
    if game.info.chapters and not sim.whole_campaigns:
        attempt = game.progress(state).chapter_outcome
        if attempt is not None:
            return attempt
    return game.outcome(state)


async def run(
    sim: Simulation, *, export: IO[bytes] | None = None, advance: Advance | None = None
) -> Report:
    game = get_game(sim.game)
    seats = sim.seats(game)
    bot_name, level = sim.bot_and_level()
    make_bot(bot_name, game, 0, level)  # an unknown bot is refused before any game is played
    service = CampaignService(MemoryStore(), fresh=Counted(f"sim{sim.seed}", sim.seed), clock=_zero)
    encoder = msgspec.json.Encoder()
    wins = losses = events = attempts_won = attempts_lost = 0
    days: list[int] = []
    thought: list[float] = []
    tallies: list[EternityTally] = []
    started = time.perf_counter()
    for n in range(sim.games):
        created = await service.create(
            sim.game, seed=word(sim.seed, n), options=sim.options, seats=seats
        )
        bot = make_bot(bot_name, game, word(sim.seed, sim.games + n), level)
        head = await service.head(created.id)
        result = _result(sim, game, head.state)
        steps = 0
        while result == "running":
            steps += 1
            if steps > MAX_ACTIONS:
                raise RuntimeError(f"Campaign {created.id} did not end in {MAX_ACTIONS} actions.")
            thinking = time.process_time()
            seat, choice = bot.choose(game, head.state)
            thought.append(time.process_time() - thinking)
            acted = await service.act(
                created.id, seat, choice.id, expected_version=head.version, command_id=f"b{steps}"
            )
            head = await service.head(created.id)
            assert head.version == acted.last
            result = _result(sim, game, head.state)
        wins += result == "won"
        losses += result == "lost"
        events += head.version
        progress = game.progress(head.state)
        if progress.day is not None:
            days.append(progress.day)
        attempts_won += sum(a.won for a in progress.attempts)
        attempts_lost += sum(a.lost for a in progress.attempts)
        if game.info.name == "machina":
            tallies.append(tally(r.event for r in await service.events(created.id)))
        if export is not None:
            for recorded in await service.events(created.id):
                line = ExportLine(
                    created.id, recorded.version, recorded.event, recorded.hash, recorded.seat
                )
                export.write(encoder.encode(line) + b"\n")
        if advance is not None:
            advance(n + 1, sim.games)
    elapsed = time.perf_counter() - started
    return Report(
        games=sim.games,
        wins=wins,
        losses=losses,
        events=events,
        events_per_s=round(events / elapsed, 1) if elapsed > 0 else 0.0,
        avg_days=round(sum(days) / len(days), 2) if days else None,
        days_median=_nearest_rank(days, 0.5),
        days_p90=_nearest_rank(days, 0.9),
        attempts_won=attempts_won if game.info.chapters else None,
        attempts_lost=attempts_lost if game.info.chapters else None,
        decision_ms_p50=_percentile_ms(thought, 0.5),
        decision_ms_p95=_percentile_ms(thought, 0.95),
        eternity=eternity_report(tallies),
    )


def _percentile_ms(seconds: list[float], share: float) -> float | None:
    if not seconds:
        return None
    ordered = sorted(seconds)
    return round(1000 * ordered[min(len(ordered) - 1, int(share * len(ordered)))], 1)


def _nearest_rank(values: list[int], share: float) -> int | None:
    if not values:
        return None
    return sorted(values)[max(0, math.ceil(share * len(values)) - 1)]


def _zero() -> int:
    return 0
