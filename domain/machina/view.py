"""What a seat sees: everything on the table, nothing face down.

Hidden from every seat (and spectators): the undrawn chapter cards, the map tile deck, the monster
deck, the horror deck and the item deck (their counts only), and the seed. The explorers play
together, so every seat sees the same table; ``seat`` says whose view it is.

``map`` draws the playing area, one string per row from ``map_x``, ``map_y`` (the top-left
space): ``.`` floor, ``#`` obstacle, ``S`` spawn point, ``X`` exit token (and any space treated as
one), ``E`` entry token, ``*`` action space, ``1``-``4`` explorers in seat order, ``m`` monsters,
and a blank where no tile lies.
"""

from __future__ import annotations

import msgspec

from domain.core.turn import Turn
from domain.machina.board import Placed, shape
from domain.machina.content_load import content
from domain.machina.describe import EFFECTS
from domain.machina.state import (
    Effect,
    MachinaState,
    board,
    charges_on,
    current_chapter,
    exploring_prevented,
    hit_cost,
)
from domain.machina.turn import turn


class TileView(msgspec.Struct, frozen=True, gc=False):
    order: int
    tile: str
    name: str
    kind: str
    x: int
    y: int
    width: int
    height: int
    turns: int
    unexplored: tuple[str, ...]
    scope: tuple[int, ...]
    """The tiles that count as one map tile with this one."""


class SpaceView(msgspec.Struct, frozen=True, gc=False):
    """An action space in play."""

    x: int
    y: int
    name: str
    kind: str
    spent: bool
    exit: bool


class ExplorerView(msgspec.Struct, frozen=True, gc=False):
    id: str
    name: str
    health: int
    max_health: int
    stamina: int
    max_stamina: int
    defense: int
    x: int
    y: int
    status: str
    ended: bool


class ItemView(msgspec.Struct, frozen=True, gc=False):
    card: str
    name: str
    text: str
    holder: str
    equipped: bool
    charges: int
    max_charges: int


class MonsterView(msgspec.Struct, frozen=True, gc=False):
    uid: int
    card: str
    name: str
    x: int
    y: int
    health: int
    max_health: int
    defense: int
    move: int
    attack: int


class CardView(msgspec.Struct, frozen=True, gc=False):
    """A chapter or endgame card in play, with its count tokens."""

    id: str
    title: str
    text: str
    charges: int


class EffectView(msgspec.Struct, frozen=True, gc=False):
    kind: str
    amount: int
    text: str = ""
    """The effect in words: "each hit costs 2 health"."""


class PlacementView(msgspec.Struct, frozen=True, gc=False):
    anchor: int
    side: str
    x: int
    y: int
    turns: int
    scroll: tuple[int, ...]


class MachinaView(msgspec.Struct, frozen=True, gc=False):
    seat: str | None
    seats: tuple[str, ...]
    phase: str
    round: int
    clock: int
    clock_limit: int
    chapter: CardView | None
    chapter_kind: str
    objective: str
    chapters_left: int
    board_top: tuple[str, ...]
    endgame: bool
    endgame_cards: tuple[CardView, ...]
    spawn_rating: int
    horror_rating: int
    spawn_effects: tuple[EffectView, ...]
    horror_effects: tuple[EffectView, ...]
    hit_cost: int
    exploring_prevented: bool
    threat: int
    threat_track: int
    tier: int
    map: tuple[str, ...]
    map_x: int
    map_y: int
    tiles: tuple[TileView, ...]
    action_spaces: tuple[SpaceView, ...]
    area_halves: int
    area_limit: int
    explorers: tuple[ExplorerView, ...]
    items: tuple[ItemView, ...]
    monsters: tuple[MonsterView, ...]
    map_deck_count: int
    monster_deck_count: int
    monster_discard: tuple[str, ...]
    horror_deck_count: int
    horror_discard: tuple[str, ...]
    item_deck_count: int
    item_discard: tuple[str, ...]
    pending_tile: str
    options: tuple[PlacementView, ...]
    result: str
    reason: str
    turn: Turn
    """Whose move it is and what is asked (see :mod:`domain.core.turn`)."""


def _effect(effect: Effect) -> EffectView:
    text = EFFECTS.get(effect.kind, effect.kind).format(amount=effect.amount)
    return EffectView(effect.kind, effect.amount, text)


