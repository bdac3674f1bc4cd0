"""Apply one event: plain replaces, no checks, no draws."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from domain.machina.board import Placed, Point, board_of
from domain.machina.content_load import content
from domain.machina.events import (
    Attacked,
    CardCharged,
    ChapterBegan,
    ChapterFlipped,
    ChapterTileToBoard,
    ClockAdvanced,
    DieRolled,
    EffectBegan,
    EffectsCancelled,
    EndgameBegan,
    Equipped,
    Exited,
    ExitMarked,
    Explored,
    ExplorerHit,
    ExplorerOut,
    ExplorerPlaced,
    ExploringSealed,
    Given,
    Healed,
    HorrorInvoked,
    Interacted,
    ItemBanished,
    ItemCharges,
    ItemDestroyed,
    ItemGained,
    ItemUsed,
    MachinaEvent,
    MapTilesReturned,
    MonsterAppeared,
    MonsterAttacked,
    MonsterBanished,
    MonsterKilled,
    MonsterMoved,
    MonsterWounded,
    Moved,
    PhaseBegan,
    PlacementOffered,
    RatingsLowered,
    RoundBegan,
    RoundEnded,
    ScenarioEnded,
    Shuffled,
    SpaceSearched,
    SpawnRatingReset,
    ThreatRaised,
    TierRaised,
    TilePlaced,
    TileScrolled,
    TurnEnded,
    Unequipped,
)
from domain.machina.state import (
    CardCharges,
    Effect,
    Item,
    MachinaState,
    Monster,
    explorer,
    with_explorer,
)


def _explorer(state: MachinaState, who: str, **changes: object) -> MachinaState:
    return with_explorer(state, replace(explorer(state, who), **changes))


def _spend(state: MachinaState, who: str, cost: int) -> MachinaState:
    found = explorer(state, who)
    return with_explorer(state, replace(found, stamina=found.stamina - cost))


def _item(state: MachinaState, card: str, **changes: object) -> MachinaState:
    items = tuple(replace(i, **changes) if i.card == card else i for i in state.items)
    return replace(state, items=items)


def _use_charge(state: MachinaState, card: str) -> MachinaState:
    if content().items[card].charges == 0:
        return state
    return replace(
        state,
        items=tuple(
            replace(i, charges=i.charges - 1) if i.card == card else i for i in state.items
        ),
    )


def _monster(state: MachinaState, uid: int, **changes: object) -> MachinaState:
    monsters = tuple(replace(m, **changes) if m.uid == uid else m for m in state.monsters)
    return replace(state, monsters=monsters)


def _without_monster(state: MachinaState, uid: int) -> MachinaState:
    gone = next(m for m in state.monsters if m.uid == uid)
    discard = state.monster_discard
    if content().monsters[gone.card].tier > 0:
        discard = (*discard, gone.card)
    kept = tuple(m for m in state.monsters if m.uid != uid)
    return replace(state, monsters=kept, monster_discard=discard)


def _without_tiles(state: MachinaState, orders: set[int]) -> MachinaState:
    """Tiles leave play, and with them what was marked on their spaces."""
    board = board_of(state.tiles)
    gone: set[Point] = set()
    for order in orders:
        gone.update(board.points(order))
    return replace(
        state,
        tiles=tuple(t for t in state.tiles if t.order not in orders),
        exits=tuple(p for p in state.exits if p not in gone),
        spent=tuple(p for p in state.spent if p not in gone),
    )


def _tile(state: MachinaState, order: int) -> Placed:
    return next(t for t in state.tiles if t.order == order)


def _chapter_began(
    state: MachinaState, chapter: str, charges: tuple[CardCharges, ...]
) -> MachinaState:
    card = content().chapter(chapter)
    deck = state.chapter_deck[1:] if state.chapter_deck[:1] == (chapter,) else state.chapter_deck
    return replace(
        state,
        chapter=chapter,
        chapter_deck=deck,
        card_charges=tuple(c for c in charges if c.charges > 0),
        progress=0,
        sealed=False,
        spawn_rating=card.spawn,
        horror_rating=card.horror,
    )


def evolve(state: MachinaState, event: MachinaEvent) -> MachinaState:
    match event:
        case Shuffled(deck=deck, order=order, draws=draws):
            rng = state.rng.advanced_to(draws)
            match deck:
                case "map":
                    return replace(state, rng=rng, map_deck=order)
                case "monster":
                    return replace(state, rng=rng, monster_deck=order, monster_discard=())
                case "horror":
                    return replace(state, rng=rng, horror_deck=order, horror_discard=())
                case _:
                    return replace(state, rng=rng, item_deck=order, item_discard=())
        case ItemGained(
            explorer=who, card=taken, charges=charges, equipped=equipped, source=source
        ):
            items = state.item_deck[1:] if source == "deck" else state.item_deck
            gained = Item(taken, who, equipped, charges)
            return replace(state, item_deck=items, items=(*state.items, gained))
        case TilePlaced(tile=tile, kind=kind, x=x, y=y, turns=turns, order=order, source=source):
            placed = Placed(tile, kind, x, y, turns, order)
            state = replace(state, tiles=(*state.tiles, placed), placed=order + 1)
            if source == "deck":
                state = replace(state, map_deck=state.map_deck[1:])
            if source == "chapter" and state.phase == "placing":
                state = replace(state, phase="explorers", pending="", options=())
            return state
        case TileScrolled(order=order):
            placed = _tile(state, order)
            state = _without_tiles(state, {order})
            if placed.kind == "map":
                return replace(state, map_deck=(*state.map_deck, placed.tile))
            return replace(state, board_top=(*state.board_top, placed.tile))
        case ChapterTileToBoard(order=order):
            placed = _tile(state, order)
            state = _without_tiles(state, {order})
            return replace(state, board_top=(*state.board_top, placed.tile))
        case MapTilesReturned(order=order, draws=draws):
            maps = {t.order for t in state.tiles if t.kind == "map"}
            state = _without_tiles(state, maps)
            return replace(state, map_deck=state.map_deck + order, rng=state.rng.advanced_to(draws))
        case ExplorerPlaced(explorer=who, x=x, y=y):
            return _explorer(state, who, x=x, y=y, status="map")
        case ChapterBegan(chapter=chapter, charges=charges):
            return _chapter_began(state, chapter, (CardCharges(chapter, charges),))
        case EndgameBegan(endgame=endgame, cards=cards):
            state = _chapter_began(state, endgame, cards)
            return replace(state, endgame=True, endgame_cards=tuple(c.card for c in cards))
        case ChapterFlipped(chapter=chapter, to=to):
            top = (*state.board_top, chapter) if to == "board" else state.board_top
            return replace(state, board_top=top, card_charges=(), sealed=False)
        case PlacementOffered(tile=tile, options=options):
            return replace(state, phase="placing", pending=tile, options=options)
        case RoundBegan(round=number):
            refreshed = tuple(
                replace(e, stamina=content().explorers[e.id].stamina, ended=False)
                if e.status == "map"
                else e
                for e in state.explorers
            )
            return replace(state, round=number, phase="explorers", explorers=refreshed)
        case Moved(explorer=who, x=x, y=y, cost=cost):
            return _explorer(_spend(state, who, cost), who, x=x, y=y)
        case Explored(explorer=who, cost=cost):
            return replace(_spend(state, who, cost), progress=state.progress + 1)
        case Attacked(explorer=who, item=card, monster=uid, hits=hits, cost=cost, draws=draws):
            state = _use_charge(_spend(state, who, cost), card)
            target = next(m for m in state.monsters if m.uid == uid)
            state = _monster(state, uid, health=target.health - hits)
            return replace(state, rng=state.rng.advanced_to(draws))
        case ItemUsed(explorer=who, item=card, cost=cost):
            return _use_charge(_spend(state, who, cost), card)
        case Healed(explorer=who, amount=amount):
            return _explorer(state, who, health=explorer(state, who).health + amount)
        case MonsterWounded(monster=uid, hits=hits):
            target = next(m for m in state.monsters if m.uid == uid)
            return _monster(state, uid, health=target.health - hits)
        case MonsterKilled(monster=uid) | MonsterBanished(monster=uid):
            return _without_monster(state, uid)
        case ItemCharges(item=card, charges=charges):
            return _item(state, card, charges=charges)
        case ItemDestroyed(item=card):
            kept = tuple(i for i in state.items if i.card != card)
            return replace(state, items=kept, item_discard=(*state.item_discard, card))
        case ItemBanished(item=card):
            return replace(state, items=tuple(i for i in state.items if i.card != card))
        case Equipped(explorer=who, item=card, cost=cost):
            return _item(_spend(state, who, cost), card, equipped=True)
        case Unequipped(item=card):
            return _item(state, card, equipped=False)
        case Given(explorer=who, item=card, to=to, cost=cost):
            return _item(_spend(state, who, cost), card, holder=to, equipped=False)
        case Interacted(explorer=who, cost=cost):
            return _spend(state, who, cost)
        case SpaceSearched(x=x, y=y):
            return replace(state, spent=(*state.spent, (x, y)))
        case CardCharged(card=holder, charges=charges):
            others = tuple(c for c in state.card_charges if c.card != holder)
            now = (CardCharges(holder, charges),) if charges > 0 else ()
            return replace(state, card_charges=others + now)
        case MonsterAppeared(monster=uid, card=kind, x=x, y=y, source=source):
            monsters = state.monster_deck[1:] if source == "deck" else state.monster_deck
            health = content().monsters[kind].health_for(len(state.seats))
            arrived = Monster(uid, kind, x, y, health)
            return replace(
                state, monsters=(*state.monsters, arrived), monster_deck=monsters, spawned=uid
            )
        case ExitMarked(x=x, y=y):
            return replace(state, exits=(*state.exits, (x, y)))
        case ExploringSealed():
            return replace(state, sealed=True)
        case Exited(explorer=who, cost=cost):
            return _explorer(_spend(state, who, cost), who, status="exited", ended=True)
        case TurnEnded(explorer=who):
            return _explorer(state, who, ended=True)
        case PhaseBegan(phase=phase):
            return replace(state, phase=phase)
        case EffectsCancelled(which=which):
            if which == "spawn":
                return replace(state, spawn_effects=())
            return replace(state, horror_effects=())
        case EffectBegan(which=which, kind=kind, amount=amount):
            if which == "spawn":
                return replace(state, spawn_effects=(*state.spawn_effects, Effect(kind, amount)))
            return replace(state, horror_effects=(*state.horror_effects, Effect(kind, amount)))
        case DieRolled(draws=draws):
            return replace(state, rng=state.rng.advanced_to(draws))
        case SpawnRatingReset(rating=rating):
            return replace(state, spawn_rating=rating)
        case HorrorInvoked(card=card):
            return replace(
                state,
                horror_deck=state.horror_deck[1:],
                horror_discard=(*state.horror_discard, card),
            )
        case ThreatRaised(threat=threat):
            return replace(state, threat=threat)
        case TierRaised(tier=tier):
            return replace(state, tier=tier, threat=0)
        case MonsterMoved(monster=uid, x=x, y=y):
            return _monster(state, uid, x=x, y=y)
        case MonsterAttacked(explorer=who, loss=loss, draws=draws):
            health = max(0, explorer(state, who).health - loss)
            return replace(_explorer(state, who, health=health), rng=state.rng.advanced_to(draws))
        case ExplorerHit(explorer=who, loss=loss):
            return _explorer(state, who, health=max(0, explorer(state, who).health - loss))
        case ExplorerOut(explorer=who):
            return _explorer(state, who, status="out", ended=True)
        case RatingsLowered(spawn=spawn, horror=horror):
            return replace(state, spawn_rating=spawn, horror_rating=horror)
        case ClockAdvanced(clock=clock):
            return replace(state, clock=clock)
        case RoundEnded():
            return state
        case ScenarioEnded(result=result, reason=reason):
            return replace(state, result=result, reason=reason, phase="over")
        case _:
            assert_never(event)
