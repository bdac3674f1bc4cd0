"""A hint names the bot's action and why, from what the seat sees, and changes nothing."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from domain.bots.hints import hint, reason
from domain.bots.search import Level, Node, _choice
from domain.bots.search_bot import think
from domain.bots.uniform_random import UniformRandom
from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng
from domain.eila.game import GAME as EILA
from domain.gil_ennis.game import GilEnnisGame
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


# A hint names the move with the best figure it reports, or says why it keeps another.

FIGURE = re.compile(r"(\d+)%")
TABLES: list[tuple[Game, tuple[str, ...], dict[str, Any]]] = [
    (GilEnnisGame(), ("player",), {}),
    (GilEnnisGame(), ("gil", "ennis"), {}),
    (EILA, ("player",), {"chapter": 1}),
    (EILA, ("player",), {"chapter": 2}),
    (MACHINA, ("ada", "bram"), {}),
    (MACHINA, ("ada",), {}),
]


def _positions(game: Game, seats: tuple[str, ...], options: dict[str, Any]) -> list[Any]:
    """24 positions along seeded random playthroughs: every third decision of as many campaigns
    as it takes (a random Eila abandons its chapter early)."""
    found: list[Any] = []
    for campaign in range(12):
        if len(found) >= 24:
            break
        state = fresh(game, seats, 100 + campaign, options)
        bot = UniformRandom(campaign)
        for move in range(36):
            if game.outcome(state) != "running" or not game.to_act(state):
                break
            if move % 3 == 0:
                found.append(state)
            seat, choice = bot.choose(game, state)
            steps = game.play(state, seat, choice.action)
            state = steps[-1][1] if steps else state
    return found


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seats", "options"), TABLES)
def test_a_hint_never_ranks_its_own_move_below_another_it_names(
    game: Game, seats: tuple[str, ...], options: dict[str, Any]
) -> None:
    positions = _positions(game, seats, options)
    assert len(positions) >= 24
    for number, state in enumerate(positions[:24]):
        seat = game.to_act(state)[0]
        chance = Chance(Rng(number, 0, "hint"))
        chosen = think(game, state, (seat,), level=None, chance=chance)
        text = reason(game, chosen)
        figures = [int(f) for f in FIGURE.findall(text)]
        if chosen.why == "only":
            assert not figures
            continue
        own, named = figures[0], figures[1:]
        assert named, text
        if chosen.why == "best":
            assert all(figure <= own for figure in named), text
            assert chosen.win_rate >= chosen.runner_up_rate, text
        else:
            assert chosen.win_rate < chosen.runner_up_rate, text
            assert "within the noise" in text or "too seldom" in text, text
            assert "ahead of" not in text and "level with" not in text, text


def test_the_runner_up_is_judged_by_the_figure_that_chose() -> None:
    """The policy's move kept, a better mean seen too seldom: the hint says so, never 'ahead'."""
    root = Node(
        children={
            ("player", "kept"): Node(visits=10, total=4.0, offered=10),
            ("player", "lucky"): Node(visits=2, total=1.9, offered=10),
            ("player", "close"): Node(visits=6, total=2.6, offered=10),
        }
    )
    first = [("player", LegalAction(key, key.title(), None)) for key in ("kept", "lucky", "close")]
    chosen = _choice(root, first, ("player", "kept"), 18, Level(18, 0, trust=4, margin=0.05))
    assert chosen.action.id == "kept" and chosen.why == "close"
    assert chosen.runner_up is not None and chosen.runner_up.id == "close"
    assert "within the noise of 18 imagined expeditions" in reason(MACHINA, chosen)
