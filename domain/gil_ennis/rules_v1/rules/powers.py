"""Character abilities and insights: powers that change one die of their owner."""

from __future__ import annotations

from domain.core.rng_unkeyed import UnkeyedChance as Chance
from domain.gil_ennis.rules_v1.actions import UsePower
from domain.gil_ennis.rules_v1.content import ABILITIES, CHARACTERS, DREAMS, Power
from domain.gil_ennis.rules_v1.events import GilEnnisEvent, PowerUsed
from domain.gil_ennis.rules_v1.inventory import choices
from domain.gil_ennis.rules_v1.rules.common import Candidate, die_label
from domain.gil_ennis.rules_v1.state import CHARACTERS as CHARACTER_IDS
from domain.gil_ennis.rules_v1.state import GilEnnisState, character, seat_of


def _outcomes(power: Power, value: int) -> tuple[int, ...]:
    """The values one die may become (0 stands for a reroll)."""
    match power.kind:
        case "nudge":
            return tuple(v for v in (value + 1, value - 1) if 1 <= v <= 6)
        case "reroll":
            return (0,)
        case "flip":
            return (7 - value,)
        case _:
            return (power.value,) if power.value != value else ()


def _sources(state: GilEnnisState, who: str) -> list[tuple[str, str, Power]]:
    """``(power key, name, power)`` of every power ``who`` may use now."""
    found: list[tuple[str, str, Power]] = []
    final = state.phase == "final_night"
    if state.phase == "pitch" or final:
        for ability in CHARACTERS[who].abilities:
            key = f"ability:{who}/{ability.id}"
            spent = state.used_round if ability.frequency == "round" else state.used_game
            if key not in spent:
                found.append((key, ability.name, ability.power))
    step = {"pitch": "pitch", "sleep": "sleep", "break": "break"}.get(state.phase)
    if state.phase == "sleep" and state.step != "choose":
        step = None  # a die pledged to a dream must not change under the payment
    if state.phase == "break" and state.step != "eat":
        step = None
    for card_id in character(state, who).insights:
        insight = DREAMS[card_id].insight
        key = f"insight:{card_id}"
        if key not in state.used_round and (final or insight.step == step):
            found.append((key, insight.name, insight.power))
    return found


def power_candidates(state: GilEnnisState) -> list[Candidate]:
    out: list[Candidate] = []
    for who in CHARACTER_IDS:
        seats = (seat_of(state, who),)
        dice = choices(character(state, who))
        for key, title, power in _sources(state, who):
            for slot, value in dice:
                for new in _outcomes(power, value):
                    die = die_label(who, slot, value)
                    if new:
                        label = f"Use {title}: {die} becomes {new}"
                    else:
                        label = f"Use {title}: reroll {die}"
                    out.append(Candidate(seats, UsePower(who, key, slot, value, new), label))
    return out


def decide_power(state: GilEnnisState, action: UsePower) -> list[GilEnnisEvent]:
    chance = Chance(state.rng)
    new = action.new or chance.die()
    return [
        PowerUsed(action.character, action.power, action.slot, action.value, new, chance.rng.draws)
    ]


def power_name(key: str) -> str:
    kind, _, ref = key.partition(":")
    if kind == "ability":
        return ABILITIES[ref].name
    return DREAMS[ref].insight.name
