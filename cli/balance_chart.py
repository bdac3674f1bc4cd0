"""The balance report's chart: every configuration's win rate with its interval, by game.

One row per configuration, grouped under its game's title: the win rate as a point, its 95%
Wilson interval as a bar, the target band shaded where the docs set one, and the rate and verdict
written beside it, so nothing is told by colour alone (the marker's shape repeats the verdict).
The SVG is the same bytes for the same figures: ids come from a fixed salt, text stays text and
the file carries no date.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

# No display: the chart is only ever written to a file.
matplotlib.use("Agg")

from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from cli.balance_table import Row, band, judge
from domain.games import get_game

COLOURS = {"gil-ennis": "#0072B2", "eila": "#D55E00", "machina": "#009E73"}
"""Okabe-Ito colours, told apart with any colour vision; the groups' titles say the same."""
MARKERS = {"met": "o", "not met": "X", "not judged": "s"}
BAND = "#d9d9d9"


def write_chart(rows: list[Row], path: Path) -> None:
    """Draws ``rows`` into an SVG at ``path``."""
    style = {
        "svg.hashsalt": "tabletale-balance",  # ids (clip paths) from a fixed salt, not at random
        "svg.fonttype": "none",  # text as <text>: readable, searchable, and smaller
        "font.family": "DejaVu Sans",
        "font.size": 10,
    }
    with matplotlib.rc_context(style):  # type: ignore[arg-type]  # rc keys are typed as literals
        figure = _draw(rows)
        figure.savefig(path, format="svg", metadata={"Date": None, "Creator": None})


def _draw(rows: list[Row]) -> Figure:
    games = list(dict.fromkeys(row.game for row in rows))
    ticks: list[tuple[float, str, bool]] = []  # position, label, whether a group's title
    placed: list[tuple[float, Row]] = []
    y = 0.0
    for game in games:
        ticks.append((y, get_game(game).info.title, True))
        for row in (r for r in rows if r.game == game):
            y += 1
            ticks.append((y, row.label, False))
            placed.append((y, row))
        y += 1.5
    height = 1.6 + 0.28 * y
    figure = Figure(figsize=(9.0, height), layout="constrained")
    axes = figure.add_subplot()
    for y, row in placed:
        if (limits := band(row)) is not None:
            low, high = limits
            axes.add_patch(Rectangle((100 * low, y - 0.5), 100 * (high - low), 1, color=BAND, lw=0))
    for y, row in placed:
        verdict = judge(row, rows)
        kind = "met" if verdict.met else "not judged" if not verdict.judged else "not met"
        low, high = row.interval
        colour = COLOURS.get(row.game, "#000000")
        axes.errorbar(
            [100 * row.rate],
            [y],
            xerr=[[100 * (row.rate - low)], [100 * (high - row.rate)]],
            fmt=MARKERS[kind],
            color=colour,
            markerfacecolor=colour if kind == "met" else "white",
            markersize=7,
            capsize=3,
            elinewidth=1.2,
        )
        axes.text(
            1.01,
            y,
            f"{100 * row.rate:.1f}%  {kind}",
            transform=axes.get_yaxis_transform(),
            va="center",
            fontsize=9,
        )
    axes.set_xlim(-2, 102)  # room for a whole marker at 0% and 100%
    axes.set_xticks(range(0, 101, 10))
    axes.set_ylim(placed[-1][0] + 0.7 if placed else 1, -0.8)  # the first group at the top
    axes.set_yticks([t[0] for t in ticks], [t[1] for t in ticks])
    for label, (_, _, title) in zip(axes.get_yticklabels(), ticks, strict=True):
        if title:
            label.set_fontweight("bold")
    axes.tick_params(axis="y", length=0)
    axes.set_xlabel("win rate (%); bars: 95% Wilson interval")
    axes.xaxis.grid(True, color="#eeeeee")
    axes.set_axisbelow(True)
    played = {row.report.games for row in rows}
    per = f"{played.pop()} games each" if len(played) == 1 else "games as in the table"
    axes.set_title(f"Win rate per configuration, best affordable bot, {per}", loc="left")
    legend = [
        Patch(facecolor=BAND, label="target band"),
        Line2D([], [], marker="o", color="#555555", ls="", label="target met"),
        Line2D([], [], marker="X", color="#555555", mfc="white", ls="", label="not met"),
        Line2D([], [], marker="s", color="#555555", mfc="white", ls="", label="not judged"),
    ]
    figure.legend(handles=legend, loc="outside lower center", ncols=4, frameon=False)
    return figure
