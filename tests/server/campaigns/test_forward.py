"""What moving each older ruleset's recordings forward to today's ruleset does, as it is: the
figures docs/releases.md gives ("Moving a campaign forward"). A change to today's rules that
alters one of them shows here first."""

from __future__ import annotations

import pytest

from domain.games import game_for, get_game
from server.campaigns.codec import Recorded
from server.campaigns.forward import Plan, plan
from tests.recorded.streams import Recording, decoded, recordings
from tests.support.old_recorded import Refusing, older

OLDER = older()

EXPECTED = {
    "eila-1 chapter-0": ("diverges", 13),
    "eila-1 chapter-1": ("diverges", 9),
    "eila/2+content.1 chapter-0": ("identical", None),
    "eila/2+content.1 chapter-1": ("diverges", 26),
    "eila/3+content.2 chapter-0": ("identical", None),
    "eila/3+content.2 chapter-1": ("diverges", 26),
    "eila/3+content.2 chapter-2": ("identical", None),
    "eila/3+content.2 chapter-3-advanced": ("identical", None),
    "eila/3+content.3 chapter-0": ("identical", None),
    "eila/3+content.3 chapter-1": ("diverges", 26),
    "eila/3+content.3 chapter-2": ("identical", None),
    "eila/3+content.3 chapter-3-advanced": ("identical", None),
    "eila/4+content.3 chapter-0": ("identical", None),
    "eila/4+content.3 chapter-1": ("diverges", 26),
    "eila/4+content.3 chapter-2": ("identical", None),
    "eila/4+content.3 chapter-3-advanced": ("identical", None),
    "eila/4+content.4 chapter-0": ("identical", None),
    "eila/4+content.4 chapter-1": ("identical", None),
    "eila/4+content.4 chapter-2": ("identical", None),
    "eila/4+content.4 chapter-3-advanced": ("identical", None),
    "gil-ennis/1 coop": ("diverges", 0),
    "gil-ennis/1 solo-easy": ("diverges", 0),
    "gil-ennis/1 solo": ("diverges", 0),
    "gil-ennis/2+content.1 coop": ("diverges", 26),
    "gil-ennis/2+content.1 solo-easy": ("diverges", 34),
    "gil-ennis/2+content.1 solo": ("diverges", 19),
    "machina/1 trio-random": ("diverges", 7),
    "machina/1+content.1 duo-heuristic": ("diverges", 1),
    "machina/1+content.1 trio-random": ("diverges", 7),
    "machina/2+content.1 duo-heuristic": ("diverges", 6),
    "machina/2+content.1 trio-random": ("diverges", 18),
}


def planned(recording: Recording) -> Plan:
    game = game_for(recording.game, recording.ruleset)
    pairs = decoded(game, recording)
    recorded = [
        Recorded(version, event, line.hash)
        for (version, event), line in zip(pairs, recording.events, strict=True)
    ]
    return plan("old", game, recorded)


def test_every_older_recording_has_its_expectation() -> None:
    assert set(OLDER) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_plan_of_each_older_recording(name: str) -> None:
    recording = OLDER[name]
    found = planned(recording)
    kind, at = EXPECTED[name]
    assert (found.kind, found.at) == (kind, at), found.why
    assert found.today == get_game(recording.game).info.ruleset != found.ruleset
    assert found.moves == len(recording.actions) or found.kind != "identical"
    # What a moved campaign holds: creation and set-up, then every move before the divergence.
    assert len(found.stretches) == 1 + found.applied
    assert found.applied == (found.moves if at is None else at - (1 if at else 0))
    if kind == "diverges" and at:
        assert f"Move {at} (“" in found.why
        assert ("no longer a legal move" in found.why) or ("other results" in found.why)


def test_a_campaign_on_todays_ruleset_is_current() -> None:
    recording = next(
        r for _, r in recordings() if r.ruleset == get_game(r.game).info.ruleset and r.actions
    )
    found = planned(recording)
    assert found.kind == "current" and found.stretches == [] and found.summary == "already current"


def test_a_creation_todays_rules_refuse_is_not_possible() -> None:
    recording = OLDER["eila/4+content.4 chapter-0"]
    game = game_for(recording.game, recording.ruleset)
    recorded = [
        Recorded(version, event, line.hash)
        for (version, event), line in zip(decoded(game, recording), recording.events, strict=True)
    ]
    found = plan("old", game, recorded, today=Refusing(get_game("eila")))
    assert (found.kind, found.applied, found.stretches) == ("not_possible", 0, [])
    assert "no longer takes these options" in found.why and found.summary == "not possible"
