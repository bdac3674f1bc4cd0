"""The play area: map and chapter tiles laid on one grid of spaces, and the geometry of it.

A placed tile is its content id, its kind, the global space of its top-left corner and how many
quarter turns clockwise it was turned. Everything else (its spaces, sides, neighbours, map tile
scope) is derived here and cached per tuple of placed tiles, so replays and views share the work.
Coordinates: ``x`` grows to the east, ``y`` to the south; reading order is ``(y, x)``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from math import isqrt

import msgspec

from domain.machina.content import PASSABLE, ActionSpace, Circle, Side
from domain.machina.content_load import IN_PLAY, Pack, content, rules_version

Point = tuple[int, int]
SIDES: tuple[Side, ...] = ("n", "e", "s", "w")
STEP = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}
OPPOSITE = {"n": "s", "e": "w", "s": "n", "w": "e"}


class Placed(msgspec.Struct, frozen=True, array_like=True, gc=False):
    """A tile in play. ``order`` counts placements and names the tile while it stays in play."""

    tile: str
    kind: str
    """``map`` or ``chapter``."""
    x: int
    y: int
    turns: int
    order: int


def turned(side: Side, turns: int) -> Side:
    """``side`` after ``turns`` quarter turns clockwise."""
    return SIDES[(SIDES.index(side) + turns) % 4]


def neighbours(point: Point) -> tuple[Point, ...]:
    x, y = point
    return ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))


def distance(a: Point, b: Point) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True, slots=True)
class Shape:
    """A tile as it lies after its turns."""

    rows: tuple[str, ...]
    width: int
    height: int
    open: tuple[str, ...]
    """Sides that can be explored through (a map tile's open sides, a chapter tile's
    unexplored edges)."""
    symbol_side: str
    """Where a chapter tile's direction symbol is; empty for map tiles."""
    circles: tuple[Circle, ...]
    actions: dict[str, ActionSpace]


def shape(tile: str, turns: int) -> Shape:
    """``tile`` turned ``turns`` quarter turns, as the pack in play draws it."""
    return _shape(IN_PLAY.get(), tile, turns)


@cache
def _shape(pack: Pack, tile: str, turns: int) -> Shape:
    circles: tuple[Circle, ...] = ()
    symbol: Side | None = None
    if tile in pack.content.map_tiles:
        card = pack.content.map_tiles[tile]
        rows, sides, actions = card.rows, card.open, card.actions
    else:
        chapter = pack.content.chapter_tiles[tile]
        rows, sides, actions = chapter.rows, chapter.unexplored, chapter.actions
        symbol, circles = chapter.symbol_side, chapter.circles
    for _ in range(turns % 4):
        height = len(rows)
        rows = tuple(
            "".join(rows[height - 1 - x][y] for x in range(height)) for y in range(len(rows[0]))
        )
    return Shape(
        rows=rows,
        width=len(rows[0]),
        height=len(rows),
        open=tuple(turned(s, turns) for s in sides),
        symbol_side=turned(symbol, turns) if symbol is not None else "",
        circles=tuple(msgspec.structs.replace(c, side=turned(c.side, turns)) for c in circles),
        actions=actions,
    )


def footprint(tile: str, turns: int, x: int, y: int) -> list[Point]:
    found = shape(tile, turns)
    return [(x + dx, y + dy) for dy in range(found.height) for dx in range(found.width)]


def attach_origin(anchor: Placed, side: str, tile: str, turns: int) -> Point:
    """Where ``tile`` goes when laid flush against ``anchor``'s ``side``, corners aligned."""
    outer = shape(anchor.tile, anchor.turns)
    inner = shape(tile, turns)
    match side:
        case "n":
            return anchor.x, anchor.y - inner.height
        case "s":
            return anchor.x, anchor.y + outer.height
        case "e":
            return anchor.x + outer.width, anchor.y
        case _:
            return anchor.x - inner.width, anchor.y


@dataclass(frozen=True, slots=True)
class Space:
    point: Point
    symbol: str
    tile: int
    action: ActionSpace | None


