"""Every version of every campaign has a view for every viewer.

A replay, a timeline or ``GET /state?at=N`` may show any version, those inside one action's events
too (an option chosen, its fight not yet begun). Over random playthroughs of every game, seat
layout, chapter and mode, each state a campaign passes through renders each seat's view, the
spectator's, the turn sentence in them, and each seat's listing of legal actions.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.core.game import Game
from domain.core.turn import Turn
from domain.games import GAMES
from tests.support.random_play import Picks, actions, begun

ENDS_WITHIN = 5_000
"""Gil & Ennis and Machina end on their own clocks, random play within a few hundred actions."""
EILA_ACTIONS = (150, 400)
"""Random play neither wins a chapter of Eila's nor abandons (it is left out), so it retries its
chapter until it stops: each playthrough is this many actions long, several attempts."""

CONFIGURATIONS = [
    *[("gil-ennis", seats, {}) for seats in GAMES["gil-ennis"].info.seat_layouts],
    *[
        ("eila", ("player",), {"chapter": chapter, "mode": mode})
        for mode in ("normal", "advanced")
        for chapter in range(6)
    ],
    *[("machina", seats, {}) for seats in GAMES["machina"].info.seat_layouts],
]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def check_every_viewer(game: Game, state: Any, seats: tuple[str, ...]) -> None:
    to_act = game.to_act(state)
    running = game.outcome(state) == "running"
    for viewer in (*seats, None):
        view: Any = game.view(state, viewer)
        msgspec.json.encode(view)  # what travels on the wire
        turn: Turn = view.turn
        assert turn.to_act == to_act
        if to_act:
            assert running
            assert turn.asked and turn.waiting, f"No turn sentence for {viewer} in {state!r}."
    for seat in seats:
        legal = game.legal_actions(state, seat)
        assert (seat in to_act) == bool(legal)
        assert len({la.id for la in legal}) == len(legal)
        assert all(la.label for la in legal)


def play_every_version(
    game_name: str,
    seats: tuple[str, ...],
    options: dict[str, Any],
    seed: int,
    picker: int,
    length: int,
) -> int:
    """Plays one random campaign, checking every version it passes; returns its actions."""
    game = GAMES[game_name]
    state = begun(game, seats, seed, options)
    check_every_viewer(game, state, seats)
    played = 0
    for _, _, steps in actions(game, state, Picks(picker), limit=length):
        for _, state in steps:
            check_every_viewer(game, state, seats)
        played += 1
    if game_name != "eila":
        assert game.outcome(state) != "running", f"{game_name} did not end in {length} actions."
        return played
    assert played == length
    # Then the campaign is abandoned, asked and confirmed: those versions have views too.
    for action in ("abandon", "confirm_abandon:true"):
        (chosen,) = [la for la in game.legal_actions(state, "player") if la.id == action]
        steps = game.play(state, "player", chosen.action)
        for _, after in steps:
            check_every_viewer(game, after, seats)
        state = steps[-1][1]
    assert game.outcome(state) != "running" and game.to_act(state) == ()
    return played


@pytest.mark.parametrize(
    ("game_name", "seats", "options"),
    CONFIGURATIONS,
    ids=[f"{g}-{len(s)}-{'-'.join(map(str, o.values()))}" for g, s, o in CONFIGURATIONS],
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS, picker=SEEDS, eila_length=st.integers(*EILA_ACTIONS))
def test_every_viewer_has_a_view_and_a_turn_at_every_version(
    game_name: str,
    seats: tuple[str, ...],
    options: dict[str, Any],
    seed: int,
    picker: int,
    eila_length: int,
) -> None:
    length = eila_length if game_name == "eila" else ENDS_WITHIN
    play_every_version(game_name, seats, options, seed, picker, length)
