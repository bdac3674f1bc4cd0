"""The calibration script, briefly: a campaign of each game, its positions tallied and charted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_a_tiny_calibration_tallies_every_game_and_draws_its_chart(tmp_path: Path) -> None:
    chart = tmp_path / "calibration.svg"
    saved = tmp_path / "positions.jsonl"
    arguments = ["--games", "1", "--positions", "2", "--playouts", "2", "--seed", "3"]
    outputs = ["--chart", str(chart), "--save", str(saved)]
    run = subprocess.run(
        [sys.executable, "-m", "cli.analysis_calibration", *arguments, *outputs],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    for title in ("The Epic of Gil & Ennis", "Eila and Something Shiny", "Machina Arcana"):
        assert f"**{title}" in run.stdout and "1 campaigns, 2 positions" in run.stdout
    assert "| chance given | positions | mean given | won | 95% interval |" in run.stdout
    assert len(saved.read_text().splitlines()) == 3
    again = subprocess.run(
        [sys.executable, "-m", "cli.analysis_calibration", "--load", str(saved)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert again.returncode == 0 and again.stdout.split("CPU")[1:] == run.stdout.split("CPU")[1:]
    svg = chart.read_text()
    assert svg.startswith("<?xml") and "Are the analysis" in svg
