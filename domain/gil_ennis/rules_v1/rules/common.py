"""Shared pieces of the rules: candidate actions, labels and worry level arithmetic."""

from __future__ import annotations

import msgspec

from domain.gil_ennis.rules_v1.actions import GilEnnisAction
from domain.gil_ennis.rules_v1.content import CHARACTERS, CONTENT, Campsite
from domain.gil_ennis.rules_v1.state import GilEnnisState, pool, worry_dice


class Candidate(msgspec.Struct, frozen=True):
    """An action that is legal now for any of ``seats``."""

    seats: tuple[str, ...]
    action: GilEnnisAction
    label: str


def name(character: str) -> str:
    return CHARACTERS[character].name


def die_label(character: str, slot: str, value: int) -> str:
    return f"{name(character)}'s {slot} die {value}"


def campsite(state: GilEnnisState) -> Campsite | None:
    """Where the marker stands (None at home or on the summit)."""
    route = CONTENT.map.route(state.path)
    if 1 <= state.day <= len(route):
        return route[state.day - 1]
    return None


def raised(state: GilEnnisState, amount: int, freed: int = 0) -> int:
    """The worry level after raising it by ``amount``; each die above 6 comes from the pool, so
    the level stops where the pool (plus ``freed`` dice about to return to it) runs out."""
    on_map = len(worry_dice(state.worry_level))
    ceiling = 6 * (on_map + pool(state) + freed)
    return min(state.worry_level + amount, ceiling)


def lowered(state: GilEnnisState, amount: int) -> int:
    """The worry level after lowering it by ``amount``; a die never shows less than 1."""
    return max(1, state.worry_level - amount)
