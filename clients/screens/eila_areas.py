"""Eila's areas beside the board, in the terminal: a combat, the Item & Support Area, and the
Chapter Element Area (quiz cards, the mine as a text map, the markets, the trail)."""

from __future__ import annotations

from typing import Any

from clients.screens.common import die, plural, row

CELL = 6
"""Characters per mine grid: the token, a location number, the cover token and the shelter."""
RANK = {"open": 0, "cliff": 1, "passage": 2, "wall": 3}
SIDE_MARKS = {"cliff": "~", "passage": "=", "wall": "#"}
MINE_KEY = (
    "@ Eila & Leo  # wall  ~ cliff  = hidden passage  : dark  ^ shelter  x covered  "
    "░ face-down tile"
)
LEAD = " " * 12
"""The indent of a row's text (see :func:`clients.screens.common.row`)."""


def combat(view: dict[str, Any]) -> list[str]:
    fight = view.get("combat")
    if not fight:
        return []
    enemy = f"{fight['enemy_name']} ({fight['enemy']}): combat value {fight['enemy_value']}"
    if fight.get("weakness"):
        enemy += f"; weakness: {fight['weakness']}"
    held = (view.get("item_support_area") or {}).get("dice") or ["red"]
    rolled = {d["die"]: d for d in fight.get("rolled") or []}
    dice = []
    for name in held:
        face = rolled.get(name)
        shown = f"{name} die {die(face['value'] if face else None)}"
        if face and face.get("shield"):
            shown += " shield"
        dice.append(shown)
    boosts = f"Energy spent {fight['energy_spent']}"
    if fight.get("spell_bonus"):
        boosts += f", spells +{fight['spell_bonus']}"
    boosts += f", {plural(fight['shields'], 'shield')}"
    total = f"Eila {fight['eila_value']}"
    if fight.get("green_value"):
        total += f" + green {fight['green_value']}"
    verdict = "enough to win" if fight["combat_value"] >= fight["enemy_value"] else "not enough"
    total += f" = {fight['combat_value']} vs {fight['enemy_value']}: {verdict}"
    return row("Combat", enemy) + row("", f"{'  '.join(dice)}; {boosts}") + row("", total)


def _cards(cards: list[dict[str, Any]]) -> str:
    return "; ".join(
        f"{c['name']} ({c['id']})" + (f": {c['text']}" if c.get("text") else "") for c in cards
    )


def item_support_area(view: dict[str, Any], content: dict[str, Any]) -> list[str]:
    area = view.get("item_support_area")
    if area is None:
        items = content.get("items") or {}
        held = [items.get(i, {}).get("name", i) for i in view.get("items") or []]
        return row("Items", ", ".join(held) or "none")
    lines = row("Items", _cards(area.get("items") or []) or "none")
    if area.get("supports"):
        lines += row("Supports", _cards(area["supports"]))
    dice = area.get("dice") or []
    if dice:
        named = ("Eila's red die" if d == "red" else f"{d} die" for d in dice)
        lines += row("Dice", ", ".join(named))
    habits = content.get("habits") or {}
    kept = [f"{h} {habits.get(h, '')}".strip() for h in view.get("saved_habits") or []]
    if kept:
        lines += row("Habits", ", ".join(kept))
    return lines


def quiz(area: dict[str, Any]) -> list[str]:
    decks = area.get("quiz_decks") or []
    open_cards = area.get("quizzes_open") or []
    done = area.get("quizzes_turned_over") or []
    if not (decks or open_cards or done):
        return []
    counts = ", ".join(f"{d['name']} deck {d['count']}" for d in decks) or "no decks"
    text = f"{counts} face down"
    if done:
        text += f"; turned over: {', '.join(done)}"
    lines = row("Quiz", text)
    for card in open_cards:
        choices = "  ".join(f"{c['letter']}) {c['text']}" for c in card["choices"])
        lines += row(card["id"], f"{card['question']}  {choices}  Reward: {card['reward']}")
    return lines


def _side(a: dict[str, Any] | None, b: dict[str, Any] | None, a_side: int, b_side: int) -> str:
    """The strongest of the two sides that meet between grids ``a`` and ``b`` (either unknown)."""
    sides = [g["sides"][i] for g, i in ((a, a_side), (b, b_side)) if g is not None]
    strongest = max(sides, key=lambda side: RANK.get(side, 0), default="open")
    return SIDE_MARKS.get(strongest, "")