def _drawing(state: MachinaState) -> tuple[tuple[str, ...], int, int]:
    rows, left, top = board(state).drawing()
    marks = {point: "X" for point in state.exits}
    marks.update((unit.point, "m") for unit in state.monsters)
    for index, who in enumerate(state.explorers):
        if who.status == "map":
            marks[who.point] = str(index + 1)
    if not marks:
        return rows, left, top
    drawn = [list(row) for row in rows]
    for (x, y), mark in marks.items():
        if 0 <= y - top < len(drawn) and 0 <= x - left < len(drawn[0]):
            drawn[y - top][x - left] = mark
    return tuple("".join(row) for row in drawn), left, top


def _tile(state: MachinaState, placed: Placed) -> TileView:
    found = board(state)
    lying = shape(placed.tile, placed.turns)
    return TileView(
        order=placed.order,
        tile=placed.tile,
        name=content().tile_name(placed.tile),
        kind=placed.kind,
        x=placed.x,
        y=placed.y,
        width=lying.width,
        height=lying.height,
        turns=placed.turns,
        unexplored=found.unexplored(placed.order),
        scope=tuple(sorted(found.scope(placed.order))),
    )


def view(state: MachinaState, seat: str | None) -> MachinaView:
    rows, map_x, map_y = _drawing(state)
    found = board(state)
    chapter = None
    kind = objective = ""
    if state.chapter:
        card = current_chapter(state)
        chapter = CardView(card.id, card.title, card.text, charges_on(state, card.id))
        kind, objective = card.kind, card.objective.text
    endgame_cards = tuple(
        CardView(c.id, c.name, c.text, charges_on(state, c.id))
        for c in content().scenario.endgame.cards
        if c.id in state.endgame_cards
    )
    spaces = tuple(
        SpaceView(
            s.point[0],
            s.point[1],
            s.action.name,
            s.action.kind,
            s.point in state.spent,
            s.point in state.exits,
        )
        for s in found.action_spaces
        if s.action is not None
    )
    return MachinaView(
        seat=seat,
        seats=state.seats,
        phase=state.phase,
        round=state.round,
        clock=state.clock,
        clock_limit=content().scenario.clock,
        chapter=chapter,
        chapter_kind=kind,
        objective=objective,
        chapters_left=len(state.chapter_deck),
        board_top=state.board_top,
        endgame=state.endgame,
        endgame_cards=endgame_cards,
        spawn_rating=state.spawn_rating,
        horror_rating=state.horror_rating,
        spawn_effects=tuple(_effect(e) for e in state.spawn_effects),
        horror_effects=tuple(_effect(e) for e in state.horror_effects),
        hit_cost=hit_cost(state),
        exploring_prevented=exploring_prevented(state),
        threat=state.threat,
        threat_track=content().ruleset.threat_track,
        tier=state.tier,
        map=rows,
        map_x=map_x,
        map_y=map_y,
        tiles=tuple(_tile(state, t) for t in state.tiles),
        action_spaces=spaces,
        area_halves=found.halves(),
        area_limit=content().ruleset.area_halves,
        explorers=tuple(
            ExplorerView(
                id=e.id,
                name=content().explorers[e.id].name,
                health=e.health,
                max_health=content().explorers[e.id].health,
                stamina=e.stamina,
                max_stamina=content().explorers[e.id].stamina,
                defense=content().explorers[e.id].defense,
                x=e.x,
                y=e.y,
                status=e.status,
                ended=e.ended,
            )
            for e in state.explorers
        ),
        items=tuple(
            ItemView(
                card=i.card,
                name=content().items[i.card].name,
                text=content().items[i.card].text,
                holder=i.holder,
                equipped=i.equipped,
                charges=i.charges,
                max_charges=content().items[i.card].charges,
            )
            for i in state.items
        ),
        monsters=tuple(
            MonsterView(
                uid=m.uid,
                card=m.card,
                name=content().monsters[m.card].name,
                x=m.x,
                y=m.y,
                health=m.health,
                max_health=content().monsters[m.card].health_for(len(state.seats)),
                defense=content().monsters[m.card].defense,
                move=content().monsters[m.card].move,
                attack=content().monsters[m.card].attack_for(len(state.seats)),
            )
            for m in state.monsters
        ),
        map_deck_count=len(state.map_deck),
        monster_deck_count=len(state.monster_deck),
        monster_discard=state.monster_discard,
        horror_deck_count=len(state.horror_deck),
        horror_discard=state.horror_discard,
        item_deck_count=len(state.item_deck),
        item_discard=state.item_discard,
        pending_tile=state.pending,
        options=tuple(
            PlacementView(o.anchor, o.side, o.x, o.y, o.turns, o.scroll) for o in state.options
        ),
        result=state.result,
        reason=state.reason,
        turn=turn(state),
    )
