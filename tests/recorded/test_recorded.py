"""The recorded campaign streams replay to their stored hashes, and decide the same events again,
under the ruleset they were recorded with; the engine refuses those of other rulesets."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest

from domain.core.engine import replay
from domain.core.errors import UnsupportedRuleset
from domain.games import game_for, get_game, rulesets_of
from tests.recorded import streams
from tests.recorded.streams import SCENARIOS, Mismatch, Recording, check, decoded, path_of

RECORDED = list(streams.recordings())


def test_every_scenario_is_recorded_under_the_ruleset_in_force() -> None:
    for scenario in SCENARIOS:
        path = path_of(scenario.game, get_game(scenario.game).info.ruleset, scenario.name)
        assert path.exists(), f"{path} is missing: run 'python -m tests.recorded.make'."
    assert {r.game for _, r in RECORDED} == {"gil-ennis", "eila", "machina"}


@pytest.mark.parametrize(("path", "recording"), RECORDED, ids=[str(p.stem) for p, _ in RECORDED])
def test_a_recorded_stream_replays_or_is_refused_by_ruleset(
    path: Path, recording: Recording
) -> None:
    if recording.ruleset in rulesets_of(recording.game):
        check(recording)
    else:
        with pytest.raises(UnsupportedRuleset):
            game_for(recording.game, recording.ruleset)


def _solo() -> Recording:
    ruleset = get_game("gil-ennis").info.ruleset
    return next(
        r for _, r in RECORDED if (r.game, r.scenario, r.ruleset) == ("gil-ennis", "solo", ruleset)
    )


def test_a_changed_evolve_is_caught_at_the_first_divergent_version() -> None:
    recording = _solo()
    lines = list(recording.events)
    lines[9] = msgspec.structs.replace(lines[9], hash="0" * 32)
    with pytest.raises(Mismatch, match=r"diverges at version 10 .*bump the ruleset"):
        check(msgspec.structs.replace(recording, events=lines))


def test_a_changed_decide_is_caught() -> None:
    recording = _solo()
    actions = list(recording.actions)
    actions[2] = msgspec.structs.replace(actions[2], id="hike:nowhere")
    with pytest.raises(Mismatch, match="no longer legal"):
        check(msgspec.structs.replace(recording, actions=actions))


def test_changed_content_needs_a_new_content_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "content"
    shutil.copytree(streams.CONTENT_DIRS["gil-ennis"], copy)
    check(_solo())
    monkeypatch.setitem(streams.CONTENT_DIRS, "gil-ennis", copy)
    check(_solo())  # the same content, wherever it lies
    humbaba = copy / "humbaba.json"
    humbaba.write_text(humbaba.read_text().replace("Humbaba", "Humbabah", 1))
    with pytest.raises(Mismatch, match="content files changed"):
        check(_solo())


def test_a_recording_of_a_retired_ruleset_is_refused_by_the_engine() -> None:
    recording = _solo()
    lines = list(recording.events)
    created = dict(lines[0].event, ruleset="gil-ennis/1")
    lines[0] = msgspec.structs.replace(lines[0], event=created)
    old = msgspec.structs.replace(recording, ruleset="gil-ennis/1", events=lines)
    game = get_game("gil-ennis")
    with pytest.raises(UnsupportedRuleset, match="'gil-ennis/1'"):
        replay(game, decoded(game, old))


def test_the_machina_recordings_cross_chapters_and_reach_an_end() -> None:
    machina = {r.scenario: r for _, r in RECORDED if r.game == "machina"}
    assert set(machina) >= {"duo-heuristic", "trio-random"}
    for recording in machina.values():
        kinds = [line.event["type"] for line in recording.events]
        assert kinds.count("machina/chapter_flipped") >= 2, recording.scenario
        assert kinds[-1] == "machina/scenario_ended", recording.scenario
    won = [line.event for line in machina["duo-heuristic"].events][-1]
    assert won["result"] == "won"
