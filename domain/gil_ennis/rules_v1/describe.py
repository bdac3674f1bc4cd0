"""Timeline lines: one readable sentence per event, prefixed with the day."""

from __future__ import annotations

from typing import assert_never

from domain.gil_ennis.rules_v1.content import CONTENT, DREAMS
from domain.gil_ennis.rules_v1.events import (
    Ate,
    CampBroken,
    DiceRerolled,
    DiceRolled,
    DieDiscarded,
    DieDrawn,
    DieGiven,
    DiePlaced,
    DiePledged,
    DreamersChosen,
    DreamFailed,
    DreamFulfilled,
    DreamsShuffled,
    FinalNightBegan,
    ForageRolled,
    ForageStowed,
    GilEnnisEvent,
    Hiked,
    InsightsDiscarded,
    JourneyEnded,
    PowerUsed,
    SpecialActionTaken,
    SuppliesOrganized,
    TurnedIn,
    WorryLevelChanged,
)
from domain.gil_ennis.rules_v1.rules.common import campsite, name
from domain.gil_ennis.rules_v1.rules.powers import power_name
from domain.gil_ennis.rules_v1.state import GilEnnisState

SPECIAL_NAMES = {
    "reroll": "rerolled supplies",
    "calm": "calmed the worry",
    "cash_insights": "traded insights for supplies",
    "give": "shared supplies",
}


def _join(values: tuple[int, ...]) -> str:
    return ", ".join(str(v) for v in values) or "nothing"


def _line(event: GilEnnisEvent, state: GilEnnisState) -> str | None:
    match event:
        case DiceRolled(character=who, faces=faces):
            return f"{name(who)} packed dice {_join(faces)}"
        case DreamsShuffled(count=count):
            return f"The dream deck was shuffled ({count} cards)"
        case Hiked(campsite=site):
            if site == "summit":
                return f"Gil and Ennis reached {CONTENT.map.summit}"
            here = campsite(state)
            return f"Gil and Ennis hiked to {here.name if here else site}"
        case SpecialActionTaken(special=special, character=who):
            return f"{name(who)} {SPECIAL_NAMES.get(special, special)} at the campsite"
        case DiceRerolled(character=who, old=old, new=new):
            return f"{name(who)} rerolled {_join(old)} into {_join(new)}"
        case DieDiscarded(character=who, slot=slot, value=value):
            return f"{name(who)} returned the {slot} die {value} to the pool"
        case WorryLevelChanged(level=level):
            return f"The worry level is now {level}"
        case InsightsDiscarded(character=who, cards=cards):
            names = ", ".join(DREAMS[c].insight.name for c in cards)
            return f"{name(who)} let go of {names}"
        case DieDrawn(character=who, value=value):
            return f"{name(who)} drew a {value} from the pool"
        case DieGiven(giver=giver, value=value, receiver=receiver):
            return f"{name(giver)} gave a {value} to {name(receiver)}"
        case PowerUsed(character=who, power=power, old=old, new=new):
            return f"{name(who)} used {power_name(power)}: {old} became {new}"
        case SuppliesOrganized(character=who, value=value, target=target, target_value=swap):
            if swap:
                return f"{name(who)} swapped a {value} with the {target} die {swap}"
            return f"{name(who)} moved a {value} into the {target}"
        case TurnedIn(nightfall=nightfall):
            return "Night fell over the camp" if nightfall else None
        case DreamersChosen(dreamers=dreamers, card=card):
            if not card:
                return "No dream came"
            title = DREAMS[card].name
            if not dreamers:
                return f"Nobody tried to dream; {title} came anyway"
            who = " and ".join(name(d) for d in dreamers)
            return f"{who} dreamed of {title}"
        case DiePledged(character=who, slot=slot, value=value):
            return f"{name(who)} offered the {slot} die {value} to the dream"
        case DreamFulfilled(card=card, dreamers=dreamers):
            if len(dreamers) == 1:
                insight = DREAMS[card].insight.name
                return f"{name(dreamers[0])} dreamed alone and gained the insight {insight}"
            return "Gil and Ennis shared a dream but could not agree on what it meant"
        case DreamFailed(card=card):
            if card:
                return f"A restless night: the worry {DREAMS[card].worry.name} took hold"
            return "A restless night"
        case Ate(character=who, pocket_of=source, value=value):
            whose = "their own" if who == source else f"{name(source)}'s"
            return f"{name(who)} ate from {whose} pocket ({value} to {value - 1})"
        case ForageRolled(value=value):
            return f"Foraging turned up a {value}"
        case ForageStowed(character=who, value=value):
            return f"{name(who)} stowed the foraged {value}"
        case CampBroken():
            return None
        case FinalNightBegan(challenge=challenge):
            return f"{CONTENT.humbaba.name} demands {_join(challenge)}"
        case DiePlaced(character=who, value=value):
            return f"{name(who)} matched a {value} on {CONTENT.humbaba.name}"
        case JourneyEnded(result=result, reason=reason):
            if reason == "overcome":
                return "With nothing left to eat, the wilderness overcame them"
            return CONTENT.humbaba.won if result == "won" else CONTENT.humbaba.lost
        case _:
            assert_never(event)


def describe(event: GilEnnisEvent, state: GilEnnisState) -> str | None:
    line = _line(event, state)
    if line is None:
        return None
    return f"Day {state.day}: {line}" if state.day else line