class Board:
    """The spaces of the tiles in play and how the tiles touch."""

    def __init__(self, tiles: tuple[Placed, ...]) -> None:
        self.tiles = tiles
        self.by_order = {t.order: t for t in tiles}
        self.spaces: dict[Point, Space] = {}
        for placed in tiles:
            found = shape(placed.tile, placed.turns)
            for dy, row in enumerate(found.rows):
                for dx, symbol in enumerate(row):
                    point = (placed.x + dx, placed.y + dy)
                    action = found.actions.get(symbol) if symbol.islower() else None
                    self.spaces[point] = Space(point, symbol, placed.order, action)
        self.links: dict[int, frozenset[int]] = {}
        touching: dict[int, set[int]] = {t.order: set() for t in tiles}
        for point, space in self.spaces.items():
            for other in neighbours(point):
                near = self.spaces.get(other)
                if near is not None and near.tile != space.tile:
                    touching[space.tile].add(near.tile)
        self.links = {order: frozenset(found) for order, found in touching.items()}
        self._unexplored: dict[int, tuple[str, ...]] = {}
        self._scope: dict[int, frozenset[int]] = {}
        self._paths: dict[tuple[Point, ...], dict[Point, tuple[Point, ...]]] = {}
        self._drawing: tuple[tuple[str, ...], int, int] | None = None
        self.action_spaces = tuple(
            space
            for _, space in sorted(self.spaces.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            if space.action is not None
        )
        """Action spaces in reading order."""

    # -- spaces ---------------------------------------------------------------------------

    def passable(self, point: Point, exits: Iterable[Point] = ()) -> bool:
        """Units can stand on floor, spawn points, entry and exit tokens, and on any space a
        chapter treats as an exit token."""
        space = self.spaces.get(point)
        return space is not None and (space.symbol in PASSABLE or point in exits)

    def paths(self, exits: tuple[Point, ...] = ()) -> dict[Point, tuple[Point, ...]]:
        """Every passable space (given ``exits``) and its passable neighbours, in the order of
        :func:`neighbours`: the graph a walk searches, worked out once per board and exits."""
        found = self._paths.get(exits)
        if found is None:
            found = self._paths[exits] = {
                point: tuple(p for p in neighbours(point) if self.passable(p, exits))
                for point in self.spaces
                if self.passable(point, exits)
            }
        return found

    def labelled(self, label: str) -> Space | None:
        """The first action space in reading order with ``label``."""
        for space in self.action_spaces:
            if space.action is not None and space.action.label == label:
                return space
        return None

    def nearest(self, start: Point, accept: Callable[[Point], bool]) -> Point | None:
        """The accepted space fewest steps from ``start`` (walking over any space in play),
        ties in reading order."""
        if start not in self.spaces:
            return None
        seen = {start}
        layer = [start]
        while layer:
            for point in sorted(layer, key=lambda p: (p[1], p[0])):
                if accept(point):
                    return point
            following: list[Point] = []
            for point in layer:
                for other in neighbours(point):
                    if other in self.spaces and other not in seen:
                        seen.add(other)
                        following.append(other)
            layer = following
        return None

    def walk(self, start: Point, can_enter: Callable[[Point], bool]) -> dict[Point, Point | None]:
        """Breadth-first from ``start`` over enterable spaces: each reached space and the one
        it was reached from (neighbours tried north, east, south, west)."""
        parents: dict[Point, Point | None] = {start: None}
        queue = deque([start])
        while queue:
            point = queue.popleft()
            for other in neighbours(point):
                if other not in parents and other in self.spaces and can_enter(other):
                    parents[other] = point
                    queue.append(other)
        return parents

    # -- tiles ----------------------------------------------------------------------------

    def tile_at(self, point: Point) -> Placed | None:
        space = self.spaces.get(point)
        return None if space is None else self.by_order[space.tile]

    def points(self, order: int) -> list[Point]:
        placed = self.by_order[order]
        return footprint(placed.tile, placed.turns, placed.x, placed.y)

    def edge(self, order: int, side: str) -> list[Point]:
        """The tile's own spaces along ``side``."""
        placed = self.by_order[order]
        found = shape(placed.tile, placed.turns)
        xs, ys = range(placed.x, placed.x + found.width), range(placed.y, placed.y + found.height)
        match side:
            case "n":
                return [(x, placed.y) for x in xs]
            case "s":
                return [(x, ys[-1]) for x in xs]
            case "e":
                return [(xs[-1], y) for y in ys]
            case _:
                return [(placed.x, y) for y in ys]

    def unexplored(self, order: int) -> tuple[str, ...]:
        """Open sides with nothing in play beyond them."""
        if order not in self._unexplored:
            self._unexplored[order] = self._find_unexplored(order)
        return self._unexplored[order]

    def _find_unexplored(self, order: int) -> tuple[str, ...]:
        placed = self.by_order[order]
        found = []
        for side in shape(placed.tile, placed.turns).open:
            dx, dy = STEP[side]
            beyond = [(x + dx, y + dy) for x, y in self.edge(order, side)]
            if not any(point in self.spaces for point in beyond):
                found.append(side)
        return tuple(s for s in SIDES if s in found)

    def drawing(self) -> tuple[tuple[str, ...], int, int]:
        """The tiles as rows of symbols (action spaces as ``*``, blanks where no tile lies),
        with the space of the first row's first character."""
        if self._drawing is None:
            if not self.spaces:
                self._drawing = ((), 0, 0)
            else:
                xs = [p[0] for p in self.spaces]
                ys = [p[1] for p in self.spaces]
                left, top = min(xs), min(ys)
                rows = []
                for y in range(top, max(ys) + 1):
                    row = []
                    for x in range(left, max(xs) + 1):
                        space = self.spaces.get((x, y))
                        symbol = " " if space is None else space.symbol
                        row.append("*" if symbol.islower() else symbol)
                    rows.append("".join(row))
                self._drawing = (tuple(rows), left, top)
        return self._drawing

    def fits(self, points: Iterable[Point]) -> bool:
        return not any(point in self.spaces for point in points)

    def halves(self) -> int:
        """The playing area's size in half map tiles (a chapter tile counts as one half)."""
        return halves(self.tiles)

    def chapter_group(self, order: int) -> frozenset[int]:
        """The chapter tiles connected to this chapter tile, itself included."""
        group = {order}
        queue = [order]
        while queue:
            for other in self.links[queue.pop()]:
                if other not in group and self.by_order[other].kind == "chapter":
                    group.add(other)
                    queue.append(other)
        return frozenset(group)

    def scope(self, order: int) -> frozenset[int]:
        """The tiles that count as one map tile with tile ``order``: a map tile with every
        chapter tile connected to it (connected chapter tiles counting as one); a chapter tile
        belongs to each map tile it connects to, and is its own map tile when it connects to
        none."""
        if order not in self._scope:
            self._scope[order] = self._find_scope(order)
        return self._scope[order]

    def _find_scope(self, order: int) -> frozenset[int]:
        placed = self.by_order[order]
        if placed.kind == "map":
            found = {order}
            for other in self.links[order]:
                if self.by_order[other].kind == "chapter":
                    found |= self.chapter_group(other)
            return frozenset(found)
        group = self.chapter_group(order)
        maps = {m for c in group for m in self.links[c] if self.by_order[m].kind == "map"}
        if not maps:
            return group
        return frozenset().union(*(self.scope(m) for m in sorted(maps)))

    def connected(self, orders: frozenset[int]) -> bool:
        if not orders:
            return True
        start = min(orders)
        seen = {start}
        queue = [start]
        while queue:
            for other in self.links[queue.pop()]:
                if other in orders and other not in seen:
                    seen.add(other)
                    queue.append(other)
        return seen == set(orders)

    def hops(self, start: int, within: frozenset[int]) -> dict[int, int]:
        found = {start: 0}
        queue = deque([start])
        while queue:
            order = queue.popleft()
            for other in sorted(self.links[order]):
                if other in within and other not in found:
                    found[other] = found[order] + 1
                    queue.append(other)
        return found

    def scroll(
        self, anchor: int, adding: Placed, keep: frozenset[int], limit: int
    ) -> tuple[int, ...] | None:
        """The tiles to scroll away before ``adding`` joins next to ``anchor`` so that the area
        stays within ``limit`` half map tiles in size and shape (:func:`within_area`); None when
        it cannot. One tile leaves at a time: the farthest from the anchor (counted in tiles;
        ties: placed earliest) whose leaving brings the area within bounds, or, when no single
        tile's does, the farthest. Kept tiles (explorers, the objective's spaces and monsters, a
        tile the next chapter tile connects to) and the anchor stay, and what stays must hold
        together. Rules 1 counted only the size: see :meth:`_scroll_by_size`."""
        if rules_version() < 2:
            return self._scroll_by_size(anchor, halves((adding,)), keep, limit)
        remaining = frozenset(self.by_order)
        removed: list[int] = []

        def fits(orders: frozenset[int]) -> bool:
            return within_area((*(self.by_order[o] for o in sorted(orders)), adding), limit)

        while not fits(remaining):
            far = self.hops(anchor, remaining)
            candidates = sorted(
                (
                    order
                    for order in remaining
                    if order != anchor and order not in keep and self.connected(remaining - {order})
                ),
                key=lambda o: (-far.get(o, 1 << 30), o),
            )
            if not candidates:
                return None
            pick = next((o for o in candidates if fits(remaining - {o})), candidates[0])
            remaining -= {pick}
            removed.append(pick)
        return tuple(removed)

    def _scroll_by_size(
        self, anchor: int, adding: int, keep: frozenset[int], limit: int
    ) -> tuple[int, ...] | None:
        """Rules 1: the tiles to scroll away before ``adding`` half map tiles join next to
        ``anchor``, farthest from it first (ties: placed earliest), until the area's size is
        within ``limit``, whatever its shape."""
        total = self.halves() + adding
        remaining = frozenset(self.by_order)
        removed: list[int] = []
        while total > limit:
            far = self.hops(anchor, remaining)
            candidates = [
                order
                for order in remaining
                if order != anchor and order not in keep and self.connected(remaining - {order})
            ]
            if not candidates:
                return None
            pick = max(candidates, key=lambda o: (far.get(o, 1 << 30), -o))
            remaining -= {pick}
            removed.append(pick)
            total -= 2 if self.by_order[pick].kind == "map" else 1
        return tuple(removed)


def halves(tiles: Iterable[Placed]) -> int:
    """Size in half map tiles: a map tile is 2, a chapter tile 1."""
    return sum(2 if t.kind == "map" else 1 for t in tiles)


def _cells(placed: Placed) -> tuple[int, int]:
    """A tile's width and height in half map tiles: a map tile 2 by 2; a chapter tile half a map
    tile along the way its direction symbol points (the way it connects), a whole one across."""
    if placed.kind == "map":
        return 2, 2
    along_x = shape(placed.tile, placed.turns).symbol_side in ("e", "w", "")
    return (1, 2) if along_x else (2, 1)


def _box(placed: Placed) -> tuple[int, int, int, int]:
    found = shape(placed.tile, placed.turns)
    return placed.x, placed.y, placed.x + found.width, placed.y + found.height


def _across(offset: int) -> int:
    """A shift in spaces across the way two tiles touch, to the nearest whole map tile, in
    halves (tiles of 3 to 5 spaces touch slightly out of line; a map tile is 4)."""
    size = content().ruleset.map_tile_size
    return 2 * ((offset + size // 2) // size)


def layout(tiles: tuple[Placed, ...]) -> dict[int, tuple[int, int]]:
    """Each tile's place in a grid of half map tiles: the earliest placed at 0,0, then each tile
    next to a tile already laid out that it touches side to side (both in placing order)."""
    ordered = sorted(tiles, key=lambda t: t.order)
    found: dict[int, tuple[int, int]] = {}
    for root in ordered:
        if root.order in found:
            continue
        found[root.order] = (0, 0)
        grown = True
        while grown:
            grown = False
            for a in ordered:
                if a.order not in found:
                    continue
                ax, ay = found[a.order]
                aw, ah = _cells(a)
                a0, a1, a2, a3 = _box(a)
                for b in ordered:
                    if b.order in found:
                        continue
                    bw, bh = _cells(b)
                    b0, b1, b2, b3 = _box(b)
                    beside = b1 < a3 and a1 < b3
                    above_below = b0 < a2 and a0 < b2
                    if beside and b0 == a2:
                        found[b.order] = (ax + aw, ay + _across(b1 - a1))
                    elif beside and b2 == a0:
                        found[b.order] = (ax - bw, ay + _across(b1 - a1))
                    elif above_below and b1 == a3:
                        found[b.order] = (ax + _across(b0 - a0), ay + ah)
                    elif above_below and b3 == a1:
                        found[b.order] = (ax + _across(b0 - a0), ay - bh)
                    else:
                        continue
                    grown = True
    return found


def extent(tiles: tuple[Placed, ...]) -> tuple[int, int]:
    """The area's width and height in half map tiles (:func:`layout`)."""
    if not tiles:
        return 0, 0
    places = layout(tiles)
    xs = [places[t.order][0] for t in tiles]
    ys = [places[t.order][1] for t in tiles]
    right = max(places[t.order][0] + _cells(t)[0] for t in tiles)
    bottom = max(places[t.order][1] + _cells(t)[1] for t in tiles)
    return right - min(xs), bottom - min(ys)


def within_area(tiles: tuple[Placed, ...], limit: int) -> bool:
    """Whether ``tiles`` fit the largest play area, ``limit`` half map tiles laid as a square
    (8 halves: 2x2 map tiles): no more than ``limit`` in size, and no wider or taller than the
    square's side, so that three map tiles in a row never stand."""
    side = 2 * isqrt(limit // 2)
    width, height = extent(tiles)
    return halves(tiles) <= limit and width <= side and height <= side


def board_of(tiles: tuple[Placed, ...]) -> Board:
    return _board_of(IN_PLAY.get(), tiles)


@lru_cache(maxsize=2048)
def _board_of(pack: Pack, tiles: tuple[Placed, ...]) -> Board:
    # ``pack`` keys the cache: the Board is built from the shapes of the pack in play.
    return Board(tiles)
