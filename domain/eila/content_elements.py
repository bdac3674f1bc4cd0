"""Checks of a chapter's unique elements (Additional Rule 02): the mine's tiles and slots, the
markets, the quiz decks and the trail of location cards; and of Advanced Mode's replacements.

Each problem is a :class:`ContentError` naming the chapter file, the tile, card or quiz, and the
field.
"""

from __future__ import annotations

from collections import Counter

from domain.core.errors import ContentError
from domain.eila.content_types import Card, Chapter, Mine

# Which sides of two grids of one tile face each other: (grid, side, grid, side), with grids in
# the order bottom-left, bottom-right, top-left, top-right and sides north, east, south, west.
INNER_SIDES = ((0, 1, 1, 3), (2, 1, 3, 3), (0, 0, 2, 2), (1, 0, 3, 2))


def check_elements(file: str, chapter: Chapter, cards: dict[str, Card]) -> list[ContentError]:
    """The problems of ``chapter``'s elements; ``cards`` holds every card built so far."""
    errors: list[ContentError] = []

    def fail(card: str | None, field: str | None, problem: str) -> None:
        errors.append(ContentError(file, card, field, problem))

    own = {n: c for n, c in cards.items() if c.chapter == chapter.number}
    locations = sorted(n for n, c in own.items() if c.colour == "location")
    if chapter.mine is None:
        for number in locations:
            fail(number, "colour", "Location event cards need a chapter with a mine.")
    else:
        for where, field, problem in _mine_problems(chapter.mine, set(locations)):
            fail(where, field, problem)
    market_cards = Counter(n for m in chapter.markets for n in m.cards)
    names = Counter(m.name for m in chapter.markets)
    for index, market in enumerate(chapter.markets):
        field = f"markets[{index}]"
        if names[market.name] > 1:
            fail(None, f"{field}.name", f"The market name {market.name!r} is used twice.")
        if market.draw > len(market.cards):
            fail(None, f"{field}.draw", f"Cannot draw {market.draw} of {len(market.cards)} cards.")
        for number in market.cards:
            if own.get(number) is None or own[number].colour != "market":
                fail(number, f"{field}.cards", "A market card must be a market card of this file.")
            elif market_cards[number] > 1:
                fail(number, f"{field}.cards", "A card belongs to one market only.")
    for number, card in sorted(own.items()):
        if card.colour == "market" and number not in market_cards:
            fail(number, "colour", "This market card is in no market.")
        if card.colour == "trail" and not chapter.trail:
            fail(number, "colour", "Trail cards need a chapter with a trail to start it.")
    if chapter.trail and (
        own.get(chapter.trail[0]) is None or own[chapter.trail[0]].colour != "trail"
    ):
        fail(chapter.trail[0], "trail", "The trail starts with a trail card of this file.")
    return errors


def _mine_problems(mine: Mine, locations: set[str]) -> list[tuple[str | None, str, str]]:
    found: list[tuple[str | None, str, str]] = []
    places = Counter((s.col, s.row) for s in mine.slots)
    for index, slot in enumerate(mine.slots):
        if places[(slot.col, slot.row)] > 1:
            found.append((None, f"mine.slots[{index}]", "Two slots share this place."))
    needed = Counter(s.group for s in mine.slots)
    held = Counter(t.group for t in mine.tiles.values())
    for group, count in sorted(needed.items()):
        if held[group] < count:
            problem = f"Group {group} fills {count} slots but has {held[group]} tiles."
            found.append((None, "mine.slots", problem))
    x, y = mine.start
    start = next((s for s in mine.slots if (s.col, s.row) == (x // 2, y // 2)), None)
    if start is None or not start.face_up:
        found.append((None, "mine.start", "The token must start on a face-up tile."))
    seen: Counter[str] = Counter()
    for tile in mine.tiles.values():
        for a, side_a, b, side_b in INNER_SIDES:
            if tile.grids[a].sides[side_a] != tile.grids[b].sides[side_b]:
                problem = f"Grids {a} and {b} disagree about the side between them."
                found.append((tile.id, "grids", problem))
        for grid in tile.grids:
            if grid.location:
                seen[grid.location] += 1
                if grid.location not in locations:
                    problem = f"Location {grid.location} is no location event card of this file."
                    found.append((tile.id, "grids", problem))
    for number in sorted(locations):
        if seen[number] != 1:
            problem = f"A location event is on one grid of one tile, found on {seen[number]}."
            found.append((number, "location", problem))
    return found


def check_advanced(
    file: str, advanced: dict[str, Card], cards: dict[str, Card]
) -> list[ContentError]:
    """Each replacement replaces an event card of the same number and colour."""
    errors = []
    for number, card in sorted(advanced.items()):
        normal = cards.get(number)
        if normal is None or normal.colour == "habit":
            problem = "An advanced event card replaces an event card of the same number."
            errors.append(ContentError(file, number, "number", problem))
        elif normal.colour != card.colour:
            problem = f"Card {number} is {normal.colour}; its replacement must be too."
            errors.append(ContentError(file, number, "colour", problem))
    return errors