def mine_map(mine: dict[str, Any]) -> list[str]:
    """The mine, north up: one text cell per grid, walls, cliffs and passages between them."""
    columns, rows = mine["columns"], mine["rows"]
    grids = {(g["x"], g["y"]): g for g in mine["grids"]}
    laid = {(t["col"], t["row"]): t["face_up"] for t in mine["tiles"]}
    token = tuple(mine["token"])

    def tile(x: int, y: int) -> bool | None:
        """True: face up, False: face down, None: no tile there."""
        return laid.get((x // 2, y // 2))

    def cell(x: int, y: int) -> str:
        grid = grids.get((x, y))
        if tile(x, y) is None:
            return " " * CELL
        if grid is None:
            return "░" * CELL
        fill = ":" if grid["dark"] else " "
        return (
            ("@" if (x, y) == token else fill)
            + (grid["location"] or "").ljust(3, fill)[:3]
            + ("x" if grid["covered"] else fill)
            + ("^" if grid["shelter"] else fill)
        )

    def open_edge(here: bool | None, there: bool | None, boundary: bool) -> str:
        if here is False and there is False and not boundary:
            return "░"
        return "." if boundary and (here is not None or there is not None) else " "

    def across(x: int, y: int) -> str:
        """The edge west of grid (x, y)."""
        mark = _side(grids.get((x - 1, y)), grids.get((x, y)), 1, 3)
        return mark or open_edge(tile(x - 1, y), tile(x, y), x % 2 == 0)

    def along(x: int, y: int) -> str:
        """The edge south of grid (x, y), a cell wide."""
        mark = _side(grids.get((x, y - 1)), grids.get((x, y)), 0, 2)
        return (mark or open_edge(tile(x, y - 1), tile(x, y), y % 2 == 0)) * CELL

    def corner(x: int, y: int) -> str:
        """Where grids (x - 1, y - 1) to (x, y) meet: a tile corner, a tile's side or its middle."""
        if x % 2 == 0 and y % 2 == 0:
            return "+"
        if x % 2 and y % 2:
            return "░" if tile(x, y) is False else " "
        beside = {tile(x - 1, y - 1), tile(x, y)}
        return "." if beside != {None} else " "

    lines = []
    for y in range(rows, -1, -1):
        lines.append(
            LEAD + "".join(corner(x, y) + along(x, y) for x in range(columns)) + corner(columns, y)
        )
        if y > 0:
            lines.append(
                LEAD
                + "".join(across(x, y - 1) + cell(x, y - 1) for x in range(columns))
                + across(columns, y - 1)
            )
    return [line.rstrip() for line in lines]


def mine(area: dict[str, Any], pending: str) -> list[str]:
    laid = area.get("mine")
    if not laid:
        return []
    up = sum(1 for t in laid["tiles"] if t["face_up"])
    x, y = laid["token"]
    text = f"{up} of {plural(len(laid['tiles']), 'tile')} face up; Eila & Leo at grid ({x}, {y})"
    if area.get("location_deck_count"):
        events = plural(area["location_deck_count"], "location event card")
        text += f"; {events} face down"
    names = ", ".join(f"{t['tile']} {t['name']}" for t in laid["tiles"] if t["face_up"])
    return [
        *row("Mine", text),
        *row("", names),
        *mine_map(laid),
        *row("", MINE_KEY),
        *(row("", f"moving: {pending}") if pending.startswith("move") else []),
    ]


def markets(area: dict[str, Any], labels: dict[str, str]) -> list[str]:
    lines: list[str] = []
    for market in area.get("markets") or []:
        price = ", ".join(f"{n} {labels.get(r, r)}" for r, n in market.get("price") or [])
        cards = ", ".join(f"{c['id']} {c['name']}" for c in market["cards"]) or "none left"
        lines += row(market.get("label") or market["name"], f"each costs {price}: {cards}")
    return lines


def trail(area: dict[str, Any]) -> list[str]:
    location = area.get("location")
    passed = area.get("trail") or []
    if not location and not passed:
        return []
    text = " > ".join(passed)
    if area.get("location_deck_count"):
        text += f"; location deck {plural(area['location_deck_count'], 'card')} face down"
    lines = row("Trail", text)
    if location:
        name = f"{location['number']} {location['name']}"
        shelter = " (shelter)" if location.get("shelter") else ""
        lines += row("Location", f"{name}{shelter}: {location['text']}")
        for action in location.get("actions") or []:
            lines += row("", action)
    return lines


def chapter_element_area(view: dict[str, Any], labels: dict[str, str]) -> list[str]:
    area = view.get("chapter_element_area") or {}
    return [
        *quiz(area),
        *mine(area, view.get("pending") or ""),
        *markets(area, labels),
        *trail(area),
    ]
