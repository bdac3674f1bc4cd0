"""Chapters: entering play, objectives, flipping, chapter tiles and the last explorer's exit.

Going to the next chapter flips the current chapter card: to the chapter board's top section, or,
when its back is a chapter tile, into play. A chapter tile goes on its own when no tiles are in
play; otherwise its direction symbol says where: a diamond against an unexplored edge of a map
tile in play, a circle against the matching circle of a chapter tile in play.
"""

from __future__ import annotations

from domain.machina.board import (
    OPPOSITE,
    SIDES,
    Placed,
    attach_origin,
    footprint,
    shape,
    turned,
)
from domain.machina.content import (
    ChapterCard,
    PlaceMonster,
    Recover,
    SealWhileCurrent,
    TakeItem,
    TreatAsExit,
)
from domain.machina.content_load import content, rules_version
from domain.machina.events import (
    CardCharged,
    ChapterBegan,
    ChapterFlipped,
    ChapterTileToBoard,
    EndgameBegan,
    ExitMarked,
    ExploringSealed,
    Healed,
    ItemGained,
    MapTilesReturned,
    MonsterBanished,
    PlacementOffered,
    ScenarioEnded,
    TilePlaced,
    TileScrolled,
)
from domain.machina.rules.emitter import Emitter
from domain.machina.rules.units import place_explorers, place_unique
from domain.machina.state import (
    CardCharges,
    MachinaState,
    Placement,
    board,
    charges_on,
    current_chapter,
    held,
    on_map,
)


def kept_tiles(state: MachinaState) -> frozenset[int]:
    """Tiles the playing area never scrolls away: those with an explorer or a unique monster on
    them, the one with the action space the current objective needs, and those bearing the
    circle the current chapter's tile connects to when it is flipped (RULES_NOTES.md)."""
    found = board(state)
    keep = {found.spaces[e.point].tile for e in on_map(state) if e.point in found.spaces}
    for unit in state.monsters:
        if content().monsters[unit.card].tier == 0 and unit.point in found.spaces:
            keep.add(found.spaces[unit.point].tile)
    label = current_chapter(state).objective.label if state.chapter else ""
    space = found.labelled(label) if label else None
    if space is not None:
        keep.add(space.tile)
    if rules_version() >= 2:  # rules 1 let the awaited circle scroll away
        keep |= _awaited(state)
    return frozenset(keep)


def _awaited(state: MachinaState) -> set[int]:
    """The chapter tiles in play with the circle that the current chapter's back tile connects
    to: the chapter is the one flipped next, so its tile must find that circle still there."""
    if not state.chapter or state.endgame:
        return set()
    coming = content().chapter_tiles.get(current_chapter(state).back_tile)
    if coming is None or coming.symbol != "circle":
        return set()
    return {
        placed.order
        for placed in state.tiles
        if placed.kind == "chapter"
        and any(c.name == coming.symbol_name for c in shape(placed.tile, placed.turns).circles)
    }


def scroll_away(out: Emitter, orders: tuple[int, ...]) -> None:
    """Scroll the playing area: monsters on the tiles leaving are banished with them."""
    for order in orders:
        found = board(out.state)
        points = set(found.points(order))
        for unit in out.state.monsters:
            if unit.point in points:
                out.emit(MonsterBanished(unit.uid, unit.card))
        out.emit(TileScrolled(order, found.by_order[order].tile))


# -- entering play ----------------------------------------------------------------------------


def _enters_play(out: Emitter, card: ChapterCard) -> None:
    for ability in card.enters_play:
        match ability:
            case PlaceMonster(monster=monster, label=label):
                place_unique(out, monster, label)
            case TreatAsExit(label=label):
                space = board(out.state).labelled(label)
                if space is not None and space.point not in out.state.exits:
                    out.emit(ExitMarked(space.point[0], space.point[1]))
            case TakeItem():
                for explorer in on_map(out.state):
                    room = len(held(out.state, explorer.id)) < content().ruleset.carry_limit
                    if out.state.item_deck and room:
                        top = out.state.item_deck[0]
                        charges = content().items[top].charges
                        out.emit(ItemGained(explorer.id, top, charges, False, "deck"))
            case SealWhileCurrent():
                out.emit(ExploringSealed())
            case Recover(amount=amount):
                for explorer in on_map(out.state):
                    missing = content().explorers[explorer.id].health - explorer.health
                    if missing > 0:
                        out.emit(Healed(explorer.id, min(amount, missing)))


def next_chapter(out: Emitter) -> None:
    """The top chapter card enters play, or the endgame when the chapter deck is spent."""
    state = out.state
    if state.chapter_deck:
        card = content().chapter(state.chapter_deck[0])
        out.emit(ChapterBegan(card.id, card.charges_for(len(state.seats))))
    else:
        card = content().scenario.endgame
        cards = tuple(CardCharges(c.id, c.charges_for(len(state.seats))) for c in card.cards)
        out.emit(EndgameBegan(card.id, cards))
    _enters_play(out, card)


# -- placing tiles ----------------------------------------------------------------------------


def place_alone(out: Emitter, tile: str, source: str) -> None:
    """A tile on its own; the surviving explorers on or next to its entry token."""
    kind = "map" if tile in content().map_tiles else "chapter"
    order = out.state.placed
    out.emit(TilePlaced(tile, kind, 0, 0, 0, order, source))
    found = board(out.state)
    entry = next(p for p in found.points(order) if found.spaces[p].symbol == "E")
    place_explorers(out, entry)


