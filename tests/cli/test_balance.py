from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from cli.balance import (
    ANY_GAME_BOT,
    BEST_BOTS,
    Configuration,
    command,
    configurations,
    play,
    play_all,
    write_report,
)
from cli.balance_table import BEGIN, END, Row, judge, splice, wilson
from cli.main import main
from cli.simulate import Report
from domain.games import get_game

SVG = "{http://www.w3.org/2000/svg}"


def subset() -> list[Configuration]:
    """Configurations whose bots play in milliseconds (Gil & Ennis's search takes seconds)."""
    wanted = {
        ("eila", "chapter 1, normal"),
        ("eila", "chapter 1, advanced"),
        ("eila", "chapter 5, normal"),
        ("machina", "1 explorer"),
    }
    return [c for c in configurations() if (c.game, c.label) in wanted]


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return play_all(subset(), games=2, seed=3, jobs=1)


def written(rows: list[Row], folder: Path) -> tuple[str, bytes]:
    doc, chart = folder / "balance.md", folder / "images" / "balance.svg"
    write_report(rows, doc=doc, chart=chart, games=2, seed=3)
    return doc.read_text(encoding="utf-8"), chart.read_bytes()


def table_cells(markdown: str) -> dict[str, dict[str, str]]:
    """Each table row's cells by column header, keyed by the game's title and the row's label."""
    cells: dict[str, dict[str, str]] = {}
    title = header = None
    for line in markdown.splitlines():
        if line.startswith("### "):
            title, header = line[4:], None
        elif line.startswith("| ") and not line.startswith("| ---"):
            values = [cell.strip() for cell in line.strip("|").split("|")]
            if header is None:
                header = values
            else:
                cells[f"{title}, {values[0]}"] = dict(zip(header, values, strict=True))
    return cells


def test_every_game_chapter_mode_difficulty_and_party_is_covered() -> None:
    labels = [(c.game, c.label, c.bot) for c in configurations()]
    assert len([label for label in labels if label[0] in BEST_BOTS]) == 4 + 10 + 4
    assert ("gil-ennis", "normal, two seats", "heuristic") in labels
    assert ("eila", "chapter 5, advanced", "greedy") in labels
    assert ("machina", "4 explorers", "heuristic") in labels


def test_the_table_agrees_with_simulate_json_for_the_same_seeds(
    rows: list[Row], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    markdown, _ = written(rows, tmp_path)
    cells = table_cells(markdown)
    assert len(cells) == len(rows)
    for row in rows:
        assert f"`{row.command}`" in markdown
        assert main(row.command.split()[1:]) == 0
        simulated = json.loads(capsys.readouterr().out)
        shown = next(c for key, c in cells.items() if key.endswith(f", {row.label}"))
        unit = "rounds" if row.game == "machina" else "days"
        assert int(shown["games"]) == simulated["games"] == 2
        assert int(shown["wins"]) == simulated["wins"]
        assert shown[f"median {unit}"] == str(simulated["days_median"])
        assert shown[f"p90 {unit}"] == str(simulated["days_p90"])
        rate = 100 * simulated["wins"] / simulated["games"]
        assert shown["win rate (95% interval)"].startswith(f"{rate:.1f}% (")
        if row.game == "machina":
            reached = simulated["eternity"]["reached"]["spawn_rating_1"]
            assert shown["spawn rating 1 reached"] == f"{100 * reached:.1f}%"


def test_hand_written_text_outside_the_markers_is_kept(rows: list[Row], tmp_path: Path) -> None:
    doc = tmp_path / "balance.md"
    hand = "# Balance\n\nWritten by hand.\n\n", "\n\n## Notes\nMore.\n"
    doc.write_text(f"{hand[0]}{BEGIN}\nold figures\n{END}{hand[1]}")
    write_report(rows, doc=doc, chart=tmp_path / "balance.svg", games=2, seed=3)
    first = doc.read_text()
    write_report(rows, doc=doc, chart=tmp_path / "balance.svg", games=2, seed=3)
    assert doc.read_text() == first
    assert first.startswith(hand[0] + BEGIN)
    assert first.endswith(END + hand[1])
    assert "old figures" not in first and first.count(BEGIN) == 1
    assert "](balance.svg)" in first  # the chart, relative to the document


def test_a_document_without_markers_gets_the_section_at_its_end() -> None:
    assert splice("# Mine\n\nText.\n", f"{BEGIN}\nnew\n{END}\n") == (
        f"# Mine\n\nText.\n\n{BEGIN}\nnew\n{END}\n"
    )
    with pytest.raises(ValueError, match="no <!-- balance:end -->"):
        splice(f"{BEGIN}\nunfinished\n", f"{BEGIN}\n{END}\n")


def test_the_chart_is_an_svg_with_every_configuration_and_no_date(
    rows: list[Row], tmp_path: Path
) -> None:
    _, chart = written(rows, tmp_path)
    root = ET.fromstring(chart)
    assert root.tag == f"{SVG}svg"
    texts = {"".join(t.itertext()).strip() for t in root.iter(f"{SVG}text")}
    assert {row.label for row in rows} <= texts
    assert {"Eila and Something Shiny", "target band", "not met"} <= texts
    assert b"<dc:date>" not in chart


def test_two_runs_give_the_same_bytes_however_many_workers_play(tmp_path: Path) -> None:
    configs = [c for c in subset() if c.label in ("chapter 1, normal", "1 explorer")]
    alone = written(play_all(configs, games=1, seed=5, jobs=1), tmp_path / "alone")
    pooled = written(play_all(configs, games=1, seed=5, jobs=2), tmp_path / "pooled")
    assert alone == pooled
    assert "| chapter 1, normal | `greedy` | 1 |" in alone[0]


def test_a_gil_ennis_row_is_played_at_its_difficulty(tmp_path: Path) -> None:
    easy = next(c for c in configurations() if c.label == "easy, two seats")
    argv = command(easy, games=1, seed=2)
    assert argv[argv.index("--option") + 1] == "difficulty=easy"
    # The random bot in place of the search, which takes seconds: the options are the same.
    argv[argv.index("--bot") + 1] = "random"
    export = tmp_path / "events.jsonl"
    assert main([*argv, "--export", str(export)]) == 0
    created = json.loads(export.read_text().splitlines()[0])["event"]
    assert created["options"] == {"difficulty": "easy"}
    assert created["seats"] == ["gil", "ennis"]


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (5, 10, 0.2366, 0.7634),
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        (1, 100, 0.0018, 0.0545),
        (0, 0, 0.0, 1.0),
    ],
)
def test_wilson_interval_matches_known_values(
    wins: int, games: int, low: float, high: float
) -> None:
    assert wilson(wins, games) == pytest.approx((low, high), abs=5e-5)


