"""The balance report's figures, its targets, and the Markdown section that shows them.

A win rate comes with its 95% Wilson score interval, which stays inside 0-100% and keeps its
coverage at the small counts and extreme rates a balance run sees (a Wald interval collapses to a
point at 0 or 100% wins). Targets are judged on the point estimate; the interval shows how far to
trust the verdict.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from cli.simulate import Report
from domain.games import get_game

Z_95 = 1.959963984540054
"""The standard normal quantile of 0.975: a two-sided 95% interval."""

BEGIN = "<!-- balance:begin: written by `tabletale balance`, edits between the markers are lost -->"
END = "<!-- balance:end -->"

# The targets docs/balance.md states, as the report judges them.
MACHINA_WINS = (0.35, 0.75)
MACHINA_MEDIAN_ROUNDS = 8
MACHINA_REACHED = {"spawn_rating_1": 0.5, "horror_rating_2": 0.5, "horror_rating_1": 0.2}
"""A rating level and the least share of expeditions in which it should come into play."""
EILA_NORMAL_WINS = (0.40, 0.85)
GIL_ENNIS_NORMAL_WINS = (0.25, 0.60)
EILA_FINALE = 5
REACHED_NAMES = {
    "spawn_rating_1": "spawn rating 1",
    "horror_rating_2": "horror rating 2",
    "horror_rating_1": "horror rating 1",
}


def wilson(wins: int, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate; (0, 1) for no games."""
    if games == 0:
        return 0.0, 1.0
    rate = wins / games
    denominator = 1 + z * z / games
    centre = (rate + z * z / (2 * games)) / denominator
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / denominator
    # At no wins (all wins) the bound is 0 (1) exactly; rounding would put it a hair inside.
    low = 0.0 if wins == 0 else centre - half
    high = 1.0 if wins == games else centre + half
    return low, high


@dataclass(frozen=True)
class Row:
    """One configuration's simulation, as the report shows it."""

    game: str
    label: str
    bot: str
    report: Report
    players: int = 1
    options: dict[str, str | int] = field(default_factory=dict)
    command: str = ""
    """The ``tabletale simulate`` command line that plays the same games."""

    @property
    def rate(self) -> float:
        return self.report.wins / self.report.games if self.report.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.report.wins, self.report.games)


def band(row: Row) -> tuple[float, float] | None:
    """The win-rate band the docs set for ``row``'s configuration, if they set one."""
    if row.game == "machina":
        return MACHINA_WINS
    if row.game == "eila" and row.options.get("mode") == "normal":
        return EILA_NORMAL_WINS
    if row.game == "gil-ennis" and row.options.get("difficulty") == "normal":
        return GIL_ENNIS_NORMAL_WINS
    return None


@dataclass(frozen=True)
class Judgement:
    target: str
    misses: tuple[str, ...] = ()
    judged: bool = True
    """False when the target compares with a configuration the run left out."""

    @property
    def met(self) -> bool:
        return bool(self.target) and self.judged and not self.misses

    @property
    def verdict(self) -> str:
        if not self.target:
            return "no target set"
        if not self.judged:
            return "not judged"
        return "met" if self.met else "not met: " + "; ".join(self.misses)


def judge(row: Row, rows: list[Row]) -> Judgement:
    """``row`` against its targets; ``rows`` holds the configurations it is compared with."""
    targets: list[str] = []
    misses: list[str] = []
    judged = True
    if (limits := band(row)) is not None:
        low, high = limits
        targets.append(f"wins {100 * low:.0f}-{_pct(high, 0)}")
        if not low <= row.rate <= high:
            side, limit = ("below", low) if row.rate < low else ("above", high)
            misses.append(f"{_pct(row.rate)} wins, {side} {_pct(limit, 0)}")
    if row.game == "machina":
        targets.append(f"median >= {MACHINA_MEDIAN_ROUNDS} rounds")
        median = row.report.days_median
        if median is not None and median < MACHINA_MEDIAN_ROUNDS:
            misses.append(f"median {median} rounds")
        eternity = row.report.eternity
        for rule, least in MACHINA_REACHED.items():
            targets.append(f"{REACHED_NAMES[rule]} in >= {_pct(least, 0)}")
            if eternity is not None and eternity.reached[rule] < least:
                misses.append(f"{REACHED_NAMES[rule]} in {_pct(eternity.reached[rule])}")
    elif row.game == "eila" and row.options.get("mode") == "normal":
        if row.options.get("chapter") == EILA_FINALE:
            targets.append("not the easiest chapter")
            others = [r.rate for r in rows if _eila(r, "normal") and r is not row]
            if not others:
                judged = False
            elif row.rate >= max(others):
                misses.append("the easiest normal chapter")
    elif row.game == "eila":
        targets.append("below normal")
        normal = _partner(row, rows, mode="normal")
        if normal is None:
            judged = False
        elif row.rate >= normal.rate:
            misses.append(f"normal wins {_pct(normal.rate)}")
    elif row.game == "gil-ennis" and row.options.get("difficulty") == "easy":
        targets.append("above normal")
        normal = _partner(row, rows, difficulty="normal")
        if normal is None:
            judged = False
        elif row.rate <= normal.rate:
            misses.append(f"normal wins {_pct(normal.rate)}")
    return Judgement(", ".join(targets), tuple(misses), judged)


