from __future__ import annotations

from domain.bots import make_bot
from domain.bots.machina_heuristic import MachinaHeuristic
from domain.bots.uniform_random import UniformRandom
from domain.core.game import Game
from domain.machina import GAME
from domain.machina.state import MachinaState
from tests.domain.machina.helpers import DUO, FOUR, SOLO, fresh


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


def test_the_heuristic_bot_wins_most_expeditions_with_any_number_of_explorers() -> None:
    """Solo is the hardest (``tabletale simulate machina`` loses about one in ten); with company
    the bot has not been seen to lose."""
    for seats, least in ((SOLO, 4), (DUO, 5), (FOUR, 5)):
        outcomes = [
            GAME.outcome(_finish(fresh(seats, seed), MachinaHeuristic())) for seed in range(5)
        ]
        assert outcomes.count("won") >= least, (seats, outcomes)


def test_random_play_mostly_loses() -> None:
    outcomes = [GAME.outcome(_finish(fresh(SOLO, seed), UniformRandom(seed))) for seed in range(5)]
    assert "lost" in outcomes


def test_the_heuristic_bot_is_machinas_only() -> None:
    assert isinstance(make_bot("heuristic", GAME, 1), MachinaHeuristic)
