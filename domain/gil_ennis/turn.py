"""Whose move it is and what is asked, in the rulebook's words (see :mod:`domain.core.turn`).

Every seat sees the whole table in Gil & Ennis, so the sentence may name dice and dreams; it
never names the dream deck's order.
"""

from __future__ import annotations

from domain.core.memo import recent
from domain.core.turn import ENDED, Turn
from domain.gil_ennis.actions import (
    Calm,
    CashInsights,
    DreamAlone,
    DreamTogether,
    Give,
    Organize,
    Reroll,
    UsePower,
)
from domain.gil_ennis.content import content, dreams
from domain.gil_ennis.rules import candidates, placing
from domain.gil_ennis.rules.common import Candidate, name
from domain.gil_ennis.state import GilEnnisState

SEAT_NAMES = {"player": "Gil & Ennis", "gil": "Gil", "ennis": "Ennis"}
SPECIALS = Reroll | Calm | CashInsights | Give


@recent
def to_act(state: GilEnnisState) -> tuple[str, ...]:
    """The seats with something to do (remembered: see :mod:`domain.core.memo`)."""
    if state.result != "running":
        return ()
    found = candidates(state)
    return tuple(seat for seat in state.seats if any(seat in c.seats for c in found))


def _whose(state: GilEnnisState, characters: tuple[str, ...]) -> tuple[str, str]:
    """How to say whose dice: to the seats that act ("your") and to onlookers ("their"). A solo
    player acts for both characters, so the characters are named."""
    if len(state.seats) == 2:
        return "your", "their"
    named = " and ".join(f"{name(who)}'s" for who in characters)
    return named, named


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


def _placing(state: GilEnnisState) -> tuple[str, str]:
    own, their = _whose(state, placing.waiting(state))
    if state.phase == "setup":
        return (
            f"Pack {own} five dice: one in the HAND, one in the POCKET, three in the BACKPACK",
            f"to pack {their} dice",
        )
    return (
        f"Add the drawn dice to {own} inventory, filling in from the HAND slot: "
        "choose which goes in first",
        f"to add the drawn dice to {their} inventory",
    )


def _hike(state: GilEnnisState) -> tuple[str, str]:
    if state.day == len(content().map.trail):
        paths = " or ".join(p.name for p in content().map.paths)
        return f"HIKE: choose your path, {paths}", "to choose a path"
    route = content().map.route(state.path)
    if state.day < len(route):
        where = route[state.day].name
        return f"HIKE: move on to the next campsite, {where}", f"to hike to {where}"
    summit = content().map.summit
    return f"HIKE to {summit} for the final night", f"to hike to {summit}"


def _pitch(found: list[Candidate]) -> tuple[str, str]:
    offered: list[str] = []
    if any(isinstance(c.action, SPECIALS) for c in found):
        offered.append("take the special campsite action")
    if any(isinstance(c.action, UsePower) for c in found):
        offered.append("use character abilities")
    if any(isinstance(c.action, Organize) for c in found):
        offered.append("organize supplies")
    if not offered:
        return "PITCH: turn in for the night", "to turn in for the night"
    return (
        f"PITCH: {_and(offered)}, then turn in for the night",
        "to pitch camp and turn in for the night",
    )


def _sleep(state: GilEnnisState, found: list[Candidate]) -> tuple[str, str]:
    if state.step == "choose":
        ways = [
            *(["dream alone"] if any(isinstance(c.action, DreamAlone) for c in found) else []),
            *(
                ["dream together"]
                if any(isinstance(c.action, DreamTogether) for c in found)
                else []
            ),
        ]
        if not ways:
            return (
                "SLEEP: no hand die matches the worry level; sleep without dreaming",
                "to sleep",
            )
        return (
            f"SLEEP: choose dreamer(s): {_and([*ways, 'do not dream'])}",
            "to choose who dreams",
        )
    title = dreams()[state.dream].name
    return (
        f"SLEEP: pay the costs of {title} with your dice, or stop and sleep restlessly",
        f"to pay the costs of {title}",
    )


def _break(state: GilEnnisState) -> tuple[str, str]:
    if state.step == "forage":
        return (
            f"BREAK: add the foraged {state.forage} to a character's inventory",
            "to stow the foraged die",
        )
    return "BREAK: eat (reduce a POCKET die by 1)", "to eat breakfast"


def _words(state: GilEnnisState, found: list[Candidate]) -> tuple[str, str]:
    if placing.waiting(state):
        return _placing(state)
    match state.phase:
        case "hike":
            return _hike(state)
        case "pitch":
            return _pitch(found)
        case "sleep":
            return _sleep(state, found)
        case "break":
            return _break(state)
        case "final_night":
            summit = content().humbaba.name
            return (
                f"FINAL NIGHT: match the dice on {summit} with dice from your inventories",
                f"to match the dice on {summit}",
            )
    return "Choose your next action", "to choose their next action"


def turn(state: GilEnnisState) -> Turn:
    seats = to_act(state)
    if not seats:
        return ENDED
    acting = frozenset(seats)
    found = [c for c in candidates(state) if not acting.isdisjoint(c.seats)]
    asked, waiting = _words(state, found)
    return Turn(seats, asked, waiting)
