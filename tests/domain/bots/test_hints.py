"""A hint names the bot's action and why, from what the seat sees, and changes nothing."""

from __future__ import annotations

import msgspec

from domain.bots.hints import hint
from domain.core.rng import Rng
from domain.eila.game import GAME as EILA
from domain.machina.game import MachinaGame
from tests.domain.bots.worlds import fresh, played

MACHINA = MachinaGame()


def test_a_hint_is_a_legal_action_with_a_reason_in_the_games_words() -> None:
    state = played(MACHINA, fresh(MACHINA, ("ada", "bram"), 12), 10, seed=2)
    seat = MACHINA.to_act(state)[0]
    given = hint(MACHINA, state, seat, level=1, seed=3)
    assert given.action in MACHINA.legal_actions(state, seat)
    assert given.reason.startswith(given.action.label)
    assert "expeditions" in given.reason and "%" in given.reason


def test_a_hint_leaves_the_state_alone_and_ignores_the_secrets() -> None:
    state = played(EILA, fresh(EILA, ("player",), 4, {"chapter": 1}), 15, seed=9)
    before = state
    first = hint(EILA, state, "player", level=1, seed=8)
    assert state == before
    rekeyed = msgspec.structs.replace(state, rng=Rng(1234, 5, "other"))
    assert hint(EILA, rekeyed, "player", level=1, seed=8) == first
