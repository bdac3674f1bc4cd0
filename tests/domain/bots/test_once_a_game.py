"""A once-a-game ability is played only when the search's own figures say it pays."""

from __future__ import annotations

from domain.bots.knowledge import GIL_ENNIS
from domain.bots.search import Level, Node, _choice
from domain.core.game import LegalAction
from domain.gil_ennis.actions import Hike, UsePower

LEVEL = Level(iterations=20, playout=0, trust=3, margin=0.03)
PEBBLE = UsePower("ennis", "ability:ennis/lucky-pebble", "backpack", 1, 6)
POWER = ("ennis", LegalAction("power", "Use Lucky Pebble", PEBBLE))
KEEP = ("ennis", LegalAction("hike", "Hike", Hike()))


def root(power: tuple[int, float], keep: tuple[int, float]) -> Node:
    """A root whose two first moves were visited and scored so: ``(visits, mean)``."""
    node = Node()
    for move, (visits, mean) in ((POWER, power), (KEEP, keep)):
        node.children[(move[0], move[1].id)] = Node(visits=visits, total=visits * mean)
    return node


def chosen(power: tuple[int, float], keep: tuple[int, float]) -> str:
    found = _choice(
        root(power, keep), [POWER, KEEP], ("ennis", "power"), 20, LEVEL, GIL_ENNIS.spends
    )
    return found.action.id


def test_the_abilities_are_what_a_seat_has_once_a_game() -> None:
    abilities = ("ennis", "ability:ennis/lucky-pebble"), ("gil", "ability:gil/second-look")
    for who, key in abilities:
        assert GIL_ENNIS.spends(UsePower(who, key, "hand", 2, 6)), key
    assert not GIL_ENNIS.spends(UsePower("gil", "insight:d01", "hand", 2, 6))
    assert not GIL_ENNIS.spends(Hike())


def test_a_favourite_ability_that_scores_no_better_is_kept_for_later() -> None:
    assert chosen(power=(10, 0.50), keep=(10, 0.50)) == "hike"
    assert chosen(power=(10, 0.52), keep=(10, 0.50)) == "hike", "within the margin"


def test_an_ability_seldom_tried_is_not_played_on_a_lucky_figure() -> None:
    assert chosen(power=(1, 0.9), keep=(10, 0.5)) == "hike"


def test_an_ability_whose_figures_pay_is_played() -> None:
    assert chosen(power=(10, 0.60), keep=(10, 0.50)) == "power"
