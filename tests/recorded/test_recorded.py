"""Every recorded campaign stream replays to its stored hashes, and decides the same events again,
under the ruleset it was recorded with: the ruleset in force and every older one a game released.
A ruleset never released is refused, with words."""

from __future__ import annotations

import shutil
from pathlib import Path

import msgspec
import pytest

from domain.core.engine import check_ruleset, replay
from domain.core.errors import UnsupportedRuleset
from domain.core.events import CampaignCreated
from domain.games import game_for, get_game, rulesets_of
from tests.recorded import streams
from tests.recorded.streams import SCENARIOS, Mismatch, Recording, check, decoded, path_of

RECORDED = list(streams.recordings())


def test_every_scenario_is_recorded_under_the_ruleset_in_force() -> None:
    for scenario in SCENARIOS:
        path = path_of(scenario.game, get_game(scenario.game).info.ruleset, scenario.name)
        assert path.exists(), f"{path} is missing: run 'python -m tests.recorded.make'."
    assert {r.game for _, r in RECORDED} == {"gil-ennis", "eila", "machina"}


SHIPPED = ("eila", "gil-ennis", "machina")
RETIRED: frozenset[str] = frozenset()
"""Rulesets this server no longer plays (docs/releases.md, "Retiring a ruleset"): their
recordings stay, and must be refused with words. None is retired yet."""


@pytest.mark.parametrize("name", SHIPPED)
def test_every_released_ruleset_has_recordings_and_every_recording_a_released_ruleset(
    name: str,
) -> None:
    recorded = {r.ruleset for _, r in RECORDED if r.game == name}
    released = set(rulesets_of(name))
    assert released - recorded == set(), "released without a recording"
    assert recorded - released - RETIRED == set(), "recorded under a ruleset never released"
    assert released & RETIRED == set(), "retired, yet still played"


@pytest.mark.parametrize(
    ("path", "recording"),
    RECORDED,
    ids=[f"{p.parent.parent.name}/{p.parent.name}/{p.stem}" for p, _ in RECORDED],
)
def test_a_recorded_stream_replays_and_decides_again_under_its_own_ruleset(
    path: Path, recording: Recording
) -> None:
    if recording.ruleset in RETIRED:
        with pytest.raises(UnsupportedRuleset, match="does not play"):
            game_for(recording.game, recording.ruleset)
        return
    check(recording)


def _solo(ruleset: str | None = None) -> Recording:
    ruleset = ruleset or get_game("gil-ennis").info.ruleset
    return next(
        r for _, r in RECORDED if (r.game, r.scenario, r.ruleset) == ("gil-ennis", "solo", ruleset)
    )


def test_a_changed_evolve_is_caught_at_the_first_divergent_version() -> None:
    for recording in (_solo(), _solo("gil-ennis/1"), _solo("gil-ennis/2+content.1")):
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


def test_a_released_pack_is_never_edited(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = game_for("gil-ennis", "gil-ennis/2+content.1")
    copy = tmp_path / "1"
    shutil.copytree(old.folder, copy)  # type: ignore[attr-defined]
    monkeypatch.setattr(old, "folder", copy)
    check(_solo("gil-ennis/2+content.1"))
    dreams = copy / "dreams.json"
    dreams.write_text(dreams.read_text().replace('"alone": [6]', '"alone": [5]', 1))
    with pytest.raises(Mismatch, match="content files changed"):
        check(_solo("gil-ennis/2+content.1"))


def test_a_ruleset_never_released_is_refused_with_words() -> None:
    recording = _solo()
    lines = list(recording.events)
    created = dict(lines[0].event, ruleset="gil-ennis/7+content.9")
    lines[0] = msgspec.structs.replace(lines[0], event=created)
    with pytest.raises(UnsupportedRuleset) as refused:
        game_for("gil-ennis", "gil-ennis/7+content.9")
    words = str(refused.value)
    assert "'gil-ennis/7+content.9'" in words and "none of the rulesets it keeps" in words
    assert all(repr(r) in words for r in rulesets_of("gil-ennis"))  # what it does play
    # Handed the game of another ruleset, the engine refuses the stream rather than fold it.
    game = get_game("gil-ennis")
    with pytest.raises(UnsupportedRuleset, match=r"'gil-ennis/7\+content\.9'"):
        replay(game, decoded(game, msgspec.structs.replace(recording, events=lines)))
    older = CampaignCreated("gil-ennis", "gil-ennis/1", 101, "s", ("player",), {})
    with pytest.raises(UnsupportedRuleset, match="'gil-ennis/1'"):
        check_ruleset(game, older)
    check_ruleset(game_for("gil-ennis", "gil-ennis/1"), older)


def test_the_machina_recordings_cross_chapters_and_reach_an_end() -> None:
    machina = {r.scenario: r for _, r in RECORDED if r.game == "machina"}
    assert set(machina) >= {"duo-heuristic", "trio-random"}
    for recording in machina.values():
        kinds = [line.event["type"] for line in recording.events]
        assert kinds.count("machina/chapter_flipped") >= 2, recording.scenario
        assert kinds[-1] == "machina/scenario_ended", recording.scenario
    won = [line.event for line in machina["duo-heuristic"].events][-1]
    assert won["result"] == "won"
