"""Using items and casting support cards' spells (Additional Rule 04, the Appendix): only at the
timing the card states, paying the cost each time, so a spell may be cast again and again in one
combat, before or after the roll, while its cost can be paid."""

from __future__ import annotations

from domain.eila.content import Ability, ContentPack
from domain.eila.rules.frames import midway, pending
from domain.eila.rules.storage import changed, free_space, have
from domain.eila.state import EilaState


def ability_of(pack: ContentPack, card: str) -> Ability | None:
    if card in pack.items:
        return pack.items[card].use
    return pack.supports[card].spell


def free_time(state: EilaState) -> bool:
    """Whether conversions (and abilities used "anytime") are allowed now: at any pause of the
    day, the dawn or the night, except while one effect is partly resolved."""
    if state.abandoning or midway(state):
        return False
    if state.frames:
        return pending(state) is not None
    return state.phase in ("dawn", "night") or (state.phase == "day" and bool(state.present))


def _timely(state: EilaState, ability: Ability) -> bool:
    match ability.timing:
        case "combat":
            return state.combat is not None and not state.abandoning
        case "night":
            return state.phase == "night" and free_time(state)
    return free_time(state)


def usable(pack: ContentPack, state: EilaState, card: str) -> bool:
    ability = ability_of(pack, card)
    if ability is None or not _timely(state, ability):
        return False
    resources = state.resources
    for resource, amount in ability.cost.items():
        if have(resources, resource) < amount:
            return False
        resources = changed(resources, resource, -amount)
    gives = ability.gives
    for resource, amount in gives.resources.items():
        if free_space(pack, resources, resource) < amount:
            return False
        resources = changed(resources, resource, amount)
    if (gives.combat or gives.shield) and state.combat is None:
        return False
    # Something must come of it: HP below the maximum, resources, or a combat to help.
    return bool(gives.resources) or state.combat is not None or state.hp < state.max_hp


def usable_cards(pack: ContentPack, state: EilaState) -> list[str]:
    """Held items, then held support cards, that may be used now, in id order."""
    return [c for c in (*state.items, *state.supports) if usable(pack, state, c)]
