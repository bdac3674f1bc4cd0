"""Build the exact expedition a test needs and play actions through the real decide/evolve."""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec
from msgspec.structs import replace

from domain.core.events import CampaignCreated
from domain.core.rng import Rng
from domain.machina import GAME
from domain.machina.actions import EndTurn
from domain.machina.board import Placed
from domain.machina.content_load import CONTENT
from domain.machina.events import MachinaEvent
from domain.machina.state import CardCharges, MachinaState, Monster, explorer, with_explorer

SOLO = ("ada",)
DUO = ("ada", "bram")
TRIO = ("ada", "bram", "cyra")
FOUR = ("ada", "bram", "cyra", "dov")
CHAPTERS = tuple(c.id for c in CONTENT.scenario.chapters)
E = TypeVar("E")


def created(seats: tuple[str, ...] = SOLO, seed: int = 11) -> CampaignCreated:
    return CampaignCreated("machina", GAME.info.ruleset, seed, "salt", seats, {})


def fresh(seats: tuple[str, ...] = SOLO, seed: int = 11) -> MachinaState:
    """The state right after set-up: the Gatehouse at 0,0 and round 1 of the first chapter."""
    state = GAME.initial(created(seats, seed))
    for event in GAME.setup(state):
        state = GAME.evolve(state, event)
    return state


def in_chapter(state: MachinaState, chapter: str, **fields: Any) -> MachinaState:
    """``state`` with ``chapter`` current (its ratings at their start, its charges on it), the
    chapters after it still in the deck, and ``fields`` replaced."""
    card = CONTENT.chapter(chapter)
    later = CHAPTERS[CHAPTERS.index(chapter) + 1 :] if chapter in CHAPTERS else ()
    explorers = len(state.seats)
    charges: tuple[CardCharges, ...] = (
        (CardCharges(chapter, card.charges_for(explorers)),) if card.charges else ()
    )
    if chapter == CONTENT.scenario.endgame.id:
        charges = tuple(
            CardCharges(c.id, c.charges_for(explorers)) for c in card.cards if c.charges
        )
    state = replace(
        state,
        chapter=chapter,
        chapter_deck=later,
        endgame=chapter == CONTENT.scenario.endgame.id,
        endgame_cards=tuple(c.id for c in card.cards),
        card_charges=charges,
        spawn_rating=card.spawn,
        horror_rating=card.horror,
        sealed=False,
        progress=0,
    )
    return replace(state, **fields)


def tile(tile_id: str, x: int = 0, y: int = 0, turns: int = 0, order: int = 0) -> Placed:
    kind = "map" if tile_id in CONTENT.map_tiles else "chapter"
    return Placed(tile_id, kind, x, y, turns, order)


def with_tiles(state: MachinaState, *tiles: Placed) -> MachinaState:
    return replace(state, tiles=tiles, placed=max(t.order for t in tiles) + 1, exits=(), spent=())


def at(state: MachinaState, who: str, x: int, y: int, **fields: Any) -> MachinaState:
    """Explorer ``who`` standing at ``x``, ``y`` (on the map unless ``status`` says otherwise)."""
    moved = replace(explorer(state, who), x=x, y=y, **({"status": "map"} | fields))
    return with_explorer(state, moved)


def with_monster(state: MachinaState, card: str, x: int, y: int, **fields: Any) -> MachinaState:
    uid = state.spawned + 1
    health = CONTENT.monsters[card].health
    arrived = replace(Monster(uid, card, x, y, health), **fields)
    return replace(state, monsters=(*state.monsters, arrived), spawned=uid)


def seeded(state: MachinaState, seed: int) -> MachinaState:
    return replace(state, rng=Rng(seed))


def play(state: MachinaState, seat: str, action: Any) -> tuple[MachinaState, list[MachinaEvent]]:
    events = GAME.decide(state, seat, action)
    for event in events:
        state = GAME.evolve(state, event)
    return state, events


def end_round(state: MachinaState) -> tuple[MachinaState, list[MachinaEvent]]:
    """Every explorer still acting ends their turn: the automatic phases run."""
    events: list[MachinaEvent] = []
    for seat in GAME.to_act(state):
        state, more = play(state, seat, EndTurn())
        events.extend(more)
    return state, events


def actions(state: MachinaState, seat: str = "ada") -> list[Any]:
    return [legal.action for legal in GAME.legal_actions(state, seat)]


def of_type(events: list[Any], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


def tags(events: list[Any]) -> list[str]:
    return [str(e.__struct_config__.tag).removeprefix("machina/") for e in events]


def tag_of(struct: msgspec.Struct) -> str:
    """The tag of a tagged Struct (an effect's ``kind``, an ability's ``ability``)."""
    return str(struct.__struct_config__.tag)
