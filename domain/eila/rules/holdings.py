"""What the items and support cards Eila holds do on their own (the Appendix): traits such as a
rope or a pocket watch, combat value on Eila's die, shields, and the green die doubled."""

from __future__ import annotations

from domain.eila.content import ContentPack, Item
from domain.eila.state import EilaState


def active(item: Item, held: tuple[str, ...]) -> bool:
    """A combination item does nothing unless every item it names is held too."""
    return item.id in held and all(part in held for part in item.needs)


def has_trait(pack: ContentPack, state: EilaState, trait: str) -> bool:
    return any(
        trait in pack.items[i].traits and active(pack.items[i], state.items) for i in state.items
    )


def die_bonus(pack: ContentPack, state: EilaState) -> int:
    """Combat value the held items and supports add to Eila's die."""
    items = sum(pack.items[i].combat for i in state.items if active(pack.items[i], state.items))
    return items + sum(pack.supports[s].combat for s in state.supports)


def support_shields(pack: ContentPack, state: EilaState) -> int:
    """HP losses the held support cards showing a shield prevent in each combat's outcome."""
    return sum(pack.supports[s].shield for s in state.supports)


def green_doubled(pack: ContentPack, state: EilaState) -> bool:
    return any(pack.supports[s].double_green for s in state.supports)
