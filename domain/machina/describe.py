"""Timeline lines: one readable sentence per event, prefixed with the round.

Lines name what the table shows and never a deck's order: a shuffle gives its count only.
"""

from __future__ import annotations

from typing import assert_never

from domain.machina.board import board_of
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
from domain.machina.rules.explorers import DIRECTIONS
from domain.machina.state import MachinaState

DECKS = {"map": "map tile", "monster": "monster", "horror": "horror", "item": "item"}
EFFECTS = {
    "haste": "monsters move {amount} more",
    "hit_cost": "each hit costs {amount} health",
    "seal": "nobody can explore",
}


def _many(count: int, one: str, many: str) -> str:
    """``1 hit``, ``2 hits``."""
    return f"{count} {one if count == 1 else many}"


def _who(explorer: str) -> str:
    return content().explorers[explorer].name


def _item(card: str) -> str:
    return content().items[card].name


def _monster(state: MachinaState, uid: int) -> str:
    found = next((m for m in state.monsters if m.uid == uid), None)
    return f"{content().monsters[found.card].name} #{uid}" if found else f"monster #{uid}"


def _line(event: MachinaEvent, state: MachinaState) -> str | None:
    match event:
        case Shuffled(deck=deck, count=count):
            return f"The {DECKS[deck]} deck was shuffled ({count} cards)"
        case ItemGained(explorer=who, card=card, charges=charges, source=source):
            tokens = f" with {_many(charges, 'charge', 'charges')}" if charges else ""
            verb = "set out with" if source == "start" else "took"
            return f"{_who(who)} {verb} {_item(card)}{tokens}"
        case TilePlaced(tile=tile, x=x, y=y, source=source):
            how = {"start": "The expedition begins in", "deck": "A new map tile:"}.get(
                source, "The chapter tile is placed:"
            )
            return f"{how} {content().tile_name(tile)} at {x},{y}"
        case TileScrolled(tile=tile):
            return f"The playing area scrolls: {content().tile_name(tile)} leaves play"
        case ChapterTileToBoard(tile=tile):
            return f"{content().tile_name(tile)} goes to the chapter board"
        case MapTilesReturned(tiles=tiles):
            return f"{len(tiles)} map tiles are shuffled under the map tile deck"
        case ExplorerPlaced(explorer=who, x=x, y=y):
            return f"{_who(who)} stands at {x},{y}"
        case ChapterBegan(chapter=chapter):
            entered = content().chapter(chapter)
            return f"Chapter: {entered.title} ({entered.kind}). {entered.objective.text}"
        case EndgameBegan():
            endgame = content().scenario.endgame
            return f"The endgame: {endgame.title}. {endgame.objective.text}"
        case ChapterFlipped(chapter=chapter, to=to):
            flipped = content().chapter(chapter)
            if to == "play":
                back = content().chapter_tiles[flipped.back_tile].name
                return f"The chapter {flipped.title} is flipped: its back, {back}, goes into play"
            return f"The chapter {flipped.title} is flipped to the chapter board"
        case PlacementOffered(tile=tile, options=options):
            name = content().chapter_tiles[tile].name
            return f"{name} can connect in {len(options)} places: the explorers choose"
        case RoundBegan():
            return "A new round: every explorer's stamina is refilled"
        case Moved(explorer=who, x=x, y=y):
            return f"{_who(who)} moves to {x},{y}"
        case Explored(explorer=who, side=side):
            return f"{_who(who)} explores a new map tile to the {DIRECTIONS[side]}"
        case Attacked(explorer=who, item=card, monster=uid, dice=dice, hits=hits):
            faces = ", ".join(str(d) for d in dice)
            target = _monster(state, uid)
            hit = _many(hits, "hit", "hits")
            return f"{_who(who)} attacks {target} with {_item(card)}: {faces}, {hit}"
        case ItemUsed(explorer=who, item=card):
            return f"{_who(who)} uses {_item(card)}"
        case Healed(explorer=who, amount=amount):
            return f"{_who(who)} recovers {amount} health"
        case MonsterWounded(monster=uid, hits=hits):
            return f"{_monster(state, uid)} takes {_many(hits, 'hit', 'hits')}"
        case MonsterKilled(monster=uid, card=card):
            return f"{content().monsters[card].name} #{uid} is destroyed"
        case ItemCharges(item=card, charges=charges):
            return f"{_item(card)} has {_many(charges, 'charge', 'charges')} left"
        case ItemDestroyed(item=card):
            return f"{_item(card)} is destroyed"
        case ItemBanished(item=card):
            return f"{_item(card)} is banished"
        case Equipped(explorer=who, item=card):
            return f"{_who(who)} equips {_item(card)}"
        case Unequipped(explorer=who, item=card):
            return f"{_who(who)} unequips {_item(card)}"
        case Given(explorer=who, item=card, to=to):
            return f"{_who(who)} gives {_item(card)} to {_who(to)}"
        case Interacted(explorer=who, x=x, y=y):
            space = board_of(state.tiles).spaces.get((x, y))
            name = space.action.name if space is not None and space.action else "a space"
            return f"{_who(who)} works {name}"
        case SpaceSearched():
            return None
        case CardCharged(card=card, charges=charges):
            return f"{content().card_name(card)} has {_many(charges, 'charge', 'charges')} left"
        case MonsterAppeared(card=card, x=x, y=y, source=source, by=by):
            name = content().monsters[card].name
            if source == "deck":
                return f"{_who(by)} spawns a {name} at {x},{y}"
            return f"{name} appears at {x},{y}"
        case MonsterBanished(monster=uid, card=card):
            return f"{content().monsters[card].name} #{uid} is banished"
        case ExitMarked(x=x, y=y):
            return f"The space {x},{y} is treated as an exit token"
        case ExploringSealed():
            return "While this chapter lasts, nobody can explore"
        case Exited(explorer=who):
            return f"{_who(who)} exits the map"
        case TurnEnded(explorer=who):
            return f"{_who(who)} ends their turn"
        case PhaseBegan(phase=phase):
            names = {"spawn": "Spawn phase", "horror": "Horror phase", "monsters": "Monster phase"}
            return names.get(phase)
        case EffectsCancelled(which=which):
            return f"The {which} effects in force are cancelled"
        case EffectBegan(kind=kind, amount=amount):
            return "Until cancelled, " + EFFECTS.get(kind, kind).format(amount=amount)
        case DieRolled(purpose=purpose, face=face):
            return f"The game die rolls {face} against the {purpose} rating"
        case SpawnRatingReset(rating=rating):
            return f"The spawn rating resets to {rating}"
        case HorrorInvoked(card=card):
            horror = content().horrors[card]
            return f"Horror: {horror.name}. {horror.text}"
        case ThreatRaised(threat=threat):
            return f"The monster threat rises to {threat}"
        case TierRaised(tier=tier):
            return f"The threat passes its track: tier {tier} monsters join the monster deck"
        case MonsterMoved(monster=uid, x=x, y=y):
            return f"{_monster(state, uid)} moves to {x},{y}"
        case MonsterAttacked(monster=uid, explorer=who, hits=hits, loss=loss):
            hit = _many(hits, "hit", "hits")
            return f"{_monster(state, uid)} attacks {_who(who)}: {hit}, {loss} health lost"
        case ExplorerHit(explorer=who, loss=loss):
            return f"{_who(who)} is hit and loses {loss} health"
        case ExplorerOut(explorer=who):
            return f"{_who(who)} falls and is out"
        case RatingsLowered(spawn=spawn, horror=horror):
            return f"The ratings fall: spawn {spawn}, horror {horror}"
        case ClockAdvanced(clock=clock):
            return f"The clock reads {clock} of its {content().scenario.clock} rounds"
        case RoundEnded():
            return None
        case ScenarioEnded(result=result):
            return content().scenario.won if result == "won" else content().scenario.lost
        case _:
            assert_never(event)


def describe(event: MachinaEvent, state: MachinaState) -> str | None:
    """``state`` is the state the event applies to."""
    line = _line(event, state)
    if line is None:
        return None
    return f"Round {state.round}: {line}" if state.round else line
