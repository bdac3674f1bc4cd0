"""The longest campaign each shipped game declares (``GameInfo.longest``) holds for its bots too,
not only for the game kit's random playthroughs: a bot that plays well plays longer. For Eila,
played in chapters and free to retry a lost one, the bound is one attempt's."""

from __future__ import annotations

from typing import Any

import pytest

from domain.bots import make_bot
from domain.core import engine
from domain.core.game import Game
from domain.core.rng import word
from domain.games import get_game
from domain.kit.playthrough import created

CAMPAIGNS = 4


def attempt(game: Game, state: Any) -> tuple[str | None, int]:
    """Which attempt a state is in: the chapter and how many attempts have ended."""
    progress = game.progress(state)
    return progress.chapter, sum(a.won + a.lost for a in progress.attempts)


def longest_stretch(game: Game, bot_name: str, seats: tuple[str, ...], n: int) -> tuple[int, bool]:
    """The moves of the bot's campaign ``n`` (for a game in chapters, of its longest attempt),
    and whether it ended within a hundred times the declared longest."""
    longest = game.info.longest
    assert longest is not None
    state = engine.evolve(game, None, created(game, seats, {}, word(37, n)))
    for event in game.setup(state):
        state = engine.evolve(game, state, event)
    bot = make_bot(bot_name, game, n)
    moves = stretch = most = 0
    current = attempt(game, state)
    while game.outcome(state) == "running" and moves < 100 * longest:
        seat, choice = bot.choose(game, state)
        state = game.play(state, seat, choice.action)[-1][1]
        moves += 1
        stretch += 1
        if game.info.chapters and attempt(game, state) != current:
            current, most, stretch = attempt(game, state), max(most, stretch), 0
    return max(most, stretch), game.outcome(state) != "running"


@pytest.mark.parametrize(
    ("name", "bot_name"), [("gil-ennis", "heuristic"), ("machina", "heuristic"), ("eila", "greedy")]
)
def test_the_bots_campaigns_end_within_the_longest_declared(name: str, bot_name: str) -> None:
    game = get_game(name)
    assert game.info.longest is not None
    for layout in game.info.seat_layouts:
        for n in range(CAMPAIGNS):
            moves, ended = longest_stretch(game, bot_name, layout, n)
            assert ended, (name, layout, n)
            assert moves <= game.info.longest, (name, layout, n, moves)
