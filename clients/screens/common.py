"""Small pieces the terminal boards share."""

from __future__ import annotations

import textwrap
from contextvars import ContextVar
from typing import Any

WIDTH = 78
"""The width boards wrap at unless the terminal says otherwise (80 columns, less a margin)."""
width_now: ContextVar[int] = ContextVar("width_now", default=WIDTH)
"""The width :func:`row` wraps at while a board is drawn (set by :func:`clients.screens.board`)."""


def die(value: int | None) -> str:
    """A die as ``[5]``; an empty slot as ``[ ]``."""
    return f"[{value}]" if value else "[ ]"


def humanize(key: str) -> str:
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


NBSP = "\u00a0"


def keep(name: str) -> str:
    """``name`` with its spaces made unbreakable, so :func:`row` never wraps inside it."""
    return name.replace(" ", NBSP)


def row(label: str, text: str, *, width: int | None = None) -> list[str]:
    """``label`` in a column of its own, ``text`` wrapped beside it."""
    width = width or width_now.get()
    lead = f"  {label:<9} "
    lines = textwrap.wrap(text, width - len(lead)) or [""]
    lines = [line.replace(NBSP, " ") for line in lines]
    return [lead + lines[0]] + [" " * len(lead) + line for line in lines[1:]]


def by_id(items: Any, key: str = "id") -> dict[str, Any]:
    return {str(item[key]): item for item in items or []}
