"""PITCH: the campsite's one-time special action, character abilities, organizing supplies, and
turning in for the night. The three may come in any order; each seat turns in when it is done."""

from __future__ import annotations

from itertools import combinations

from domain.core.rng_unkeyed import UnkeyedChance as Chance
from domain.gil_ennis.rules_v1.actions import (
    Calm,
    CashInsights,
    Give,
    Organize,
    Reroll,
    TurnIn,
)
from domain.gil_ennis.rules_v1.content import DREAMS
from domain.gil_ennis.rules_v1.events import (
    DiceRerolled,
    DieDiscarded,
    DieDrawn,
    DieGiven,
    GilEnnisEvent,
    InsightsDiscarded,
    SpecialActionTaken,
    SuppliesOrganized,
    TurnedIn,
    WorryLevelChanged,
)
from domain.gil_ennis.rules_v1.inventory import choices, dice, organize_moves
from domain.gil_ennis.rules_v1.rules.common import Candidate, campsite, die_label, lowered, name
from domain.gil_ennis.rules_v1.rules.powers import power_candidates
from domain.gil_ennis.rules_v1.state import (
    CHARACTERS,
    GilEnnisState,
    character,
    other,
    pool,
    seat_of,
)

PitchAction = Reroll | Calm | CashInsights | Give | Organize | TurnIn


def _rerolls(state: GilEnnisState, who: str, where: str) -> list[Candidate]:
    out: list[Candidate] = []
    held = dice(character(state, who))
    seen: set[tuple[str, ...]] = set()
    for size in range(1, len(held) + 1):
        for chosen in combinations(held, size):
            picked = tuple(f"{slot}:{value}" for slot, value in chosen)
            if picked in seen:
                continue
            seen.add(picked)
            listed = ", ".join(f"{slot} {value}" for slot, value in chosen)
            out.append(
                Candidate(
                    (seat_of(state, who),),
                    Reroll(who, picked),
                    f"{where}: reroll {name(who)}'s {listed}",
                )
            )
    return out


def _specials(state: GilEnnisState) -> list[Candidate]:
    site = campsite(state)
    if site is None or site.special is None or state.special_used:
        return []
    where = f"At {site.name}"
    out: list[Candidate] = []
    for who in CHARACTERS:
        seats = (seat_of(state, who),)
        card = character(state, who)
        match site.special:
            case "reroll":
                out.extend(_rerolls(state, who, where))
            case "calm":
                for slot, value in choices(card):
                    level = lowered(state, value)
                    label = (
                        f"{where}: discard {die_label(who, slot, value)} to lower the worry "
                        f"level from {state.worry_level} to {level}"
                    )
                    out.append(Candidate(seats, Calm(who, slot, value), label))
            case "cash_insights":
                for size in range(1, min(len(card.insights), pool(state)) + 1):
                    for cards in combinations(card.insights, size):
                        titles = ", ".join(DREAMS[c].insight.name for c in cards)
                        label = f"{where}: {name(who)} discards {titles} to draw {size} dice"
                        out.append(Candidate(seats, CashInsights(who, cards), label))
            case _:
                for slot, value in choices(card):
                    label = f"{where}: give {die_label(who, slot, value)} to {name(other(who))}"
                    out.append(Candidate(seats, Give(who, slot, value), label))
    return out


def _organizing(state: GilEnnisState) -> list[Candidate]:
    out: list[Candidate] = []
    for who in CHARACTERS:
        card = character(state, who)
        if card.organized:
            continue
        for slot, value, target, target_value in organize_moves(card):
            die = die_label(who, slot, value)
            if target_value:
                label = f"Organize: swap {die} with the {target} die {target_value}"
            else:
                label = f"Organize: move {die} into the {target}"
            out.append(
                Candidate(
                    (seat_of(state, who),), Organize(who, slot, value, target, target_value), label
                )
            )
    return out


def candidates(state: GilEnnisState) -> list[Candidate]:
    found = _specials(state) + power_candidates(state) + _organizing(state)
    # A seat that has turned in is done with this pitch.
    out = [c for c in found if c.seats[0] not in state.ready]
    for seat in state.seats:
        if seat not in state.ready:
            out.append(Candidate((seat,), TurnIn(), "Turn in for the night"))
    return out


def _taken(state: GilEnnisState, who: str) -> SpecialActionTaken:
    site = campsite(state)
    assert site is not None and site.special is not None
    return SpecialActionTaken(site.id, site.special, who)


def decide(state: GilEnnisState, seat: str, action: PitchAction) -> list[GilEnnisEvent]:
    match action:
        case Reroll(character=who, dice=picked):
            chance = Chance(state.rng)
            slots = tuple(p.partition(":")[0] for p in picked)
            old = tuple(int(p.partition(":")[2]) for p in picked)
            new = chance.dice(len(picked))
            return [_taken(state, who), DiceRerolled(who, slots, old, new, chance.rng.draws)]
        case Calm(character=who, slot=slot, value=value):
            return [
                _taken(state, who),
                DieDiscarded(who, slot, value),
                WorryLevelChanged(lowered(state, value)),
            ]
        case CashInsights(character=who, cards=cards):
            chance = Chance(state.rng)
            events: list[GilEnnisEvent] = [_taken(state, who), InsightsDiscarded(who, cards)]
            for _ in cards:
                value = chance.die()
                events.append(DieDrawn(who, value, chance.rng.draws))
            return events
        case Give(character=who, slot=slot, value=value):
            return [_taken(state, who), DieGiven(who, slot, value, other(who))]
        case Organize(character=who, slot=slot, value=value, target=target):
            return [SuppliesOrganized(who, slot, value, target, action.target_value)]
        case TurnIn():
            ready = {*state.ready, seat}
            return [TurnedIn(seat, all(s in ready for s in state.seats))]