@pytest.mark.parametrize("games", [1, 3, 7, 10, 49, 100, 263])
def test_the_interval_holds_the_rate_even_at_none_and_all_wins(games: int) -> None:
    for wins in (0, 1, games - 1, games):
        low, high = wilson(wins, games)
        assert 0.0 <= low <= wins / games <= high <= 1.0
    assert wilson(0, games)[0] == 0.0 and wilson(games, games)[1] == 1.0


def row(game: str, label: str, wins: int, days: int = 10, **options: str | int) -> Row:
    report = Report(games=10, wins=wins, losses=10 - wins, events=0, events_per_s=0.0)
    report.days_median = days
    return Row(game, label, "bot", report, 1, dict(options))


def test_targets_judge_bands_and_comparisons() -> None:
    normal = row("eila", "chapter 1, normal", 5, chapter=1, mode="normal")
    harder = row("eila", "chapter 1, advanced", 6, chapter=1, mode="advanced")
    finale = row("eila", "chapter 5, normal", 8, chapter=5, mode="normal")
    rows = [normal, harder, finale]
    assert judge(normal, rows).met
    assert judge(harder, rows).verdict == "not met: normal wins 50.0%"
    assert judge(finale, rows).verdict == "not met: the easiest normal chapter"
    assert not judge(harder, [harder]).judged  # no normal chapter 1 to compare with

    easy = row("gil-ennis", "easy, solo", 2, difficulty="easy")
    hard = row("gil-ennis", "normal, solo", 2, difficulty="normal")
    assert judge(easy, [easy, hard]).misses == ("normal wins 20.0%",)
    assert judge(hard, [easy, hard]).verdict == "not met: 20.0% wins, below 25%"

    short = row("machina", "1 explorer", 5, days=6)
    assert judge(short, [short]).misses == ("median 6 rounds",)


@pytest.mark.parametrize("flags", [["--games", "0"], ["--jobs", "0"]])
def test_no_games_or_no_workers_is_refused_and_writes_nothing(
    flags: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc, chart = tmp_path / "balance.md", tmp_path / "balance.svg"
    assert main(["balance", *flags, "--doc", str(doc), "--chart", str(chart)]) == 2
    assert "at least 1" in capsys.readouterr().err
    assert not doc.exists() and not chart.exists()


DICE_RACE = "dice-race"


def test_an_installed_game_the_report_knows_nothing_of_is_played_at_each_layout() -> None:
    game = get_game(DICE_RACE)  # registered by the suite, as a package would register it
    rows = [c for c in configurations() if c.game == DICE_RACE]
    assert [(c.players, c.bot, c.options) for c in rows] == [
        (len(seats), ANY_GAME_BOT, {}) for seats in game.info.seat_layouts
    ]
    report = play(rows[0], games=6, seed=1)
    row = Row(rows[0].game, rows[0].label, rows[0].bot, report, rows[0].players, rows[0].options)
    verdict = judge(row, [row])
    assert verdict.verdict == "no target set" and not verdict.met
