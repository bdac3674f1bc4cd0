"""The events of an expedition. Tags never change once stored; new fields get defaults.

Every event that carries a chance outcome (a shuffle, a die) also carries ``draws``, the
generator's draw count after it, so that evolve never draws. Deck orders travel in ``order``
fields, which :meth:`MachinaGame.redact` empties for every viewer.
"""

from __future__ import annotations

import msgspec

from domain.machina.state import CardCharges, Placement


class _Event(msgspec.Struct, frozen=True, tag_field="type", gc=False):
    pass


class Shuffled(_Event, frozen=True, tag="machina/shuffled"):
    """A deck (``map``, ``monster``, ``horror`` or ``item``) now holds ``order``, top first;
    its discard pile is empty."""

    deck: str
    order: tuple[str, ...]
    count: int
    draws: int


class ItemGained(_Event, frozen=True, tag="machina/item_gained"):
    """An item card enters play with an explorer; ``charges`` count tokens go on it.
    ``source``: ``start`` (the explorer's own) or ``deck`` (the top of the item deck)."""

    explorer: str
    card: str
    charges: int
    equipped: bool
    source: str


class TilePlaced(_Event, frozen=True, tag="machina/tile_placed"):
    """``source``: ``start``, ``deck`` (the top of the map tile deck) or ``chapter`` (the back
    of the flipped chapter)."""

    tile: str
    kind: str
    x: int
    y: int
    turns: int
    order: int
    source: str


class TileScrolled(_Event, frozen=True, tag="machina/tile_scrolled"):
    """The playing area scrolls: a map tile goes under the map tile deck, a chapter tile to the
    chapter board's top section."""

    order: int
    tile: str


class ChapterTileToBoard(_Event, frozen=True, tag="machina/chapter_tile_to_board"):
    order: int
    tile: str


class MapTilesReturned(_Event, frozen=True, tag="machina/map_tiles_returned"):
    """Every map tile in play (``tiles``) leaves play, shuffled, under the map tile deck."""

    tiles: tuple[str, ...]
    order: tuple[str, ...]
    draws: int


class ExplorerPlaced(_Event, frozen=True, tag="machina/explorer_placed"):
    explorer: str
    x: int
    y: int


class ChapterBegan(_Event, frozen=True, tag="machina/chapter_began"):
    """The top chapter card enters play (with ``charges`` count tokens)."""

    chapter: str
    charges: int


class EndgameBegan(_Event, frozen=True, tag="machina/endgame_began"):
    """The chapter deck is spent: the endgame and its cards come into play."""

    endgame: str
    cards: tuple[CardCharges, ...]


class ChapterFlipped(_Event, frozen=True, tag="machina/chapter_flipped"):
    """``to``: ``board`` (the top section of the chapter board) or ``play`` (its back is a
    chapter tile, placed next)."""

    chapter: str
    to: str


class PlacementOffered(_Event, frozen=True, tag="machina/placement_offered"):
    tile: str
    options: tuple[Placement, ...]


class RoundBegan(_Event, frozen=True, tag="machina/round_began"):
    round: int


class Moved(_Event, frozen=True, tag="machina/moved"):
    explorer: str
    x: int
    y: int
    cost: int


class Explored(_Event, frozen=True, tag="machina/explored"):
    explorer: str
    side: str
    cost: int


class Attacked(_Event, frozen=True, tag="machina/attacked"):
    explorer: str
    item: str
    monster: int
    dice: tuple[int, ...]
    hits: int
    cost: int
    draws: int


class ItemUsed(_Event, frozen=True, tag="machina/item_used"):
    explorer: str
    item: str
    cost: int


class Healed(_Event, frozen=True, tag="machina/healed"):
    explorer: str
    amount: int


class MonsterWounded(_Event, frozen=True, tag="machina/monster_wounded"):
    monster: int
    hits: int


class MonsterKilled(_Event, frozen=True, tag="machina/monster_killed"):
    monster: int
    card: str


class ItemCharges(_Event, frozen=True, tag="machina/item_charges"):
    """An item is left with ``charges`` count tokens."""

    item: str
    charges: int


class ItemDestroyed(_Event, frozen=True, tag="machina/item_destroyed"):
    """The item goes to the item discard pile; its count tokens are removed."""

    item: str


class ItemBanished(_Event, frozen=True, tag="machina/item_banished"):
    """The item leaves the game; its count tokens are removed."""

    item: str


class Equipped(_Event, frozen=True, tag="machina/equipped"):
    explorer: str
    item: str
    cost: int


class Unequipped(_Event, frozen=True, tag="machina/unequipped"):
    explorer: str
    item: str


class Given(_Event, frozen=True, tag="machina/given"):
    """The item changes control, unequipped, keeping its count tokens."""

    explorer: str
    item: str
    to: str
    cost: int


