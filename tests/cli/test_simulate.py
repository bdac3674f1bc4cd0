from __future__ import annotations

import asyncio
import io
import json

import pytest

from cli.simulate import Simulation, run


def simulate(seed: int, export: io.BytesIO | None = None) -> dict[str, object]:
    sim = Simulation(game="dice-race", games=3, seed=seed, options={"target": 30})
    report = asyncio.run(run(sim, export=export))
    return {f: getattr(report, f) for f in report.__struct_fields__}


def test_same_seed_gives_byte_identical_exports() -> None:
    first, second = io.BytesIO(), io.BytesIO()
    simulate(4, first)
    simulate(4, second)
    assert first.getvalue() == second.getvalue()
    lines = [json.loads(line) for line in first.getvalue().splitlines()]
    assert {line["campaign"] for line in lines} == {"sim4-000001", "sim4-000002", "sim4-000003"}
    assert lines[0]["event"]["type"] == "campaign/created"


def test_other_seed_gives_other_games() -> None:
    a, b = io.BytesIO(), io.BytesIO()
    simulate(4, a)
    simulate(5, b)
    assert a.getvalue() != b.getvalue()


def test_report_counts_every_game_and_event() -> None:
    export = io.BytesIO()
    report = simulate(8, export)
    assert report["games"] == 3
    assert report["wins"] == 3 and report["losses"] == 0  # a race always ends with a winner
    assert report["events"] == len(export.getvalue().splitlines())


@pytest.mark.parametrize("games", [0, 1])
def test_small_runs(games: int) -> None:
    sim = Simulation(game="dice-race", games=games, seed=1, options={"target": 10})
    report = asyncio.run(run(sim))
    assert report.games == games
