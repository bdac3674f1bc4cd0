"""``tabletale analyse CAMPAIGN``: where did it turn, asked of a running server.

The analysis runs where the campaign is served: in the server's bot worker processes, at their
idle priority, and its estimates are kept in the server's store, so a second reader (the browser,
another terminal) gets them at once and nothing is computed twice. This command starts it (or
joins it), follows its progress with a bar, and prints the decision points as a table, then the
turning points and the luck in words; ``--json`` prints the server's answer instead.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from typing import Any

from rich.console import Console
from rich.table import Table

from cli.console import progress
from clients.http import Unreachable, campaign_url, get, post
from clients.replica import ProtocolError

POLL_S = 0.5
"""How often the progress is asked for."""
PIPED_WIDTH = 240
"""The table's width when the output is not a terminal."""


def register(commands: Any) -> None:
    analyse = commands.add_parser(
        "analyse", help="where did it turn: the chance of winning at every decision of a campaign"
    )
    analyse.add_argument("campaign")
    analyse.add_argument("--server", default="http://127.0.0.1:8000", help="the server's base URL")
    analyse.add_argument(
        "--level", type=int, default=None, help="1 (quick) to 3 (deep); default: the server's, 2"
    )
    analyse.add_argument(
        "--token", help="a seat's token: needed while the campaign runs (its own moves only)"
    )
    analyse.add_argument("--json", action="store_true", help="print the analysis as JSON")


def run(args: argparse.Namespace) -> int:
    url = campaign_url(args.server, args.campaign, "/analysis")
    body = {} if args.level is None else {"level": args.level}
    try:
        out = post(url, body, token=args.token)
        level = out["level"]
        with progress(f"Analysing {args.campaign}", enabled=not args.json) as advance:
            while out["state"] == "running":
                if advance is not None:
                    advance(out["done"], out["total"])
                threading.Event().wait(POLL_S)  # the poll interval
                out = get(f"{url}?level={level}", token=args.token)
            if advance is not None:
                advance(out["done"], out["total"])
    except (ProtocolError, Unreachable) as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        show(out)
    if out["state"] != "done":
        print(
            f"tabletale: the analysis stopped at {out['done']} of {out['total']} points; "
            "ask again to go on.",
            file=sys.stderr,
        )
        return 1
    return 0


def show(out: dict[str, Any]) -> None:
    """The decision points as a table, then the turning points and the luck in words."""
    analysis = out["analysis"]
    # A terminal's width; piped, wide enough that no move's label is folded over lines.
    console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else PIPED_WIDTH)
    title = (
        f"{out['campaign']}: {analysis['game']}, {analysis['outcome']} "
        f"(level {out['level']}: {analysis['playouts']} playouts a move)"
    )
    table = Table(title=title)
    for name, justify in (
        ("version", "right"),
        ("seat", "left"),
        ("move played", "left"),
        ("chance", "right"),
        ("move preferred", "left"),
        ("chance", "right"),
        ("cost", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for point in analysis["points"]:
        same = point["preferred"]["id"] == point["played"]["id"]
        table.add_row(
            str(point["version"]),
            point["seat"],
            point["played"]["label"],
            _percent(point["after_played"]["p"]),
            "(the same)" if same else point["preferred"]["label"],
            "" if same else _percent(point["after_preferred"]["p"]),
            "" if same else f"{point['cost'] * 100:+.0f}",
        )
    console.print(table)
    console.print("Turning points:" if analysis["turning_points"] else "No turning point.")
    for turning in analysis["turning_points"]:
        console.print(f"  version {turning['version']} ({turning['seat']}): {turning['words']}")
    if analysis["luck"]:
        console.print("Luck that cost most:")
    for luck in analysis["luck"]:
        console.print(f"  version {luck['version']}: {luck['words']}")


def _percent(p: float) -> str:
    return f"{p:.0%}"
