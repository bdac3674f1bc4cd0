"""Are the analysis's chances honest? Simulated campaigns, estimated positions, tallied by decile.

Campaigns are played by the search bot (level 1) from seeds derived from ``--seed``; at a few
decision points of each (``--positions``, drawn from the seed) the chance of winning after the
move played is estimated exactly as an analysis does (``domain.analysis.estimate.playouts``,
``--playouts`` of them, from what the acting seat knew), and set against how the campaign (in
Eila, the attempt at the chapter) ended. Of the positions given about p%, about p% should have
been won.

    python -m cli.analysis_calibration --budget 600 --workers 2 \\
        --chart docs/images/analysis-calibration.svg
    python -m cli.analysis_calibration --load positions.jsonl --chart chart.svg
    python -m cli.analysis_calibration --cost     # CPU seconds per campaign and level

Every game is played until ``--games`` campaigns or ``--budget`` CPU seconds (whichever comes
first); the table goes to stdout as Markdown, ``--save`` keeps each campaign's positions as a
JSON line as soon as it is done, and ``--load`` tallies such a file again.
The figures are the same for the same arguments; only the CPU times vary.

It lives in ``cli/`` beside the other measurements run by hand (``bench``, ``balance``), rather
than in ``domain/`` (it counts CPU time, runs processes and writes files, which the domain may
not) or in ``loadtests/`` (which reach the server from outside); it is no ``tabletale`` command,
being a check of the analysis's honesty rather than something a player runs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from domain.analysis.analyse import analyse
from domain.analysis.calibration import Decile, deciles, picked
from domain.analysis.decisions import decisions
from domain.analysis.estimate import playouts
from domain.analysis.levels import LEVELS
from domain.analysis.played import recorded
from domain.bots import make_bot
from domain.bots.knowledge import knowledge_of
from domain.core.events import Options
from domain.core.game import Game
from domain.core.rng import word
from domain.games import GAMES

GAME_NAMES = ("gil-ennis", "eila", "machina")


def table(name: str, index: int) -> tuple[tuple[str, ...], Options]:
    """The seats and options of simulated campaign ``index`` of a game: a mix of the tables
    people sit at (Gil & Ennis alone and as two, Eila's chapters 1 to 5, Machina for one to
    three)."""
    if name == "gil-ennis":
        return (("player",), ("gil", "ennis"))[index % 2], {}
    if name == "eila":
        return ("player",), {"chapter": 1 + index % 5}
    return (("ada",), ("ada", "bram"), ("ada", "bram", "cyra"))[index % 3], {}


def _attempt_over(game: Game, state: Any) -> bool:
    return bool(state.result != "" or state.phase == "abandoned")


def _ended_won(game: Game, state: Any) -> bool:
    if game.info.chapters:
        return game.progress(state).chapter_outcome == "won"
    return game.outcome(state) == "won"


def play(name: str, index: int, seed: int) -> list[tuple[int, Any]]:
    game = GAMES[name]
    seats, options = table(name, index)
    bot = make_bot("search", game, word(seed, 2 * index + 1), 1)
    until = _attempt_over if game.info.chapters else None
    return recorded(
        game, bot, seed=word(seed, 2 * index), seats=seats, options=options, until=until
    )


@dataclass(frozen=True)
class Done:
    name: str
    index: int
    positions: list[tuple[float, bool, int]]
    """(estimate, won, version) of each position estimated."""
    cpu: float


def campaign(name: str, index: int, seed: int, count: int, depth: int) -> Done:
    """One simulated campaign and its estimated positions."""
    started = time.process_time()
    game = GAMES[name]
    stream = play(name, index, seed)
    found = decisions(game, stream)
    won = _ended_won(game, found[-1].after) if found else False
    knowledge = knowledge_of(game)
    positions = []
    for decision in picked(found, count, word(seed, 1_000_000 + index)):
        estimate = playouts(
            game,
            knowledge,
            decision.state,
            decision.seat,
            [decision.played],
            count=depth,
            seed=seed,
            salt=f"calibration/{index}/{decision.version}",
        ).estimates[0]
        positions.append((estimate.p, won, decision.version))
    return Done(name, index, positions, time.process_time() - started)


def calibrate(args: argparse.Namespace, save: IO[str] | None) -> dict[str, list[Done]]:
    """Campaigns of every game in turn (the one with the least CPU spent next), each written to
    ``save`` as soon as it is done, so a run stopped early keeps what it measured."""
    done: dict[str, list[Done]] = {name: [] for name in args.games_of}
    spent = dict.fromkeys(args.games_of, 0.0)
    next_index = dict.fromkeys(args.games_of, 0)
    running: dict[Future[Done], str] = {}

    def open_game() -> str | None:
        """The game with the least CPU spent that may still play a campaign."""
        open_ = [n for n in args.games_of if next_index[n] < args.games and spent[n] < args.budget]
        return min(open_, key=lambda n: (spent[n], n), default=None)

    with ProcessPoolExecutor(args.workers) as pool:
        while True:
            while len(running) < args.workers and (name := open_game()) is not None:
                index = next_index[name]
                next_index[name] += 1
                future = pool.submit(
                    campaign, name, index, args.seed, args.positions, args.playouts
                )
                running[future] = name
            if not running:
                break
            finished, _ = wait(running, return_when="FIRST_COMPLETED")
            for future in finished:
                name = running.pop(future)
                result = future.result()
                done[name].append(result)
                spent[name] += result.cpu
                if save is not None:
                    save.write(json.dumps(asdict(result)) + "\n")
                    save.flush()
                print(
                    f"{name} #{result.index}: {len(result.positions)} positions, "
                    f"{result.cpu:.1f} s CPU (total {spent[name]:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    for results in done.values():
        results.sort(key=lambda d: d.index)
    return done


def load(path: Path) -> dict[str, list[Done]]:
    """The campaigns a run saved (``--save``), by game, in order."""
    done: dict[str, list[Done]] = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        positions = [(p, bool(won), version) for p, won, version in row["positions"]]
        found = Done(row["name"], row["index"], positions, row["cpu"])
        done.setdefault(found.name, []).append(found)
    ordered = {name: done[name] for name in GAME_NAMES if name in done}
    for results in ordered.values():
        results.sort(key=lambda d: d.index)
    return ordered


def markdown(done: dict[str, list[Done]]) -> str:
    lines = []
    for name, results in done.items():
        positions = [(p, won) for d in results for p, won, _ in d.positions]
        title = GAMES[name].info.title
        cpu = sum(d.cpu for d in results)
        lines.append(
            f"**{title}**: {len(results)} campaigns, {len(positions)} positions, {cpu:.0f} s CPU\n"
        )
        lines.append("| chance given | positions | mean given | won | 95% interval |")
        lines.append("|---|---|---|---|---|")
        for decile in deciles(positions):
            lines.append(_row(decile))
        lines.append("")
    return "\n".join(lines)


def _row(d: Decile) -> str:
    high = min(100, round(d.low * 100) + 10)
    return (
        f"| {d.low:.0%}-{high}% | {d.positions} | {d.said:.0%} | {d.share:.0%} | "
        f"{d.share_low:.0%}-{d.share_high:.0%} |"
    )


def chart(done: dict[str, list[Done]], path: Path) -> None:
    """A reliability chart: per game, the share won against the mean chance given, by decile,
    with Wilson intervals; shapes and line styles tell the games apart without colour."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    style = {
        "svg.hashsalt": "tabletale-analysis",
        "svg.fonttype": "none",
        "font.family": "DejaVu Sans",
        "font.size": 10,
    }
    looks = {
        "gil-ennis": ("#0072B2", "o", "-"),
        "eila": ("#D55E00", "s", "--"),
        "machina": ("#009E73", "^", ":"),
    }
    with matplotlib.rc_context(style):  # type: ignore[arg-type]
        figure = Figure(figsize=(6.4, 6.0), layout="constrained")
        axes = figure.add_subplot()
        axes.plot([0, 1], [0, 1], color="#777777", linewidth=1, label="honest (given = won)")
        for name, results in done.items():
            found = deciles([(p, won) for d in results for p, won, _ in d.positions])
            colour, marker, line = looks[name]
            axes.errorbar(
                [d.said for d in found],
                [d.share for d in found],
                yerr=[
                    [d.share - d.share_low for d in found],
                    [d.share_high - d.share for d in found],
                ],
                color=colour,
                marker=marker,
                linestyle=line,
                capsize=3,
                label=f"{GAMES[name].info.title} ({sum(len(d.positions) for d in results)})",
            )
        axes.set_xlim(0, 1)
        axes.set_ylim(0, 1)
        axes.set_xlabel("chance of winning given (mean of the decile)")
        axes.set_ylabel("share of those positions won (95% interval)")
        axes.set_title("Are the analysis's chances honest?")
        axes.legend(loc="lower right", title="game (positions)")
        figure.savefig(path, format="svg", metadata={"Date": None, "Creator": None})


