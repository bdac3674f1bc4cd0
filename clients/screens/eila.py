"""Eila and Something Shiny in the terminal: the Present card, the goal, hearts and Fear, the
storage spaces, the time track, a combat, the Item & Support Area and the Chapter Element Area
(:mod:`clients.screens.eila_areas`), the decks and the save box."""

from __future__ import annotations

from typing import Any

from clients.screens.common import humanize, row
from clients.screens.eila_areas import chapter_element_area, combat, item_support_area
from clients.screens.generic import show

RESOURCES = ("food", "coin", "stone", "knowledge", "energy", "fear")
LABELS = {
    "food": "Food",
    "coin": "Coin",
    "stone": "Magical Stone",
    "knowledge": "Knowledge",
    "energy": "Energy",
    "fear": "Fear",
}
LOST = {"hp": "Eila ran out of hearts.", "time": "The time track filled up."}
KNOWN = {
    "chapter", "chapter_title", "attempt", "mode", "phase", "outcome", "chapter_outcome", "day",
    "hp", "max_hp", "resources", "goal", "submitted", "night_submissions_left", "time_track",
    "time_track_length", "present", "option", "pending", "combat", "upcoming_count",
    "upcoming_known_on_top", "upcoming_known_at_bottom", "future_count", "past_count",
    "blue_deck_count", "red_deck_count", "habit_deck_count", "item_deck_count",
    "support_deck_count", "items", "item_support_area", "chapter_element_area", "saved_items",
    "saved_habits", "saved_supports", "progress", "endings", "lost_reason", "abandoning", "turn",
}  # fmt: skip


def _amounts(values: list[int] | None) -> dict[str, int]:
    values = values or []
    return {name: values[i] if i < len(values) else 0 for i, name in enumerate(RESOURCES)}


def storage(view: dict[str, Any], content: dict[str, Any], labels: dict[str, str]) -> list[str]:
    have = _amounts(view.get("resources"))
    room = content.get("storage") or {}
    parts = []
    for kind, default in (("tangible", ("food", "coin", "stone")), ("intangible", RESOURCES[3:])):
        kinds = room.get(kind) or default
        spaces = room.get(f"{kind}_spaces", 8)
        used = sum(have[k] for k in kinds)
        held = ", ".join(f"{labels[k]} {have[k]}" for k in kinds)
        parts.append(f"{kind} {used}/{spaces}: {held}")
    return row("Storage", " | ".join(parts))


def board(view: dict[str, Any], content: dict[str, Any], seat: str | None) -> list[str]:
    labels = {**LABELS, **{k: v for k, v in content.get("resources") or []}}
    title = f"Chapter {view.get('chapter')}"
    if view.get("chapter_title"):
        title += f": {view['chapter_title']}"
    lines = [
        f"  {title} - day {view.get('day')}, {humanize(view.get('phase', ''))}, "
        f"attempt {view.get('attempt')}, {view.get('mode')} mode"
    ]
    if view.get("lost_reason"):
        reason = view["lost_reason"]
        lines += row("Lost", LOST.get(reason, humanize(reason)))
    present = view.get("present")
    if present:
        lines += row("Present", f"{present['number']} {present['name']}: {present['text']}")
        if view.get("option"):
            pending = f": {view['pending']}" if view.get("pending") else ""
            lines += row("", f"resolving option {view['option']}{pending}")
    submitted = _amounts(view.get("submitted"))
    goal = [
        f"{labels.get(r, r)} {min(submitted.get(r, 0), n)}/{n}" for r, n in view.get("goal") or []
    ]
    lines += row("Goal", ", ".join(goal) or "set when the chapter begins")
    left = view.get("night_submissions_left")
    if view.get("phase") == "night" and left is not None:
        lines += row("", f"{left} submission{'' if left == 1 else 's'} left tonight")
    hearts = "♥" * view.get("hp", 0) + "♡" * max(0, view.get("max_hp", 0) - view.get("hp", 0))
    fear = _amounts(view.get("resources"))["fear"]
    lines += row("Hearts", f"{hearts} ({view.get('hp')}/{view.get('max_hp')})   Fear {fear}")
    lines += storage(view, content, labels)
    marks = {"energy": "[E]", "heart": "[♥]"}
    track = view.get("time_track") or []
    slots = [
        marks.get(track[i], "[?]") if i < len(track) else "[ ]"
        for i in range(view.get("time_track_length", 0))
    ]
    lines += row("Time", "".join(slots))
    lines += combat(view)
    lines += item_support_area(view, content)
    lines += chapter_element_area(view, labels)
    known = view.get("upcoming_known_on_top") or []
    decks = (
        f"upcoming {view.get('upcoming_count')}"
        + (f" (on top: {', '.join(known)})" if known else "")
        + f", Future {view.get('future_count')}, Past {view.get('past_count')},"
        f" blue {view.get('blue_deck_count')}, red {view.get('red_deck_count')},"
        f" habits {view.get('habit_deck_count')}, items {view.get('item_deck_count')}"
    )
    if view.get("support_deck_count") is not None:
        decks += f", supports {view['support_deck_count']}"
    bottom = view.get("upcoming_known_at_bottom") or []
    if bottom:
        decks += f" (upcoming at the bottom: {', '.join(bottom)})"
    lines += row("Decks", decks)
    items = content.get("items") or {}
    saved = [items.get(i, {}).get("name", i) for i in view.get("saved_items") or []]
    saved += [f"support {s}" for s in view.get("saved_supports") or []]
    if saved:
        lines += row("Save box", ", ".join(saved))
    if view.get("progress"):
        lines += row("Won", ", ".join(f"chapter {c}" for c in view["progress"]))
    if view.get("endings"):
        lines += row("Endings", ", ".join(view["endings"]))
    for key, value in view.items():
        if key not in KNOWN:
            lines += row(humanize(key), show(value))
    return lines
