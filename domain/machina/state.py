"""The state of one expedition: explorers, items, monsters, tiles in play, decks and the chapter.

Phases: ``setup`` (before the set-up events), ``explorers`` (the explorer phase: explorers act
until each has ended their turn; the spawn, horror and monster phases and the end of the round
then run on their own), ``placing`` (a flipped chapter tile waits for the explorers to choose
where it connects) and ``over``.
"""

from __future__ import annotations

import msgspec

from domain.core.rng import Rng
from domain.machina.board import Board, Placed, Point, board_of
from domain.machina.content import ChapterCard
from domain.machina.content_load import content


class Explorer(msgspec.Struct, frozen=True, gc=False):
    id: str
    health: int
    stamina: int
    x: int = 0
    y: int = 0
    status: str = "map"
    """``map`` (on the map), ``exited`` (left through an exit token, waiting for the others) or
    ``out`` (fell to 0 health; out of the scenario)."""
    ended: bool = False
    """Ended their turn this round."""

    @property
    def point(self) -> Point:
        return (self.x, self.y)


class Item(msgspec.Struct, frozen=True, gc=False):
    """An item card in play, held by an explorer, with its count tokens."""

    card: str
    holder: str
    equipped: bool = False
    charges: int = 0


class Monster(msgspec.Struct, frozen=True, gc=False):
    uid: int
    card: str
    x: int
    y: int
    health: int

    @property
    def point(self) -> Point:
        return (self.x, self.y)


class Effect(msgspec.Struct, frozen=True, gc=False):
    """A spawn or horror effect that influences the game until it is cancelled."""

    kind: str
    amount: int = 0


class CardCharges(msgspec.Struct, frozen=True, gc=False):
    """Count tokens on a chapter or endgame card in play."""

    card: str
    charges: int


class Placement(msgspec.Struct, frozen=True, gc=False):
    """One way to connect the flipped chapter tile: against ``side`` of tile ``anchor``."""

    anchor: int
    side: str
    x: int
    y: int
    turns: int
    scroll: tuple[int, ...] = ()
    """Tiles scrolled away to make room."""


class MachinaState(msgspec.Struct, frozen=True, gc=False):
    rng: Rng
    seats: tuple[str, ...]
    phase: str = "setup"
    round: int = 0
    clock: int = 0
    """Rounds gone (and minutes lost to horror); at the scenario's clock, eternity wins."""
    chapter: str = ""
    chapter_deck: tuple[str, ...] = ()
    board_top: tuple[str, ...] = ()
    """The chapter board's top section: flipped chapter cards and chapter tiles put there."""
    endgame: bool = False
    endgame_cards: tuple[str, ...] = ()
    card_charges: tuple[CardCharges, ...] = ()
    progress: int = 0
    """New map tiles explored during the current chapter."""
    sealed: bool = False
    """The current chapter prevents exploring."""
    tiles: tuple[Placed, ...] = ()
    placed: int = 0
    """Tiles placed so far: the next tile's ``order``."""
    map_deck: tuple[str, ...] = ()
    exits: tuple[Point, ...] = ()
    """Spaces treated as exit tokens."""
    spent: tuple[Point, ...] = ()
    """Search spaces already searched."""
    explorers: tuple[Explorer, ...] = ()
    items: tuple[Item, ...] = ()
    item_deck: tuple[str, ...] = ()
    item_discard: tuple[str, ...] = ()
    monsters: tuple[Monster, ...] = ()
    spawned: int = 0
    """Monsters put in play so far: the next monster's ``uid`` is one more."""
    monster_deck: tuple[str, ...] = ()
    monster_discard: tuple[str, ...] = ()
    tier: int = 1
    threat: int = 0
    horror_deck: tuple[str, ...] = ()
    horror_discard: tuple[str, ...] = ()
    spawn_rating: int = 0
    horror_rating: int = 0
    spawn_effects: tuple[Effect, ...] = ()
    horror_effects: tuple[Effect, ...] = ()
    pending: str = ""
    """The flipped chapter tile waiting to be connected (phase ``placing``)."""
    options: tuple[Placement, ...] = ()
    result: str = "running"
    reason: str = ""


def explorer(state: MachinaState, who: str) -> Explorer:
    return next(e for e in state.explorers if e.id == who)


def with_explorer(state: MachinaState, changed: Explorer) -> MachinaState:
    explorers = tuple(changed if e.id == changed.id else e for e in state.explorers)
    return msgspec.structs.replace(state, explorers=explorers)


def on_map(state: MachinaState) -> list[Explorer]:
    return [e for e in state.explorers if e.status == "map"]


def surviving(state: MachinaState) -> list[Explorer]:
    return [e for e in state.explorers if e.status != "out"]


def held(state: MachinaState, who: str) -> list[Item]:
    return [i for i in state.items if i.holder == who]


def item(state: MachinaState, card: str) -> Item:
    return next(i for i in state.items if i.card == card)


def monster(state: MachinaState, uid: int) -> Monster:
    return next(m for m in state.monsters if m.uid == uid)


def occupied(state: MachinaState) -> set[Point]:
    """Spaces with a unit on them (explorers on the map and monsters)."""
    return {e.point for e in on_map(state)} | {m.point for m in state.monsters}


def charges_on(state: MachinaState, card: str) -> int:
    return next((c.charges for c in state.card_charges if c.card == card), 0)


def hit_cost(state: MachinaState) -> int:
    """Health an explorer loses per hit: 1, unless a horror effect in force says more."""
    costs = [e.amount for e in state.horror_effects if e.kind == "hit_cost"]
    return max(costs, default=1)


def haste(state: MachinaState) -> int:
    return sum(e.amount for e in state.spawn_effects if e.kind == "haste")


def exploring_prevented(state: MachinaState) -> bool:
    return state.sealed or any(e.kind == "seal" for e in state.horror_effects)


def board(state: MachinaState) -> Board:
    return board_of(state.tiles)


def current_chapter(state: MachinaState) -> ChapterCard:
    return content().chapter(state.chapter)
