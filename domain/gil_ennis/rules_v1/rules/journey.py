"""HIKE (with the path choice on the 5th hike), BREAK (eat, then forage), and the walk onto
Mount Humbaba, which sets up the final challenge."""

from __future__ import annotations

from domain.core.rng_unkeyed import UnkeyedChance as Chance
from domain.gil_ennis.rules_v1.actions import Eat, Hike, Stow, TakePath
from domain.gil_ennis.rules_v1.content import CONTENT, DREAMS
from domain.gil_ennis.rules_v1.events import (
    Ate,
    CampBroken,
    DieDiscarded,
    FinalNightBegan,
    ForageRolled,
    ForageStowed,
    GilEnnisEvent,
    Hiked,
    JourneyEnded,
)
from domain.gil_ennis.rules_v1.rules.common import Candidate, name
from domain.gil_ennis.rules_v1.rules.powers import power_candidates
from domain.gil_ennis.rules_v1.state import (
    CHARACTERS,
    GilEnnisState,
    character,
    other,
    pool,
    worry_dice,
)

JourneyAction = Hike | TakePath | Eat | Stow


def hike_candidates(state: GilEnnisState) -> list[Candidate]:
    day = state.day + 1
    trail = CONTENT.map.trail
    if state.day == len(trail):
        return [
            Candidate(
                state.seats,
                TakePath(path.id),
                f"Take {path.name} to {path.campsites[0].name} (day {day})",
            )
            for path in CONTENT.map.paths
        ]
    route = CONTENT.map.route(state.path)
    where = route[state.day].name if state.day < len(route) else CONTENT.map.summit
    return [Candidate(state.seats, Hike(), f"Hike to {where} (day {day})")]


def break_candidates(state: GilEnnisState) -> list[Candidate]:
    if state.step == "forage":
        return [
            Candidate(
                state.seats, Stow(who), f"Stow the foraged die {state.forage} with {name(who)}"
            )
            for who in CHARACTERS
        ]
    pockets = f"pockets: Gil {state.gil.pocket or 'empty'}, Ennis {state.ennis.pocket or 'empty'}"
    return [*power_candidates(state), Candidate(state.seats, Eat(), f"Eat breakfast ({pockets})")]


def _final_night(state: GilEnnisState) -> list[GilEnnisEvent]:
    """Worry dice move onto Mount Humbaba, then each worry under the map acts, oldest first."""
    chance = Chance(state.rng)
    events: list[GilEnnisEvent] = []
    challenge = list(worry_dice(state.worry_level))
    free = pool(state)
    pockets = {who: character(state, who).pocket for who in CHARACTERS}
    for card_id in state.worries:
        worry = DREAMS[card_id].worry
        match worry.kind:
            case "add_die":
                if free:
                    challenge.append(worry.value)
                    free -= 1
            case "add_rolled":
                for _ in range(worry.value):
                    if free:
                        challenge.append(chance.die())
                        free -= 1
            case "raise_lowest":
                low = challenge.index(min(challenge))
                challenge[low] = min(6, challenge[low] + worry.value)
            case _:
                for who in CHARACTERS:
                    if pockets[who]:
                        events.append(DieDiscarded(who, "pocket", pockets[who]))
                        pockets[who] = 0
                        free += 1
    events.append(FinalNightBegan(tuple(challenge), chance.rng.draws))
    return events


def _hike(state: GilEnnisState, path: str) -> list[GilEnnisEvent]:
    day = state.day + 1
    route = CONTENT.map.route(path or state.path)
    if day <= len(route):
        return [Hiked(day, route[day - 1].id, path)]
    return [Hiked(day, "summit", path), *_final_night(state)]


def _eat(state: GilEnnisState) -> list[GilEnnisEvent]:
    """Gil eats first, then Ennis; each from their own POCKET, else from the other's."""
    pockets = {who: character(state, who).pocket for who in CHARACTERS}
    events: list[GilEnnisEvent] = []
    for who in CHARACTERS:
        source = who if pockets[who] else other(who)
        if not pockets[source]:
            events.append(JourneyEnded("lost", "overcome"))
            return events
        events.append(Ate(who, source, pockets[source]))
        pockets[source] -= 1
    emptied = sum(1 for who in CHARACTERS if character(state, who).pocket and not pockets[who])
    free = pool(state) + emptied
    if state.dreamed and free:
        chance = Chance(state.rng)
        events.append(ForageRolled(chance.die(), chance.rng.draws))
    else:
        events.append(CampBroken())
    return events


def decide(state: GilEnnisState, seat: str, action: JourneyAction) -> list[GilEnnisEvent]:
    match action:
        case Hike():
            return _hike(state, "")
        case TakePath(path=path):
            return _hike(state, path)
        case Eat():
            return _eat(state)
        case Stow(character=who):
            return [ForageStowed(who, state.forage), CampBroken()]
