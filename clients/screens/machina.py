"""Machina Arcana: To Eternity in the terminal: the current chapter card, the clock, the spawn and
horror rating sliders with the effects in force, the monster threat, the grid of map and chapter
tiles with the explorers (by number) and the monsters (by letter) on their spaces, then each
explorer with health, stamina and items, each monster, and the decks as counts. The actions are
listed under headings by kind."""

from __future__ import annotations

from string import ascii_lowercase
from typing import Any

from clients.screens.common import humanize, keep, plural, row

SLIDER_TOP = 8
"""The highest rating a slider shows unless a chapter prints a higher one."""
LEGEND = (
    ". floor  # obstacle  S spawn point  E entry token  X exit token  * action space",
    "1-4 explorers (in seat order)  a-z monsters (below)  blank: no tile",
)
PHASES = {
    "setup": "setting up",
    "explorers": "explorer phase",
    "placing": "placing the chapter tile",
    "over": "the expedition is over",
}
GROUPS = {
    "move": "Move:",
    "attack": "Attack:",
    "use": "Use an item:",
    "interact": "Interact:",
    "equip": "Equip and give:",
    "give": "Equip and give:",
    "explore": "Explore and exit:",
    "exit": "Explore and exit:",
    "place-tile": "Connect the chapter tile:",
    "end-turn": "Done for the round:",
}
EFFECTS = {
    "haste": "monsters move {amount} more",
    "hit_cost": "each hit costs {amount} health",
    "seal": "no exploring",
}


def monster_marks(view: dict[str, Any]) -> dict[int, str]:
    """A letter per monster in play, in the order they came."""
    return {
        m["uid"]: ascii_lowercase[i % len(ascii_lowercase)]
        for i, m in enumerate(view.get("monsters") or [])
    }


def slider(rating: int, top: int) -> str:
    """``1 2 [3] 4 5 6 7 8``: the rating's place on its track."""
    return " ".join(f"[{n}]" if n == rating else str(n) for n in range(1, max(top, rating) + 1))


def effect(found: dict[str, Any]) -> str:
    text = EFFECTS.get(found["kind"], humanize(found["kind"]) + " {amount}")
    return text.format(amount=found.get("amount", 0))


def grid(view: dict[str, Any]) -> list[str]:
    """The play area, one text row per row of spaces, with x along the top and y down the side."""
    rows = [list(line) for line in view.get("map") or []]
    if not rows:
        return row("Map", "no tiles in play")
    left, top = view.get("map_x", 0), view.get("map_y", 0)
    for uid, mark in monster_marks(view).items():
        found = next(m for m in view["monsters"] if m["uid"] == uid)
        x, y = found["x"] - left, found["y"] - top
        if 0 <= y < len(rows) and 0 <= x < len(rows[y]):
            rows[y][x] = mark
    width = max(len(line) for line in rows)
    lines = ["      " + "".join(f"{left + x:>3}" for x in range(width))]
    for y, line in enumerate(rows):
        lines.append(f"  {top + y:>4}" + "".join(f"  {cell}" for cell in line).rstrip())
    return lines + ["  " + line for line in LEGEND]


def chapter(view: dict[str, Any]) -> list[str]:
    card = view.get("chapter")
    phase = PHASES.get(view.get("phase", ""), humanize(view.get("phase", "")))
    left = max(0, view.get("clock_limit", 0) - view.get("clock", 0))
    clock = f"clock {view.get('clock')} of {view.get('clock_limit')} ({plural(left, 'round')} left)"
    if card is None:
        return [f"  Round {view.get('round')}, {phase}; {clock}"]
    kind = "endgame" if view.get("endgame") else f"{view.get('chapter_kind')} chapter"
    lines = [f"  {card['title']} ({kind}) - round {view.get('round')}, {phase}; {clock}"]
    lines += row("Chapter", card["text"])
    objective = view.get("objective", "")
    if card.get("charges"):
        objective += f" ({plural(card['charges'], 'charge')} on the card)"
    lines += row("Objective", objective)
    for extra in view.get("endgame_cards") or []:
        charges = f" ({plural(extra['charges'], 'charge')})" if extra.get("charges") else ""
        lines += row("Endgame", f"{extra['title']}{charges}: {extra['text']}")
    return lines