def _turns_facing(tile: str, side: str) -> int:
    """Quarter turns that bring ``tile``'s direction symbol to face ``side``."""
    symbol = content().chapter_tiles[tile].symbol_side
    return next(t for t in range(4) if turned(symbol, t) == side)


def placement_options(state: MachinaState, tile: str) -> tuple[Placement, ...]:
    """Every way the chapter tile can connect by its direction symbol, in tile order."""
    card = content().chapter_tiles[tile]
    found = board(state)
    keep = kept_tiles(state)
    options: list[Placement] = []
    for anchor in sorted(found.tiles, key=lambda t: t.order):
        if card.symbol == "diamond" and anchor.kind == "map":
            sides = found.unexplored(anchor.order)
        elif card.symbol == "circle" and anchor.kind == "chapter":
            circles = shape(anchor.tile, anchor.turns).circles
            sides = tuple(
                s for s in SIDES if any(c.side == s and c.name == card.symbol_name for c in circles)
            )
        else:
            continue
        for side in sides:
            turns = _turns_facing(tile, OPPOSITE[side])
            x, y = attach_origin(anchor, side, tile, turns)
            if not found.fits(footprint(tile, turns, x, y)):
                continue
            joining = Placed(tile, "chapter", x, y, turns, state.placed)
            scroll = found.scroll(anchor.order, joining, keep, content().ruleset.area_halves)
            if scroll is not None:
                options.append(Placement(anchor.order, side, x, y, turns, scroll))
    return tuple(options)


def place_option(out: Emitter, tile: str, option: Placement) -> None:
    scroll_away(out, option.scroll)
    out.emit(
        TilePlaced(tile, "chapter", option.x, option.y, option.turns, out.state.placed, "chapter")
    )


def clear_area(out: Emitter) -> None:
    """Every monster banished, chapter tiles to the chapter board, map tiles shuffled under the
    map tile deck."""
    for unit in out.state.monsters:
        out.emit(MonsterBanished(unit.uid, unit.card))
    for placed in sorted(out.state.tiles, key=lambda t: t.order):
        if placed.kind == "chapter":
            out.emit(ChapterTileToBoard(placed.order, placed.tile))
    maps = tuple(t.tile for t in sorted(out.state.tiles, key=lambda t: t.order) if t.kind == "map")
    if maps:
        chance = out.chance()
        out.emit(MapTilesReturned(maps, chance.shuffled(maps), chance.rng.draws))


def connect_flipped(out: Emitter, tile: str) -> None:
    """Place the flipped chapter's tile in play mid-chapter, asking where when there is a choice.
    When it can connect nowhere it goes on its own (RULES_NOTES.md)."""
    if not out.state.tiles:
        place_alone(out, tile, "chapter")
        next_chapter(out)
        return
    options = placement_options(out.state, tile)
    if not options:
        clear_area(out)
        place_alone(out, tile, "chapter")
        next_chapter(out)
    elif len(options) == 1:
        place_option(out, tile, options[0])
        next_chapter(out)
    else:
        out.emit(PlacementOffered(tile, options))


# -- finishing chapters -----------------------------------------------------------------------


def complete_chapter(out: Emitter) -> None:
    """The current chapter's objective is met where the explorers stand."""
    state = out.state
    chapter = current_chapter(state)
    if state.endgame:
        out.emit(ScenarioEnded("won", "objective"))
        return
    if chapter.back_tile:
        out.emit(ChapterFlipped(chapter.id, "play"))
        connect_flipped(out, chapter.back_tile)
    else:
        out.emit(ChapterFlipped(chapter.id, "board"))
        next_chapter(out)


def last_explorer_exited(out: Emitter) -> None:
    """When the last surviving explorer exits: banish every monster, chapter tiles to the board,
    map tiles shuffled under the deck, flip the chapter (its tile goes in play on its own, with
    the explorers at its entry token) and the next chapter enters play."""
    chapter = current_chapter(out.state)
    if out.state.endgame:
        out.emit(ScenarioEnded("won", "escaped"))
        return
    clear_area(out)
    if chapter.back_tile:
        out.emit(ChapterFlipped(chapter.id, "play"))
        place_alone(out, chapter.back_tile, "chapter")
    else:
        out.emit(ChapterFlipped(chapter.id, "board"))
        if not out.state.map_deck:  # every map tile is back in the deck, so never with content
            out.emit(ScenarioEnded("lost", "nowhere"))
            return
        place_alone(out, out.state.map_deck[0], "deck")
    next_chapter(out)


def progress_made(out: Emitter) -> None:
    """After a new map tile: an explore objective may be met."""
    objective = current_chapter(out.state).objective
    if objective.kind == "explore" and out.state.progress >= objective.count:
        complete_chapter(out)


def mechanism_worked(out: Emitter) -> None:
    """After interacting with the objective's mechanism: a charge comes off its card."""
    objective = current_chapter(out.state).objective
    left = charges_on(out.state, objective.card) - 1
    out.emit(CardCharged(objective.card, left))
    if left == 0:
        complete_chapter(out)


def monster_slain(out: Emitter, card: str) -> None:
    objective = current_chapter(out.state).objective
    if objective.kind == "slay" and objective.monster == card:
        complete_chapter(out)
