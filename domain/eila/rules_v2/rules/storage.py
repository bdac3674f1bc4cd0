"""Storage spaces, the goal card and other arithmetic on :class:`Resources`.

Storage is shared per kind: tangible resources (Food, Coin, Magical Stone) fill one set of spaces
and intangible ones (Knowledge, Energy, Fear) another, with the capacities in the ruleset data.
"""

from __future__ import annotations

import msgspec

from domain.eila.rules_v2.content import INTANGIBLE, TANGIBLE, ContentPack, GoalSide
from domain.eila.rules_v2.state import EilaState, Resources


def have(resources: Resources, name: str) -> int:
    return getattr(resources, name)  # type: ignore[no-any-return]


def changed(resources: Resources, name: str, delta: int) -> Resources:
    return msgspec.structs.replace(resources, **{name: getattr(resources, name) + delta})


def stored(resources: Resources, names: tuple[str, ...]) -> int:
    return sum(getattr(resources, name) for name in names)


def free_space(pack: ContentPack, resources: Resources, name: str) -> int:
    if name in TANGIBLE:
        return pack.ruleset.tangible_capacity - stored(resources, TANGIBLE)
    return pack.ruleset.intangible_capacity - stored(resources, INTANGIBLE)


def goal_side(pack: ContentPack, state: EilaState) -> GoalSide:
    chapter = pack.chapters[state.chapter]
    return chapter.advanced if state.mode == "advanced" else chapter.normal


def still_needed(pack: ContentPack, state: EilaState, name: str) -> int:
    for resource, amount in goal_side(pack, state).submit:
        if resource == name:
            return max(0, amount - have(state.submitted, name))
    return 0


def goal_achieved(pack: ContentPack, state: EilaState) -> bool:
    return all(have(state.submitted, r) >= n for r, n in goal_side(pack, state).submit)


def fear_plan(pack: ContentPack, resources: Resources, amount: int) -> tuple[int, int, int]:
    """``(stored, hearts, room_needed)`` for acquiring ``amount`` Fear now.

    Fear up to the maximum goes into storage; each further Fear costs 1 HP instead. When the
    intangible spaces are too full for the Fear that fits, ``room_needed`` others must go first.
    """
    to_store = min(amount, max(0, pack.ruleset.fear_max - resources.fear))
    room = to_store - free_space(pack, resources, "fear")
    return to_store, amount - to_store, max(0, room)
