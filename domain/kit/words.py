"""How the kit's reports name viewers, values and the fields where two values differ, and how
it picks a few of many."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

T = TypeVar("T")

LONGEST = 160
"""The most characters of a value a report quotes."""


def who(viewer: str | None) -> str:
    return "the spectator" if viewer is None else f"seat {viewer!r}"


def difference(one: Any, other: Any) -> str:
    """The fields where two Structs of one kind differ ("field lamp"), or "another shape"."""
    if not isinstance(one, msgspec.Struct) or type(one) is not type(other):
        return "another shape"
    fields = [
        name
        for name in one.__struct_fields__
        if getattr(one, name, None) != getattr(other, name, None)
    ]
    return "field " + ", ".join(fields) if fields else "another shape"


def short(value: Any) -> str:
    """``value`` as JSON, cut to :data:`LONGEST` characters."""
    try:
        text = msgspec.json.encode(value).decode()
    except (TypeError, ValueError, OverflowError):
        text = repr(value)
    return text if len(text) <= LONGEST else text[: LONGEST - 3] + "..."


def spread(items: list[T], most: int) -> list[T]:
    """Up to ``most`` of ``items``, spread evenly over the list (all when there are few)."""
    if len(items) <= most:
        return items
    step = len(items) / most
    return [items[int(n * step)] for n in range(most)]
