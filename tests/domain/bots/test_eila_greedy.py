from __future__ import annotations

from domain.bots.eila_greedy import greedy_choice
from domain.eila import GAME, chapter_outcome
from tests.domain.eila.helpers import Table


def _greedy_attempt(seed: int, **options: object) -> Table:
    table = Table(GAME, seed=seed, **options)
    for _ in range(2000):
        if chapter_outcome(table.state) != "running":
            break
        legal = table.legal()
        choice = greedy_choice(GAME.pack, table.state, legal)
        assert choice in legal
        table.apply(GAME.decide(table.state, "player", choice.action))
    return table


def test_greedy_bot_wins_chapter_zero() -> None:
    for seed in range(5):
        assert chapter_outcome(_greedy_attempt(seed).state) == "won"


def test_greedy_bot_finishes_a_chapter_one_attempt() -> None:
    table = _greedy_attempt(3, chapter=1)
    assert chapter_outcome(table.state) in ("won", "lost")


def test_greedy_bot_takes_resources_in_full_and_submits() -> None:
    table = Table(GAME)
    table.do("A:")  # 001 A: +1 Food
    assert greedy_choice(GAME.pack, table.state, table.legal()).label == "Take 1 of +1 Food"
    table.give(food=2, energy=1)
    while table.state.phase != "night":
        choice = greedy_choice(GAME.pack, table.state, table.legal())
        table.apply(GAME.decide(table.state, "player", choice.action))
    assert greedy_choice(GAME.pack, table.state, table.legal()).label.startswith("Submit 1 Food")