def cost(names: Sequence[str], seed: int, levels: Sequence[int]) -> str:
    """CPU seconds to analyse one typical campaign of each game at each level."""
    lines = ["| game | table | decision points | level | CPU s |", "|---|---|---|---|---|"]
    for name in names:
        game = GAMES[name]
        stream = play(name, 0, seed)
        found = decisions(game, stream)
        seats, options = table(name, 0)
        where = ", ".join(seats) + (f", chapter {options['chapter']}" if options else "")
        for level in levels:
            started = time.process_time()
            analyse(game, stream, level=level, seed=seed)
            spent = time.process_time() - started
            lines.append(f"| {game.info.title} | {where} | {len(found)} | {level} | {spent:.1f} |")
            print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAME_NAMES, dest="games_of")
    parser.add_argument("--games", type=int, default=300, help="campaigns per game at most")
    parser.add_argument("--budget", type=float, default=600.0, help="CPU seconds per game")
    parser.add_argument("--positions", type=int, default=4, help="positions per campaign")
    parser.add_argument("--playouts", type=int, default=LEVELS[2].playouts)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--chart", type=Path)
    parser.add_argument("--save", type=Path, help="each campaign's positions as a JSON line")
    parser.add_argument("--load", type=Path, help="tally a saved run instead of playing")
    parser.add_argument("--cost", action="store_true", help="measure the cost per level")
    parser.add_argument("--levels", default="1,2,3")
    args = parser.parse_args(argv)
    args.games_of = args.games_of or list(GAME_NAMES)
    if args.cost:
        levels = [int(level) for level in args.levels.split(",")]
        print(cost(args.games_of, args.seed, levels))
        return
    if args.load is not None:
        done = load(args.load)
    elif args.save is not None:
        with args.save.open("w") as save:
            done = calibrate(args, save)
    else:
        done = calibrate(args, None)
    print(markdown(done))
    if args.chart is not None:
        chart(done, args.chart)


if __name__ == "__main__":
    main()
