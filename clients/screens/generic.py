"""The terminal board of a game without one of its own: its view, readable. Simple values on one
line each, lists with one value per seat as a table by seat, the rest indented."""

from __future__ import annotations

from typing import Any

from clients.screens.common import humanize, row


def _simple(value: Any) -> bool:
    return value is None or not isinstance(value, dict | list)


def show(value: Any) -> str:
    if value is None or value == "":
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(show(item) for item in value) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{humanize(str(k))} {show(v)}" for k, v in value.items()) or "nothing"
    return str(value)


def board(view: Any, content: Any, seat: str | None) -> list[str]:
    if not isinstance(view, dict):
        return row("View", show(view))
    listed = view.get("seats")
    seats: list[Any] = listed if isinstance(listed, list) else []
    lines: list[str] = []
    per_seat: list[tuple[str, list[Any]]] = []
    for key, value in view.items():
        if key in ("seats", "seat", "turn"):
            continue
        if isinstance(value, list) and seats and len(value) == len(seats):
            per_seat.append((key, value))
        elif _simple(value):
            lines += row(humanize(key), show(value))
    if per_seat:
        header = "  " + f"{'Seat':<10}" + "".join(f"{humanize(k):>12}" for k, _ in per_seat)
        lines.append(header)
        for index, name in enumerate(seats):
            mark = "*" if name == seat else " "
            cells = "".join(f"{show(values[index]):>12}" for _, values in per_seat)
            lines.append(f" {mark}{name:<10}{cells}")
    for key, value in view.items():
        if key not in ("seats", "seat", "turn") and not _simple(value):
            if any(key == name for name, _ in per_seat):
                continue
            lines += row(humanize(key), show(value))
    return lines
