from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.engine import replay, states
from domain.core.game import LegalAction
from domain.core.hashing import state_hash
from domain.eila import GAME
from domain.eila.content import INTANGIBLE, TANGIBLE
from domain.eila.rules.effects import waits_for_room
from domain.eila.rules.frames import pending
from domain.eila.rules.storage import fear_plan, stored
from domain.eila.state import EilaState
from tests.domain.eila.helpers import Table
from tests.support.random_play import Picks, playing

RULES = GAME.pack.ruleset


def _check_invariants(state: EilaState) -> None:
    resources = state.resources
    assert stored(resources, TANGIBLE) <= RULES.tangible_capacity
    assert stored(resources, INTANGIBLE) <= RULES.intangible_capacity
    assert all(getattr(resources, name) >= 0 for name in resources.__struct_fields__)
    assert resources.fear <= RULES.fear_max
    assert 0 <= state.hp <= state.max_hp
    assert len(state.time_track) <= RULES.time_track
    assert 1 <= state.day <= RULES.time_track
    # Fear waits only while room is missing: once there is room, it has been taken.
    effect = pending(state)
    if waits_for_room(effect) and effect is not None:
        assert fear_plan(GAME.pack, resources, effect.amount)[2] > 0


PLAYS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CHAPTERS = [(chapter, mode) for mode in ("normal", "advanced") for chapter in range(6)]
SEEDS = st.integers(0, 2**64 - 1)
LENGTHS = st.integers(200, 400)
"""Actions a playthrough takes, unless the campaign ends first (it seldom does: abandoning is left
out, and random play hardly ever wins a chapter, so it plays the chapter it began attempt after
attempt, each lasting about 20 to 200 actions): markets, location actions, fights and many
nights."""


@pytest.mark.parametrize(("chapter", "mode"), CHAPTERS, ids=[f"{c}-{m}" for c, m in CHAPTERS])
@PLAYS
@given(seed=SEEDS, picker=SEEDS, length=LENGTHS)
def test_random_playthroughs_keep_invariants_and_replay(
    chapter: int, mode: str, seed: int, picker: int, length: int
) -> None:
    table = Table(GAME, seed=seed, mode=mode, chapter=chapter)
    played = _play_and_replay(table, Picks(picker), length)
    assert played == length or GAME.outcome(table.state) != "running"


def _play_and_replay(table: Table, picks: Picks, length: int) -> int:
    """Plays up to ``length`` random actions (fewer only if the campaign ends), checking each
    state an action leaves; then the stream replays to every hash. Returns the actions played."""
    played = 0
    while played < length:
        legal = table.legal()
        # The search's listing: the same actions, in the same order, with no labels written.
        unlabelled = GAME.unlabelled_actions(table.state, "player")
        assert unlabelled == [LegalAction(la.id, "", la.action) for la in legal]
        if GAME.outcome(table.state) != "running":
            assert legal == []
            assert GAME.to_act(table.state) == ()
            break
        assert legal, "a running campaign always has a legal action"
        assert GAME.to_act(table.state) == ("player",)
        assert len({la.id for la in legal}) == len(legal)
        choice = picks.pick(playing(legal))
        table.apply(GAME.decide(table.state, "player", choice.action))
        _check_invariants(table.state)
        GAME.view(table.state, "player")
        played += 1
    numbered = list(enumerate(table.events, start=1))
    replayed = [state_hash(s) for _, s in states(GAME, numbered)]
    assert replayed == table.hashes
    assert replay(GAME, numbered) == table.state
    return played


@pytest.mark.parametrize("chapter", range(6))
@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, picker=SEEDS, length=LENGTHS)
def test_every_event_has_a_timeline_line_or_none_and_a_redacted_form(
    chapter: int, seed: int, picker: int, length: int
) -> None:
    table = Table(GAME, seed=seed, chapter=chapter)
    picks = Picks(picker)
    for _ in range(length):
        if GAME.outcome(table.state) != "running":
            break
        table.apply(GAME.decide(table.state, "player", picks.pick(playing(table.legal())).action))
    state: EilaState = GAME.initial(table.events[0])
    for event in table.events[1:]:
        redacted = GAME.redact(event, "player")
        assert type(redacted) is type(event)
        state = GAME.evolve(state, event)
        line = GAME.describe(event, state)
        assert line is None or isinstance(line, str)
