"""A pure function remembers its last few answers by the identity of its arguments."""

from __future__ import annotations

import random
from collections.abc import Callable

from domain.core.memo import KEEP, recent
from domain.gil_ennis import GAME
from domain.gil_ennis.rules import _listed, candidates
from tests.domain.gil_ennis.helpers import COOP, rolled


def counted() -> tuple[list[tuple[int, ...]], Callable[[tuple[int, ...]], int]]:
    calls: list[tuple[int, ...]] = []

    @recent
    def total(values: tuple[int, ...]) -> int:
        calls.append(values)
        return sum(values)

    return calls, total


def test_the_same_argument_is_answered_once() -> None:
    calls, total = counted()
    values = (1, 2, 3)
    assert total(values) == total(values) == 6
    assert calls == [values]


def test_an_equal_argument_that_is_another_object_is_asked_again() -> None:
    calls, total = counted()
    first, second = tuple([1, 2]), tuple([1, 2])
    assert first == second and first is not second
    total(first)
    total(second)
    assert len(calls) == 2


def test_only_the_last_few_arguments_are_remembered() -> None:
    calls, total = counted()
    arguments = [tuple([n]) for n in range(KEEP + 1)]
    for values in arguments:
        total(values)
    total(arguments[-1])
    assert len(calls) == KEEP + 1
    total(arguments[0])  # forgotten: the oldest of KEEP + 1
    assert len(calls) == KEEP + 2


def test_remembering_changes_no_answer_over_random_journeys() -> None:
    rng = random.Random(5)
    for seed in range(1, 6):
        state = rolled(COOP, seed=seed)
        while GAME.outcome(state) == "running" and GAME.to_act(state):
            assert candidates(state) == tuple(_listed(state))
            assert candidates(state) is candidates(state)
            seat = GAME.to_act(state)[0]
            action = rng.choice(GAME.legal_actions(state, seat)).action
            state = GAME.play(state, seat, action)[-1][1]
