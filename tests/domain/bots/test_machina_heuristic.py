from __future__ import annotations

from domain.bots import make_bot
from domain.bots.machina_heuristic import MachinaHeuristic
from domain.bots.uniform_random import UniformRandom
from domain.core.game import Game
from domain.machina import GAME
from domain.machina.state import MachinaState
from tests.domain.machina.helpers import DUO, FOUR, SOLO, TRIO, fresh


def _finish(state: MachinaState, bot: MachinaHeuristic | UniformRandom) -> MachinaState:
    game: Game = GAME
    for _ in range(5_000):
        if GAME.outcome(state) != "running":
            return state
        seat, choice = bot.choose(game, state)
        assert choice in GAME.legal_actions(state, seat)
        for event in GAME.decide(state, seat, choice.action):
            state = GAME.evolve(state, event)
    raise AssertionError("the expedition did not end")


def test_the_heuristic_bot_wins_some_expeditions_and_loses_some_with_any_party() -> None:
    """The content is balanced for a sensible party to win about half its expeditions at every
    party size (``domain/machina/RULES_NOTES.md``, Balance): over eight seeds the bot neither
    always wins nor always loses, with one to four explorers."""
    for seats in (SOLO, DUO, TRIO, FOUR):
        outcomes = [
            GAME.outcome(_finish(fresh(seats, seed), MachinaHeuristic())) for seed in range(8)
        ]
        assert 2 <= outcomes.count("won") <= 6, (seats, outcomes)


def test_random_play_mostly_loses() -> None:
    outcomes = [GAME.outcome(_finish(fresh(SOLO, seed), UniformRandom(seed))) for seed in range(5)]
    assert "lost" in outcomes


def test_the_heuristic_bot_is_machinas_only() -> None:
    assert isinstance(make_bot("heuristic", GAME, 1), MachinaHeuristic)