def _eila(row: Row, mode: str) -> bool:
    return row.game == "eila" and row.options.get("mode") == mode


def _partner(row: Row, rows: list[Row], **differing: str) -> Row | None:
    """The row of the same game and table as ``row`` but for the ``differing`` options."""
    wanted = {**row.options, **differing}
    for other in rows:
        if other.game == row.game and other.players == row.players and other.options == wanted:
            return other
    return None


def table(rows: list[Row], *, games: int, seed: int, command: str, chart: Path) -> str:
    """The generated section: settings, the chart, a table per game and each row's command."""
    judgements = [judge(row, rows) for row in rows]
    met = sum(j.met for j in judgements)
    lines = [
        BEGIN,
        "",
        f"`{command}`: {games} games per configuration from seed {seed}. Win rates with their "
        "95% Wilson interval; game lengths in the game's own rounds; verdicts on the point "
        f"estimate. **{met} of {len(rows)} configurations meet their targets.**",
        "",
        "![Win rate of every configuration with its 95% interval and target band]"
        f"({chart.as_posix()})",
    ]
    for game in dict.fromkeys(row.game for row in rows):
        info = get_game(game).info
        unit = info.round_name + "s"
        ratings = game == "machina" and any(r.report.eternity for r in rows if r.game == game)
        header = ["table", "bot", "games", "wins", "win rate (95% interval)"]
        header += [f"median {unit}", f"p90 {unit}"]
        if ratings:
            header += [f"{name} reached" for name in REACHED_NAMES.values()]
        ours = [(r, j) for r, j in zip(rows, judgements, strict=True) if r.game == game]
        shared = {j.target for _, j in ours}
        # One target for every row is said once, above the table, rather than in every row.
        header += ["verdict"] if len(shared) == 1 else ["target", "verdict"]
        lines += ["", f"### {info.title}", ""]
        if len(shared) == 1:
            lines += [f"Target for each: {shared.pop()}.", ""]
        lines += [_cells(header), _cells(["---"] * len(header))]
        for row, judgement in ours:
            low, high = row.interval
            cells = [row.label, f"`{row.bot}`", str(row.report.games), str(row.report.wins)]
            cells.append(f"{_pct(row.rate)} ({_pct(low)}-{_pct(high)})")
            cells += [_count(row.report.days_median), _count(row.report.days_p90)]
            if ratings:
                reached = row.report.eternity.reached if row.report.eternity else {}
                cells += [_pct(reached[rule]) if rule in reached else "-" for rule in REACHED_NAMES]
            if "target" in header:
                cells.append(judgement.target or "-")
            cells.append(judgement.verdict)
            lines.append(_cells(cells))
    lines += ["", "Each row is one `tabletale simulate` run:", ""]
    lines += [f"- {get_game(r.game).info.title}, {r.label}: `{r.command}`" for r in rows]
    lines += ["", END]
    return "\n".join(lines) + "\n"


def splice(document: str | None, section: str) -> str:
    """``document`` with its generated section replaced by ``section`` (added at the end when it
    has none yet); everything outside the markers stays as written."""
    if document is None:
        return "# Balance\n\n" + section
    begin = document.find(BEGIN.split(":", 1)[0])
    if begin == -1:
        return document.rstrip("\n") + "\n\n" + section
    end = document.find(END, begin)
    if end == -1:
        raise ValueError(f"The generated section has a beginning but no {END} after it.")
    return document[:begin] + section + document[end + len(END) :].removeprefix("\n")


def _cells(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _pct(share: float, decimals: int = 1) -> str:
    return f"{100 * share:.{decimals}f}%"


def _count(value: int | None) -> str:
    return "-" if value is None else str(value)
