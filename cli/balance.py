"""``tabletale balance``: every game's tables played by the best bot it can afford, written up.

Each configuration (an Eila chapter in one mode, a Gil & Ennis difficulty at one or two seats,
Machina with one to four explorers) is one ``tabletale simulate`` run with the same seed, so any
row of the report is reproduced by the command :func:`command` gives for it. The runs are spread
over worker processes; the figures depend only on the seed and the number of games, never on how
many workers played them. :mod:`cli.balance_table` writes the table, :mod:`cli.balance_chart` the
chart.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from cli.balance_table import Row, splice, table
from cli.simulate import Report, Simulation, run
from domain.games import GAMES
from domain.gil_ennis.game import DIFFICULTIES

DEFAULT_GAMES = 300
"""Games per configuration (docs/balance.md notes the last run's time)."""

BEST_BOTS = {
    # The heuristic (domain/bots/gil_ennis_heuristic.py), at 0.3-0.5 ms (p50) per decision and
    # 0.4 s a journey. Under gil-ennis/2+content.2 the search at level 1 (random playouts) won
    # 0 of 24 normal journeys solo and 0 of 24 at two seats, where the heuristic wins about half.
    "gil-ennis": "heuristic",
    # The greedy bot, at 0.2 ms per decision and 0.1 s an attempt. The search at level 1 thinks
    # 46 ms per decision, 7 s an attempt at chapter 1, and 3 attempts at chapter 4 advanced did not
    # end within 300 s: 10 configurations of it would take hours.
    "eila": "greedy",
    # The heuristic, at 0.2-0.5 ms per decision and 0.1 s an expedition. The search at level 1,
    # whose rollouts play that heuristic, thinks 29 ms (1 explorer) to 67 ms (4) per decision:
    # 5 s to 54 s an expedition.
    "machina": "heuristic",
}
"""The bot that plays each game in the report: the strongest whose games fit the time the report
has. Decision times are CPU time per decision from ``tabletale simulate --json``
(``decision_ms_p50``/``decision_ms_p95``), measured on the development machine."""

ANY_GAME_BOT = "random"
"""The bot that plays an installed game the report knows nothing of (``docs/games.md``): the
uniform random bot, which every game has and whose games cost next to nothing; its row reads as a
floor, not as the game's balance."""

EILA_CHAPTERS = (1, 2, 3, 4, 5)
EILA_MODES = ("normal", "advanced")
MACHINA_PARTIES = (1, 2, 3, 4)
_FLAGS = ("chapter", "mode")
"""Options ``tabletale simulate`` takes as flags of their own; others go as ``--option``."""


@dataclass(frozen=True)
class Configuration:
    """One table of one game: its seats and campaign options."""

    game: str
    label: str
    """How the report names it within its game (``chapter 2, advanced``, ``easy, two seats``)."""
    players: int = 1
    options: dict[str, str | int] = field(default_factory=dict, hash=False)

    @property
    def bot(self) -> str:
        return BEST_BOTS.get(self.game, ANY_GAME_BOT)


def configurations() -> list[Configuration]:
    """Every configuration the report covers, in the report's order."""
    configs = [
        Configuration(
            "gil-ennis",
            f"{difficulty}, {'solo' if players == 1 else 'two seats'}",
            players,
            {"difficulty": difficulty},
        )
        for players in (1, 2)
        for difficulty in sorted(DIFFICULTIES, key=DIFFICULTIES.__getitem__)
    ]
    configs += [
        Configuration("eila", f"chapter {chapter}, {mode}", 1, {"chapter": chapter, "mode": mode})
        for chapter in EILA_CHAPTERS
        for mode in EILA_MODES
    ]
    configs += [
        Configuration("machina", f"{n} explorer{'s' if n > 1 else ''}", n) for n in MACHINA_PARTIES
    ]
    # Every other installed game (a package of its own): each of its seat layouts, with its
    # default options.
    configs += [
        Configuration(name, "solo" if len(seats) == 1 else f"{len(seats)} seats", len(seats))
        for name, game in sorted(GAMES.items())
        if name not in BEST_BOTS
        for seats in game.info.seat_layouts
    ]
    return configs


def simulation(config: Configuration, *, games: int, seed: int) -> Simulation:
    return Simulation(
        game=config.game,
        games=games,
        seed=seed,
        players=config.players,
        bot=config.bot,
        options=dict(config.options),
    )


def command(config: Configuration, *, games: int, seed: int) -> list[str]:
    """The ``tabletale simulate`` arguments that play ``config`` as the report does."""
    argv = ["simulate", config.game, "--bot", config.bot]
    if config.players != 1:
        argv += ["--players", str(config.players)]
    for key, value in config.options.items():
        argv += [f"--{key}", str(value)] if key in _FLAGS else ["--option", f"{key}={value}"]
    return [*argv, "--games", str(games), "--seed", str(seed), "--json"]


def play(config: Configuration, games: int, seed: int) -> Report:
    """One configuration's simulation (run in a worker process, hence a plain function)."""
    return asyncio.run(run(simulation(config, games=games, seed=seed)))


def play_all(
    configs: Iterable[Configuration],
    *,
    games: int,
    seed: int,
    jobs: int,
    advance: Callable[[int, int], None] | None = None,
) -> list[Row]:
    """Every configuration's row, in the order given; ``jobs`` > 1 plays them in that many
    worker processes."""
    configs = list(configs)
    if jobs <= 1:
        reports = []
        for n, config in enumerate(configs):
            reports.append(play(config, games, seed))
            if advance is not None:
                advance(n + 1, len(configs))
    else:
        # Searching bots take the longest, the more seats the longer: they start first, so the
        # workers do not end up waiting on one long run at the end.
        order = sorted(
            range(len(configs)),
            key=lambda i: (not configs[i].bot.startswith("search"), -configs[i].players),
        )
        # Fresh interpreters rather than forks: nothing of this process (threads, the progress
        # bar) is copied into them.
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
            futures = {i: pool.submit(play, configs[i], games, seed) for i in order}
            for done, i in enumerate(order, start=1):
                futures[i].result()
                if advance is not None:
                    advance(done, len(configs))
            reports = [futures[i].result() for i in range(len(configs))]
    return [
        Row(
            config.game,
            config.label,
            config.bot,
            report,
            config.players,
            dict(config.options),
            " ".join(["tabletale", *command(config, games=games, seed=seed)]),
        )
        for config, report in zip(configs, reports, strict=True)
    ]


@dataclass(frozen=True)
class Written:
    rows: list[Row]
    doc: Path
    chart: Path


def write_report(
    rows: list[Row], *, doc: Path, chart: Path, games: int, seed: int, only: Iterable[str] = ()
) -> Written:
    """Writes the chart and the generated section of ``doc`` (the rest of ``doc`` is kept).
    Needs matplotlib (the ``balance`` extra), imported here so that playing needs none."""
    from cli.balance_chart import write_chart

    chart.parent.mkdir(parents=True, exist_ok=True)
    write_chart(rows, chart)
    doc.parent.mkdir(parents=True, exist_ok=True)
    existing = doc.read_text(encoding="utf-8") if doc.exists() else None
    regenerate = ["tabletale", "balance", "--games", str(games), "--seed", str(seed)]
    for game in only:
        regenerate += ["--game", game]
    section = table(
        rows,
        games=games,
        seed=seed,
        command=" ".join(regenerate),
        chart=Path(_relative(chart, doc.parent)),
    )
    doc.write_text(splice(existing, section), encoding="utf-8")
    return Written(rows, doc, chart)


def _relative(path: Path, start: Path) -> str:
    return os.path.relpath(path.resolve(), start.resolve())
