"""Every view says whose move it is and what is asked, in the rulebook's words."""

from __future__ import annotations

from collections import Counter

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.core.turn import Turn
from domain.eila import GAME
from domain.eila.actions import Abandon, ChooseOption
from domain.eila.state import EilaState
from tests.domain.eila.helpers import Table

SEEN: Counter[str] = Counter()
"""Every ``asked`` met across the random playthroughs (to read when a sentence looks wrong)."""


def _check(state: EilaState) -> Turn:
    turn = GAME.view(state, "player").turn
    assert GAME.view(state, None).turn == turn
    assert turn.to_act == GAME.to_act(state)
    if GAME.outcome(state) == "running":
        assert turn.asked and turn.waiting
        assert turn.asked[0].isupper() and turn.waiting.startswith("to ")
        SEEN[turn.asked] += 1
    else:
        assert turn == Turn()
    # Built from what is face up: the upcoming deck's order and the Future's do not show.
    hidden = msgspec.structs.replace(
        state, upcoming=state.upcoming[::-1], future=state.future[::-1]
    )
    assert GAME.view(hidden, None).turn == turn
    return turn


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**63 - 1),
    mode=st.sampled_from(["normal", "advanced"]),
    chapter=st.sampled_from([0, 1, 2, 3, 4, 5]),
    picks=st.lists(st.integers(0, 1000), min_size=50, max_size=300),
)
def test_every_state_of_random_chapters_says_who_acts_and_what_is_asked(
    seed: int, mode: str, chapter: int, picks: list[int]
) -> None:
    table = Table(GAME, seed=seed, mode=mode, chapter=chapter)
    _check(table.state)
    for pick in picks:
        if GAME.outcome(table.state) != "running":
            break
        legal = [la for la in table.legal() if not isinstance(la.action, Abandon)]
        table.act(legal[pick % len(legal)].action)
        _check(table.state)
    if GAME.outcome(table.state) == "running":
        # Abandoning asks for a confirmation, then ends the campaign.
        table.act(Abandon())
        assert _check(table.state).asked.startswith("Confirm: abandon the campaign")
        yes = next(la for la in table.legal() if la.label.startswith("Yes"))
        table.act(yes.action)
        assert _check(table.state) == Turn()


def test_the_day_phase_asks_for_an_option_of_the_present_card() -> None:
    table = Table(GAME, seed=1)
    turn = _check(table.state)
    assert table.state.present and not table.state.frames
    assert turn == Turn(
        ("player",),
        "Choose an option of the present card",
        "to choose an option of the present card",
    )


def test_a_gain_asks_how_many_to_acquire() -> None:
    table = Table(GAME, seed=1)
    for _ in range(20):
        card = GAME.pack.card(table.state.present, table.state.mode)
        food = [
            o
            for o in card.options
            if [(e.kind, e.resource) for e in o.effects] == [("gain", "food")]
        ]
        if food and not table.state.frames:
            table.act(ChooseOption(food[0].letter))
            break
        legal = [la for la in table.legal() if isinstance(la.action, ChooseOption)]
        table.act(legal[0].action)
    amount = food[0].effects[0].amount
    turn = _check(table.state)
    assert turn.asked == f"Choose how many of +{amount} Food to acquire (it can be zero)"
    assert turn.waiting == "to choose how much Food to acquire"
