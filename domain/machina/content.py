"""The cards and tiles of Machina as frozen Structs: what the JSON files under ``content/`` hold.

Each file is decoded with msgspec into these types, one card at a time, so that a problem names
the file, the card and the field (see :mod:`domain.machina.content_load`). Every Struct forbids
unknown fields: a misspelt key is an error, not a silently ignored one.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

Side = Literal["n", "e", "s", "w"]
Count = Annotated[int, msgspec.Meta(ge=0)]
Positive = Annotated[int, msgspec.Meta(ge=1)]
Text = Annotated[str, msgspec.Meta(min_length=1)]

SYMBOLS = {
    ".": "floor",
    "#": "obstacle",
    "S": "spawn point",
    "X": "exit token",
    "E": "entry token",
}
"""Map and chapter tile rows: one character per space. A lowercase letter is an action space
described in the tile's ``actions``; action spaces and obstacles are impassable."""
PASSABLE = frozenset(".SXE")


class _Data(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Ruleset(_Data, frozen=True, gc=False):
    map_tile_size: Annotated[int, msgspec.Meta(ge=2, le=8)]
    """Map tiles are square grids of this many spaces a side."""
    area_halves: Positive
    """The largest playing area, in half map tiles: 8 is 2x2 map tiles; a chapter tile is 1."""
    game_die: Annotated[int, msgspec.Meta(ge=2)]
    equip_slots: Positive
    """Hands: how many items an explorer can have equipped."""
    carry_limit: Positive
    """How many items an explorer can hold, equipped or not."""
    threat_track: Positive
    """The last space of the monster threat track; one more horror event passes it."""
    move_cost: Count
    explore_cost: Count
    exit_cost: Count
    equip_cost: Count
    give_cost: Count
    interact_cost: Count


class ExplorerCard(_Data, frozen=True, gc=False):
    id: Text
    name: Text
    text: Text
    health: Positive
    stamina: Positive
    defense: Positive
    """A monster's die hits this explorer on this number or more."""
    items: tuple[str, ...] = ()


class ExplorersFile(_Data, frozen=True, gc=False):
    seat_layouts: tuple[tuple[str, ...], ...]
    explorers: tuple[ExplorerCard, ...]


class ItemCard(_Data, frozen=True, gc=False):
    id: Text
    name: Text
    text: Text
    kind: Literal["weapon", "tool"]
    cost: Count
    """Stamina to attack with the weapon or to use the tool."""
    charges: Count = 0
    """Count tokens placed when the item enters play or is taken; 0 for an item without them."""
    dice: Count = 0
    range: Count = 0
    """Weapon: how many spaces away a target may be; heal: 0 for yourself only, 1 for a
    neighbour too."""
    effect: Literal["heal", "shock", "none"] = "none"
    amount: Count = 0


class MonsterCard(_Data, frozen=True, gc=False):
    id: Text
    name: Text
    text: Text
    tier: Count
    """1 and up: the monster deck it joins; 0: a unique monster that only abilities place."""
    health: Positive
    defense: Positive
    move: Count
    attack: Positive
    copies: Positive = 1
    health_per_explorer: Count = 0
    """Health it has more for each explorer of the expedition after the first."""
    attack_per_explorer: Count = 0
    """Attack dice it rolls more for each explorer of the expedition after the first."""

    def health_for(self, explorers: int) -> int:
        """Its health in an expedition of ``explorers`` explorers."""
        return self.health + self.health_per_explorer * max(explorers - 1, 0)

    def attack_for(self, explorers: int) -> int:
        """Its attack dice in an expedition of ``explorers`` explorers."""
        return self.attack + self.attack_per_explorer * max(explorers - 1, 0)


class SpawnEach(_Data, tag="spawn_each", tag_field="kind", frozen=True, gc=False):
    """Each explorer on the map spawns a monster."""


class SpawnWeakest(_Data, tag="spawn_weakest", tag_field="kind", frozen=True, gc=False):
    """The explorer on the map with the least health spawns a monster."""


class Haste(_Data, tag="haste", tag_field="kind", frozen=True, gc=False):
    """While it lasts, monsters move ``amount`` more spaces."""

    amount: Positive = 1


class HitCost(_Data, tag="hit_cost", tag_field="kind", frozen=True, gc=False):
    """While it lasts, each hit costs an explorer ``amount`` health instead of 1."""

    amount: Positive


class Invoke(_Data, tag="invoke", tag_field="kind", frozen=True, gc=False):
    """Invoke a horror event: the top card of the horror deck."""


class Seal(_Data, tag="seal", tag_field="kind", frozen=True, gc=False):
    """While it lasts, explorers cannot explore new map tiles."""


class ScopeHit(_Data, tag="scope_hit", tag_field="kind", frozen=True, gc=False):
    """Each explorer on a map tile (scope) with a monster on it is hit once."""


class Rust(_Data, tag="rust", tag_field="kind", frozen=True, gc=False):
    """Each item in play with charges loses one."""


class ClockTick(_Data, tag="clock", tag_field="kind", frozen=True, gc=False):
    """The clock moves ``amount`` rounds closer to eternity."""

    amount: Positive = 1


SpawnEffect = SpawnEach | SpawnWeakest | Haste
HorrorEffect = HitCost | Invoke | Seal | ScopeHit | Rust | SpawnWeakest | ClockTick
PERSISTENT = ("haste", "hit_cost", "seal")
"""Effect kinds that influence the game until cancelled; the others happen once."""


class HorrorCard(_Data, frozen=True, gc=False):
    id: Text
    name: Text
    text: Text
    effect: HitCost | Seal | ScopeHit | Rust | SpawnWeakest | ClockTick


class ActionSpace(_Data, frozen=True, gc=False):
    kind: Literal["search", "mechanism"]
    """search: take the top item of the item deck, once; mechanism: what a chapter names."""
    label: Text
    name: Text
    cost: Count | None = None
    """Stamina to interact with it; None for the ruleset's ``interact_cost``."""


class MapTileCard(_Data, frozen=True):
    id: Text
    name: Text
    rows: tuple[str, ...]
    open: tuple[Side, ...]
    """The sides through which explorers may explore."""
    actions: dict[str, ActionSpace] = {}


class Circle(_Data, frozen=True, gc=False):
    name: Text
    side: Side


class ChapterTileCard(_Data, frozen=True):
    id: Text
    name: Text
    text: Text
    rows: tuple[str, ...]
    symbol: Literal["diamond", "circle"]
    """The direction symbol: diamond connects to a map tile, circle to the chapter tile that
    shows the same circle."""
    symbol_side: Side
    symbol_name: str = ""
    circles: tuple[Circle, ...] = ()
    """The circles this tile shows for chapter tiles placed later."""
    unexplored: tuple[Side, ...] = ()
    actions: dict[str, ActionSpace] = {}


class Objective(_Data, frozen=True, gc=False):
    kind: Literal["escape", "explore", "activate", "slay"]
    """escape: every surviving explorer exits; explore: place ``count`` new map tiles;
    activate: interact with the ``label`` mechanism until ``card`` has no charges left;
    slay: kill the unique ``monster``."""
    text: Text
    count: Positive = 1
    label: str = ""
    card: str = ""
    monster: str = ""


class PlaceMonster(_Data, tag="place_monster", tag_field="ability", frozen=True, gc=False):
    monster: Text
    label: Text


class TreatAsExit(_Data, tag="treat_as_exit", tag_field="ability", frozen=True, gc=False):
    label: Text


class TakeItem(_Data, tag="take_item", tag_field="ability", frozen=True, gc=False):
    """Each explorer on the map takes the top item of the item deck."""


class SealWhileCurrent(_Data, tag="seal", tag_field="ability", frozen=True, gc=False):
    """Explorers cannot explore while this chapter is the current one."""


class Recover(_Data, tag="recover", tag_field="ability", frozen=True, gc=False):
    """Each explorer on the map recovers ``amount`` health (never above their card's)."""

    amount: Positive


Ability = PlaceMonster | TreatAsExit | TakeItem | SealWhileCurrent | Recover


class RatedSpawn(_Data, frozen=True, gc=False):
    at: Positive
    effect: SpawnEffect


class RatedHorror(_Data, frozen=True, gc=False):
    at: Positive
    effect: HorrorEffect


def _charges_for(charges: int, per_explorer: int, explorers: int) -> int:
    return charges + per_explorer * max(explorers - 1, 0)


class EndgameCard(_Data, frozen=True, gc=False):
    id: Text
    name: Text
    text: Text
    charges: Count = 0
    charges_per_explorer: Count = 0
    """Count tokens it enters play with more for each explorer after the first."""

    def charges_for(self, explorers: int) -> int:
        return _charges_for(self.charges, self.charges_per_explorer, explorers)


class ChapterCard(_Data, frozen=True, gc=False):
    id: Text
    title: Text
    text: Text
    kind: Literal["regular", "eternity"]
    spawn: Positive
    """Regular: the game die spawns on this or more. Eternity: the spawn slider's start."""
    horror: Positive
    objective: Objective
    spawn_effects: tuple[RatedSpawn, ...] = ()
    horror_effects: tuple[RatedHorror, ...] = ()
    charges: Count = 0
    charges_per_explorer: Count = 0
    """Count tokens it enters play with more for each explorer after the first."""
    enters_play: tuple[Ability, ...] = ()
    back_tile: str = ""
    """The chapter tile on the card's back, placed in play when the card is flipped."""
    back_text: str = ""
    cards: tuple[EndgameCard, ...] = ()
    """The endgame's cards; chapters have none."""

    def charges_for(self, explorers: int) -> int:
        return _charges_for(self.charges, self.charges_per_explorer, explorers)


class Scenario(_Data, frozen=True, gc=False):
    id: Text
    title: Text
    text: Text
    start_tile: Text
    clock: Positive
    """Rounds before eternity claims the explorers."""
    chapters: tuple[ChapterCard, ...]
    endgame: ChapterCard
    won: Text
    lost: Text


class Content(msgspec.Struct, frozen=True):
    """Everything, validated and cross-checked, with lookups by id."""

    ruleset: Ruleset
    seat_layouts: tuple[tuple[str, ...], ...]
    explorers: dict[str, ExplorerCard]
    items: dict[str, ItemCard]
    monsters: dict[str, MonsterCard]
    horrors: dict[str, HorrorCard]
    map_tiles: dict[str, MapTileCard]
    chapter_tiles: dict[str, ChapterTileCard]
    scenario: Scenario

    def chapter(self, chapter_id: str) -> ChapterCard:
        if chapter_id == self.scenario.endgame.id:
            return self.scenario.endgame
        return next(c for c in self.scenario.chapters if c.id == chapter_id)

    def tile_name(self, tile_id: str) -> str:
        if tile_id in self.map_tiles:
            return self.map_tiles[tile_id].name
        return self.chapter_tiles[tile_id].name

    def card_name(self, card_id: str) -> str:
        """The name of a chapter, endgame card or chapter tile (what the chapter board shows)."""
        if card_id in self.chapter_tiles:
            return self.chapter_tiles[card_id].name
        for card in self.scenario.endgame.cards:
            if card.id == card_id:
                return card.name
        return self.chapter(card_id).title
