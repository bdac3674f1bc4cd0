from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.engine import replay, states
from domain.core.game import LegalAction
from domain.core.hashing import state_hash
from domain.eila import GAME
from domain.eila.actions import Abandon
from domain.eila.content import INTANGIBLE, TANGIBLE
from domain.eila.rules.effects import waits_for_room
from domain.eila.rules.frames import pending
from domain.eila.rules.storage import fear_plan, stored
from domain.eila.state import EilaState
from tests.domain.eila.helpers import Table

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


def _playing(legal: list[LegalAction]) -> list[LegalAction]:
    """Every legal action but abandoning the campaign, which would end most playthroughs early."""
    return [la for la in legal if not isinstance(la.action, Abandon)]


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    mode=st.sampled_from(["normal", "advanced"]),
    chapter=st.sampled_from([0, 1, 2, 3, 4, 5]),
    picks=st.lists(st.integers(0, 1000), max_size=400),
)
def test_random_playthroughs_keep_invariants_and_replay(
    seed: int, mode: str, chapter: int, picks: list[int]
) -> None:
    _play_and_replay(Table(GAME, seed=seed, mode=mode, chapter=chapter), picks)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    mode=st.sampled_from(["normal", "advanced"]),
    chapter=st.sampled_from([4, 5]),
    picks=st.lists(st.integers(0, 1000), min_size=200, max_size=400),
)
def test_random_playthroughs_of_the_castle_and_the_mountain_replay(
    seed: int, mode: str, chapter: int, picks: list[int]
) -> None:
    """Chapters 4 and 5 in both modes, each playthrough long enough to reach markets, location
    actions and fights (at least 200 actions unless the chapter ends first)."""
    _play_and_replay(Table(GAME, seed=seed, mode=mode, chapter=chapter), picks)


def _play_and_replay(table: Table, picks: list[int]) -> None:
    for pick in picks:
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
        choice = _playing(legal)[pick % len(_playing(legal))]
        table.apply(GAME.decide(table.state, "player", choice.action))
        _check_invariants(table.state)
        GAME.view(table.state, "player")
    numbered = list(enumerate(table.events, start=1))
    replayed = [state_hash(s) for _, s in states(GAME, numbered)]
    assert replayed == table.hashes
    assert replay(GAME, numbered) == table.state


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    chapter=st.sampled_from([0, 1, 2, 3, 4, 5]),
    picks=st.lists(st.integers(0, 1000), max_size=200),
)
def test_every_event_has_a_timeline_line_or_none_and_a_redacted_form(
    seed: int, chapter: int, picks: list[int]
) -> None:
    table = Table(GAME, seed=seed, chapter=chapter)
    for pick in picks:
        legal = table.legal()
        if not legal:
            break
        table.apply(GAME.decide(table.state, "player", legal[pick % len(legal)].action))
    state = table.events and GAME.initial(table.events[0])
    for event in table.events[1:]:
        redacted = GAME.redact(event, "player")
        assert type(redacted) is type(event)
        state = GAME.evolve(state, event)
        line = GAME.describe(event, state)
        assert line is None or isinstance(line, str)