class Interacted(_Event, frozen=True, tag="machina/interacted"):
    explorer: str
    x: int
    y: int
    cost: int


class SpaceSearched(_Event, frozen=True, tag="machina/space_searched"):
    x: int
    y: int


class CardCharged(_Event, frozen=True, tag="machina/card_charged"):
    """A chapter or endgame card is left with ``charges`` count tokens."""

    card: str
    charges: int


class MonsterAppeared(_Event, frozen=True, tag="machina/monster_appeared"):
    """``source``: ``deck`` (spawned by explorer ``by``: the top of the monster deck) or
    ``ability`` (a unique monster a chapter places)."""

    monster: int
    card: str
    x: int
    y: int
    source: str
    by: str


class MonsterBanished(_Event, frozen=True, tag="machina/monster_banished"):
    monster: int
    card: str


class ExitMarked(_Event, frozen=True, tag="machina/exit_marked"):
    """A space is treated as an exit token: it becomes passable."""

    x: int
    y: int


class ExploringSealed(_Event, frozen=True, tag="machina/exploring_sealed"):
    """The current chapter prevents exploring while it is current."""


class Exited(_Event, frozen=True, tag="machina/exited"):
    explorer: str
    cost: int


class TurnEnded(_Event, frozen=True, tag="machina/turn_ended"):
    explorer: str


class PhaseBegan(_Event, frozen=True, tag="machina/phase_began"):
    """``spawn``, ``horror``, ``monsters`` or ``end`` (of the round)."""

    phase: str


class EffectsCancelled(_Event, frozen=True, tag="machina/effects_cancelled"):
    """Every ``spawn`` or ``horror`` effect influencing the game ends."""

    which: str


class EffectBegan(_Event, frozen=True, tag="machina/effect_began"):
    which: str
    kind: str
    amount: int


class DieRolled(_Event, frozen=True, tag="machina/die_rolled"):
    """The game die, rolled against a regular chapter's ``spawn`` or ``horror`` rating."""

    purpose: str
    face: int
    draws: int


class SpawnRatingReset(_Event, frozen=True, tag="machina/spawn_rating_reset"):
    rating: int


class HorrorInvoked(_Event, frozen=True, tag="machina/horror_invoked"):
    """The top horror card is drawn, resolved and discarded."""

    card: str


class ThreatRaised(_Event, frozen=True, tag="machina/threat_raised"):
    threat: int


class TierRaised(_Event, frozen=True, tag="machina/tier_raised"):
    """The threat passed its track: it starts again at 0 and stronger monsters join."""

    tier: int


class MonsterMoved(_Event, frozen=True, tag="machina/monster_moved"):
    monster: int
    x: int
    y: int


class MonsterAttacked(_Event, frozen=True, tag="machina/monster_attacked"):
    monster: int
    explorer: str
    dice: tuple[int, ...]
    hits: int
    loss: int
    draws: int


class ExplorerHit(_Event, frozen=True, tag="machina/explorer_hit"):
    explorer: str
    loss: int


class ExplorerOut(_Event, frozen=True, tag="machina/explorer_out"):
    explorer: str


class RatingsLowered(_Event, frozen=True, tag="machina/ratings_lowered"):
    spawn: int
    horror: int


class ClockAdvanced(_Event, frozen=True, tag="machina/clock_advanced"):
    clock: int


class RoundEnded(_Event, frozen=True, tag="machina/round_ended"):
    round: int


class ScenarioEnded(_Event, frozen=True, tag="machina/scenario_ended"):
    result: str
    reason: str


MachinaEvent = (
    Shuffled
    | ItemGained
    | TilePlaced
    | TileScrolled
    | ChapterTileToBoard
    | MapTilesReturned
    | ExplorerPlaced
    | ChapterBegan
    | EndgameBegan
    | ChapterFlipped
    | PlacementOffered
    | RoundBegan
    | Moved
    | Explored
    | Attacked
    | ItemUsed
    | Healed
    | MonsterWounded
    | MonsterKilled
    | ItemCharges
    | ItemDestroyed
    | ItemBanished
    | Equipped
    | Unequipped
    | Given
    | Interacted
    | SpaceSearched
    | CardCharged
    | MonsterAppeared
    | MonsterBanished
    | ExitMarked
    | ExploringSealed
    | Exited
    | TurnEnded
    | PhaseBegan
    | EffectsCancelled
    | EffectBegan
    | DieRolled
    | SpawnRatingReset
    | HorrorInvoked
    | ThreatRaised
    | TierRaised
    | MonsterMoved
    | MonsterAttacked
    | ExplorerHit
    | ExplorerOut
    | RatingsLowered
    | ClockAdvanced
    | RoundEnded
    | ScenarioEnded
)