def sliders(view: dict[str, Any]) -> list[str]:
    spawn, horror = view.get("spawn_rating", 0), view.get("horror_rating", 0)
    if view.get("chapter_kind") == "regular":
        lines = row("Spawn", f"a monster on a die roll of {spawn}+")
        lines += row("Horror", f"a horror event on a die roll of {horror}+")
    else:
        lines = row("Spawn", slider(spawn, SLIDER_TOP))
        lines += row("Horror", slider(horror, SLIDER_TOP))
    spawned = ", ".join(effect(e) for e in view.get("spawn_effects") or [])
    horrors = ", ".join(effect(e) for e in view.get("horror_effects") or [])
    lines += row("Effects", f"spawn: {spawned or 'none'}; horror: {horrors or 'none'}")
    notes = [f"each hit costs {plural(view.get('hit_cost', 1), 'health', 'health')}"]
    if view.get("exploring_prevented"):
        notes.append("exploring is prevented")
    lines += row("Threat", f"{view.get('threat')} of {view.get('threat_track')}, "
                 f"monster tier {view.get('tier')}; " + ", ".join(notes))  # fmt: skip
    return lines


def explorers(view: dict[str, Any], seat: str | None) -> list[str]:
    items = view.get("items") or []
    lines: list[str] = []
    for number, who in enumerate(view.get("explorers") or [], start=1):
        mine = "you; " if who["id"] == seat else ""
        where = {
            "map": f"at {who['x']},{who['y']}",
            "exited": "has exited",
            "out": "is out",
        }.get(who["status"], who["status"])
        done = ", turn ended" if who.get("ended") and who["status"] == "map" else ""
        held = []
        for found in items:
            if found["holder"] != who["id"]:
                continue
            charges = f" {found['charges']}/{found['max_charges']}" if found["max_charges"] else ""
            hand = "in hand: " if found["equipped"] else ""
            held.append(keep(f"{hand}{found['name']}{charges}"))
        lines += row(
            f"{number} {who['name'].split()[0]}",
            f"{mine}health {who['health']}/{who['max_health']}, stamina {who['stamina']}/"
            f"{who['max_stamina']}, defense {who['defense']}, {where}{done}; "
            + ("; ".join(held) or "no items"),
        )
    return lines


def monsters(view: dict[str, Any]) -> list[str]:
    marks = monster_marks(view)
    lines: list[str] = []
    for found in view.get("monsters") or []:
        lines += row(
            f"{marks[found['uid']]} monster",
            f"{found['name']}, health {found['health']}/{found['max_health']}, defense "
            f"{found['defense']}, move {found['move']}, attack {found['attack']}, "
            f"at {found['x']},{found['y']}",
        )
    return lines or row("Monsters", "none in play")


def decks(view: dict[str, Any]) -> list[str]:
    text = (
        f"chapters {view.get('chapters_left')}, map tiles {view.get('map_deck_count')}, "
        f"monsters {view.get('monster_deck_count')} (discard "
        f"{len(view.get('monster_discard') or [])}), horrors {view.get('horror_deck_count')} "
        f"(discard {len(view.get('horror_discard') or [])}), items "
        f"{view.get('item_deck_count')} (discard {len(view.get('item_discard') or [])})"
    )
    lines = row("Decks", text)
    if view.get("board_top"):
        lines += row("Board", "chapter board top: " + ", ".join(map(humanize, view["board_top"])))
    return lines


def board(view: dict[str, Any], content: dict[str, Any], seat: str | None) -> list[str]:
    lines = chapter(view)
    if view.get("result") not in (None, "", "running"):
        lines += row("Result", f"{view['result']} ({humanize(view.get('reason', ''))})")
    lines += sliders(view)
    lines += grid(view)
    if view.get("pending_tile"):
        lines += row("Placing", f"{humanize(view['pending_tile'])}: choose where it connects")
    lines += explorers(view, seat)
    lines += monsters(view)
    lines += decks(view)
    return lines


def headings(view: dict[str, Any], actions: list[dict[str, Any]]) -> list[str]:
    return [GROUPS.get(str(a.get("id", "")).split(":")[0], "Other actions:") for a in actions]
