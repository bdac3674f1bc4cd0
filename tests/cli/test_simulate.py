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


def test_whole_eila_campaigns_count_chapter_attempts() -> None:
    sim = Simulation(
        game="eila",
        games=2,
        seed=3,
        bot="greedy",
        options={"chapter": 2},
        whole_campaigns=True,
    )
    export = io.BytesIO()
    report = asyncio.run(run(sim, export=export))
    assert (report.wins, report.losses) == (2, 0)  # the greedy bot never abandons
    assert report.attempts_won == 8  # chapters 2 to 5, in each campaign
    # Every lost attempt is one chapter_lost event in the campaigns' streams.
    kinds = [json.loads(line)["event"]["type"] for line in export.getvalue().splitlines()]
    assert report.attempts_lost == kinds.count("eila/chapter_lost")
    assert kinds.count("eila/chapter_won") == 8


def test_the_campaign_flag_reaches_the_simulation(capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    argv = ["simulate", "eila", "--chapter", "3", "--campaign", "--games", "1", "--json"]
    assert main([*argv, "--bot", "greedy"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["wins"] == 1 and out["attempts_won"] == 3  # chapters 3 to 5


def test_the_search_bot_plays_at_the_level_named_after_its_name() -> None:
    sim = Simulation(game="gil-ennis", games=1, seed=2, bot="search:1")
    assert sim.bot_and_level() == ("search", 1)
    report = asyncio.run(run(sim))
    assert report.games == 1 and report.wins + report.losses == 1


def test_a_level_is_a_number_of_the_search_bot() -> None:
    from domain.core.errors import InvalidOptions

    with pytest.raises(InvalidOptions, match="number"):
        Simulation(game="gil-ennis", games=1, seed=2, bot="search:hard").bot_and_level()
    with pytest.raises(InvalidOptions, match="no levels"):
        asyncio.run(run(Simulation(game="gil-ennis", games=1, seed=2, bot="random", level=2)))
    assert Simulation(game="eila", games=1, seed=1, bot="search", level=3).bot_and_level() == (
        "search",
        3,
    )


def test_the_report_gives_the_bots_thinking_time_per_decision() -> None:
    report = asyncio.run(run(Simulation(game="gil-ennis", games=2, seed=3, bot="search:1")))
    assert report.decision_ms_p50 is not None and report.decision_ms_p95 is not None
    assert 0 < report.decision_ms_p50 <= report.decision_ms_p95
    empty = asyncio.run(run(Simulation(game="gil-ennis", games=0, seed=3)))
    assert empty.decision_ms_p95 is None


def test_machina_reports_the_eternity_rules_that_fired() -> None:
    sim = Simulation(game="machina", games=2, seed=1, players=2, bot="heuristic")
    report = asyncio.run(run(sim))
    assert report.eternity is not None
    assert report.eternity.games == 2
    assert report.eternity.rounds_min >= 1
    assert set(report.eternity.reached) == {"spawn_rating_1", "horror_rating_2", "horror_rating_1"}
    assert report.eternity.games_fired["chapter_tiles_placed"] == 2
    assert simulate(1)["eternity"] is None  # other games have no Eternity rules
