"""The ``tabletale`` command line."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

if TYPE_CHECKING:
    from server.settings import Settings


def _store_args(parser: argparse.ArgumentParser) -> None:
    # Flags left out fall back to TABLETALE_* variables, then defaults (server/settings.py).
    parser.add_argument(
        "--redis-url",
        help="Redis URL (default: $TABLETALE_REDIS_URL; without one the embedded SQLite store)",
    )
    parser.add_argument(
        "--data-dir",
        help="the embedded SQLite store's folder (default: $TABLETALE_DATA_DIR or ./data)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletale",
        description="An event-sourced game server: play, replay, rewind and fork campaigns.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="run the game server")
    serve.add_argument("--host", help="the address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, help="the port to listen on (default: 8000)")
    serve.add_argument(
        "--workers",
        type=int,
        help="server processes on the one port (Redis store only; default: 1)",
    )
    _store_args(serve)

    sim = commands.add_parser("simulate", help="play seeded games with a bot and print figures")
    sim.add_argument("game", help="an installed game (tabletale games lists them)")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--players", type=int, choices=(1, 2, 3, 4), default=1)
    sim.add_argument("--chapter", type=int, default=None, help="Eila: the chapter to play")
    sim.add_argument("--mode", choices=("normal", "advanced"), default=None)
    sim.add_argument(
        "--campaign",
        action="store_true",
        help="Eila: play whole campaigns from the chapter on, not one attempt at it",
    )
    sim.add_argument(
        "--bot",
        default="random",
        help="random (any game), search (any game), greedy (Eila) "
        "or heuristic (Gil & Ennis, Machina)",
    )
    sim.add_argument(
        "--level", type=int, choices=(1, 2, 3), default=None, help="the search bot's level (2)"
    )
    sim.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object (Machina adds "eternity": how often each Eternity rule '
        "fired and each rating level came into play, and rounds per expedition)",
    )
    sim.add_argument("--export", type=Path, help="write every event stream as JSON lines here")
    sim.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a campaign option"
    )

    balance = commands.add_parser(
        "balance",
        help="play every game's configurations with its best bot; write docs/balance.md "
        "and its chart",
    )
    balance.add_argument(
        "--games", type=int, default=None, help="games per configuration (default: 100)"
    )
    balance.add_argument("--seed", type=int, default=1)
    balance.add_argument("--jobs", type=int, default=2, help="worker processes (default: 2)")
    balance.add_argument(
        "--game",
        action="append",
        default=[],
        choices=("gil-ennis", "eila", "machina"),
        help="only this game's configurations (repeatable; default: every game)",
    )
    balance.add_argument("--doc", type=Path, default=Path("docs/balance.md"))
    balance.add_argument("--chart", type=Path, default=Path("docs/images/balance.svg"))

    replay = commands.add_parser("replay", help="replay a stored campaign")
    replay.add_argument("campaign")
    replay.add_argument(
        "--verify",
        action="store_true",
        help="check every stored state hash; exits 3 for a ruleset this server does not play "
        "(the stream is read, no hash can be checked)",
    )
    replay.add_argument(
        "--store",
        help="the store's URL: sqlite:PATH, redis://..., redis+cluster://... (default: "
        "$TABLETALE_STORE, else the server's settings), as export, import and migrate take it",
    )
    replay.add_argument("--redis-url", help="deprecated: use --store redis://...")
    replay.add_argument("--data-dir", help="deprecated: use --store sqlite:PATH")

    bench = commands.add_parser("bench", help="benchmarks that print figures")
    bench_kinds = bench.add_subparsers(dest="bench", required=True)
    bench_replay = bench_kinds.add_parser("replay", help="reduce, replay, raw read and fork")
    bench_replay.add_argument("--events", type=int, default=100_000)
    bench_replay.add_argument(
        "--redis-url", default=os.environ.get("TABLETALE_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    bench_replay.add_argument("--seed", type=int, default=1)
    bench_replay.add_argument("--json", action="store_true")
    bench_move = bench_kinds.add_parser(
        "move", help="the rules' and the view's work of an accepted move, as the server asks"
    )
    bench_move.add_argument("--game", default="gil-ennis")
    bench_move.add_argument("--seat", action="append", default=[], help="each seat, in order")
    bench_move.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a campaign option"
    )
    bench_move.add_argument("--games", type=int, default=100, help="random playthroughs")
    bench_move.add_argument("--rounds", type=int, default=7, help="the best round is reported")
    bench_move.add_argument("--json", action="store_true")

    play = commands.add_parser("play", help="play or watch a campaign in the terminal")
    play.add_argument("--server", default="http://127.0.0.1:8000", help="the server's base URL")
    start = play.add_mutually_exclusive_group(required=True)
    start.add_argument("--game", help="start a new campaign of this game")
    start.add_argument("--campaign", help="join this campaign")
    play.add_argument("--token", help="the seat's token (without one: watch as a spectator)")
    play.add_argument("--seed", type=int)
    play.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a campaign option"
    )
    play.add_argument(
        "--patience",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="how long to keep reconnecting to a server that went away before giving up "
        "(exit status 2; default: 120)",
    )

    from cli import analyse, export, importing, migrate, upgrade

    analyse.register(commands)
    export.register(commands)
    importing.register(commands)
    migrate.register(commands)
    upgrade.register(commands)

    commands.add_parser("games", help="list the games installed, each with its ruleset")

    check_game = commands.add_parser(
        "check-game", help="check that a game keeps the promises the server relies on"
    )
    check_game.add_argument(
        "game",
        help="an installed game (tabletale games lists them), or the folder of a game package",
    )
    check_game.add_argument("--playthroughs", type=int, default=20)
    check_game.add_argument(
        "--moves",
        type=int,
        default=None,
        help="moves per playthrough (default: the game's longest campaign, else 200)",
    )
    check_game.add_argument("--seed", type=int, default=1, help="the first playthrough's seed")
    check_game.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a campaign option"
    )

    content = commands.add_parser("content", help="content packs")
    content_kinds = content.add_subparsers(dest="content", required=True)
    check = content_kinds.add_parser("check", help="validate a content pack")
    check.add_argument("path", nargs="?", type=Path, help="a pack folder (default: shipped packs)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    match args.command:
        case "serve":
            from server.serve import serve

            try:
                settings = _settings(args, host=args.host, port=args.port, workers=args.workers)
                settings.check()
            except ValueError as error:
                print(f"tabletale: {error}", file=sys.stderr)
                return 2
            from cli.games import warn_failed

            warn_failed()
            serve(settings)
            return 0
        case "simulate":
            return _simulate(args)
        case "balance":
            return _balance(args)
        case "replay":
            from cli import replay

            return replay.run(args, _store_url(args))
        case "bench" if args.bench == "move":
            from cli.bench_move import bench_move

            return bench_move(
                game_name=args.game,
                seats=args.seat,
                options=dict(_option(text) for text in args.option),
                games=args.games,
                rounds=args.rounds,
                as_json=args.json,
            )
        case "bench":
            from cli.bench import bench_replay

            return bench_replay(
                events=args.events, redis_url=args.redis_url, seed=args.seed, as_json=args.json
            )
        case "play":
            try:
                return asyncio.run(_play(args))
            except KeyboardInterrupt:
                return 130  # interrupted (Ctrl-C): as a shell reports it, without a traceback
        case "games":
            from cli.games import list_games

            return list_games()
        case "check-game":
            from cli.check_game import run

            return run(
                args.game,
                playthroughs=args.playthroughs,
                moves=args.moves,
                seed=args.seed,
                options=dict(_option(text) for text in args.option),
            )
        case "content":
            from cli.content_check import check_content

            return check_content(args.path)
        case "analyse":
            from cli import analyse

            return analyse.run(args)
        case "export":
            from cli import export

            return export.run(args)
        case "import":
            from cli import importing

            return importing.run(args)
        case "migrate":
            from cli import migrate

            return migrate.run(args)
        case "upgrade":
            from cli import upgrade

            return upgrade.run(args)
    raise AssertionError(args.command)


def _simulate(args: argparse.Namespace) -> int:
    from cli.console import print_table, progress
    from cli.simulate import Simulation, run
    from domain.core.errors import DomainError

    options: dict[str, str | int | bool] = dict(_option(text) for text in args.option)
    if args.chapter is not None:
        options["chapter"] = args.chapter
    if args.mode is not None:
        options["mode"] = args.mode
    sim = Simulation(
        game=args.game,
        games=args.games,
        seed=args.seed,
        players=args.players,
        bot=args.bot,
        level=args.level,
        options=options,
        whole_campaigns=args.campaign,
    )
    try:
        with progress(args.game, enabled=not args.json) as advance:
            if args.export is not None:
                with args.export.open("wb") as export:
                    report = asyncio.run(run(sim, export=export, advance=advance))
            else:
                report = asyncio.run(run(sim, advance=advance))
    except DomainError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(msgspec.json.encode(report).decode())
        return 0
    rows = [
        ("games", f"{report.games:,}", ""),
        ("wins", f"{report.wins:,}", ""),
        ("losses", f"{report.losses:,}", ""),
        ("events", f"{report.events:,}", ""),
        ("events/s", f"{report.events_per_s:,.0f}", ""),
    ]
    if report.avg_days is not None:
        rows.insert(3, ("average days", f"{report.avg_days}", ""))
    if report.attempts_won is not None and report.attempts_lost is not None:
        rows.insert(3, ("chapter attempts won", f"{report.attempts_won:,}", ""))
        rows.insert(4, ("chapter attempts lost", f"{report.attempts_lost:,}", ""))
    print_table(rows)
    return 0


def _balance(args: argparse.Namespace) -> int:
    import time

    from cli.balance import DEFAULT_GAMES, configurations, play_all, write_report
    from cli.console import progress

    games = DEFAULT_GAMES if args.games is None else args.games
    if games < 1 or args.jobs < 1:
        print("tabletale: --games and --jobs are at least 1.", file=sys.stderr)
        return 2
    try:
        import cli.balance_chart  # noqa: F401 (checked before the games, not after them)
    except ModuleNotFoundError as error:
        print(
            f"tabletale: the chart needs {error.name} (pip install 'tabletale[balance]').",
            file=sys.stderr,
        )
        return 2
    configs = [c for c in configurations() if not args.game or c.game in args.game]
    started = time.perf_counter()
    with progress("balance") as advance:
        rows = play_all(configs, games=games, seed=args.seed, jobs=args.jobs, advance=advance)
    written = write_report(
        rows, doc=args.doc, chart=args.chart, games=games, seed=args.seed, only=args.game
    )
    elapsed = time.perf_counter() - started
    print(f"{written.doc} and {written.chart}: {len(rows)} configurations in {elapsed:.0f} s")
    return 0


async def _play(args: argparse.Namespace) -> int:
    from clients.connection import ProtocolError
    from clients.terminal import play, start

    try:
        if args.game:
            options = dict(_option(text) for text in args.option)
            campaign, token = await start(args.server, args.game, seed=args.seed, options=options)
        else:
            campaign, token = args.campaign, args.token
        return await play(args.server, campaign, token, patience=args.patience)
    except (ProtocolError, OSError) as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2


def _settings(args: argparse.Namespace, **more: Any) -> Settings:
    from server.settings import load

    return load(None, redis_url=args.redis_url, data_dir=args.data_dir, **more)


def _option(text: str) -> tuple[str, str | int | bool]:
    key, _, value = text.partition("=")
    if value.lstrip("-").isdigit():
        return key, int(value)
    if value in ("true", "false"):
        return key, value == "true"
    return key, value


def _store_url(args: argparse.Namespace) -> str | None:
    """``--store``, or the store the deprecated ``--redis-url``/``--data-dir`` name (said on
    standard error, with the flag to use instead)."""
    if args.store is not None:
        return str(args.store)
    if args.redis_url is not None:
        print("tabletale: --redis-url is deprecated; use --store redis://...", file=sys.stderr)
        return str(args.redis_url)
    if args.data_dir is not None:
        print("tabletale: --data-dir is deprecated; use --store sqlite:PATH", file=sys.stderr)
        return f"sqlite:{args.data_dir}"
    return None


if __name__ == "__main__":
    raise SystemExit(main())
