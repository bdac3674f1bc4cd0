"""Combat (Additional Rules 03 and 06): Eila's red die, the green die, Energy and spells against an
enemy's combat value.

Eila's combat value is her die's face plus what held items and supports add to it, 2 per Energy
spent and what spells and items used in the combat give; the green die's face (doubled by a
support such as S14) adds to the result but is never touched by items or supports. Shields
prevent HP loss in the option the fight leads to: 1 for each shield face rolled, plus what
support cards showing a shield and shield spells give.
"""

from __future__ import annotations

from domain.eila.content import ContentPack
from domain.eila.content_types import DieFace
from domain.eila.rules.conditions import holds
from domain.eila.rules.holdings import die_bonus, green_doubled, support_shields
from domain.eila.state import Combat, EilaState


def face(pack: ContentPack, die: str, index: int) -> DieFace:
    return pack.ruleset.dice[die].faces[index]


def enemy_value(pack: ContentPack, state: EilaState, enemy: str) -> int:
    """The enemy's combat value, lowered when its weakness's condition holds."""
    found = pack.enemies[enemy]
    if found.weakness is not None and holds(pack, state, found.weakness.when):
        return found.weakness.value
    return found.value


def eila_value(pack: ContentPack, state: EilaState, combat: Combat) -> int:
    rolled = face(pack, "red", combat.red).value if combat.rolled else 0
    energy = combat.energy * pack.ruleset.energy_boost
    return rolled + die_bonus(pack, state) + energy + combat.bonus


def green_value(pack: ContentPack, state: EilaState, combat: Combat) -> int:
    if not combat.rolled or combat.green is None:
        return 0
    value = face(pack, "green", combat.green).value
    return 2 * value if green_doubled(pack, state) else value


def combat_value(pack: ContentPack, state: EilaState, combat: Combat) -> int:
    return eila_value(pack, state, combat) + green_value(pack, state, combat)


def shields(pack: ContentPack, state: EilaState, combat: Combat) -> int:
    rolled = 0
    if combat.rolled:
        rolled += face(pack, "red", combat.red).shield
        if combat.green is not None:
            rolled += face(pack, "green", combat.green).shield
    return rolled + support_shields(pack, state) + combat.shields
