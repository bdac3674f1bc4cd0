"""The explorer phase: what each explorer may do with their stamina, and what it does.

Every explorer on the map acts, in any order, until they end their turn. Each action but ending
the turn costs stamina, so a round always ends.
"""

from __future__ import annotations

from typing import assert_never

import msgspec

from domain.machina.actions import (
    Attack,
    EndTurn,
    Equip,
    Exit,
    Explore,
    Give,
    Interact,
    MachinaAction,
    Move,
    PlaceTile,
    UseItem,
)
from domain.machina.board import SIDES, STEP, Placed, attach_origin, distance, neighbours
from domain.machina.content import ActionSpace
from domain.machina.content_load import content
from domain.machina.events import (
    Attacked,
    Equipped,
    Exited,
    Explored,
    Given,
    Healed,
    Interacted,
    ItemDestroyed,
    ItemGained,
    ItemUsed,
    MonsterKilled,
    MonsterWounded,
    Moved,
    SpaceSearched,
    TilePlaced,
    TurnEnded,
    Unequipped,
)
from domain.machina.rules.chapters import (
    kept_tiles,
    last_explorer_exited,
    mechanism_worked,
    monster_slain,
    next_chapter,
    place_option,
    progress_made,
    scroll_away,
)
from domain.machina.rules.effects import monsters_in_scope
from domain.machina.rules.emitter import Emitter
from domain.machina.state import (
    Explorer,
    MachinaState,
    board,
    charges_on,
    current_chapter,
    explorer,
    exploring_prevented,
    held,
    item,
    monster,
    occupied,
    on_map,
)

DIRECTIONS = {"n": "north", "e": "east", "s": "south", "w": "west"}


class Candidate(msgspec.Struct, frozen=True, gc=False):
    action: MachinaAction
    label: str


def _explore_plan(state: MachinaState, who: Explorer, side: str) -> tuple[int, ...] | None:
    """The tiles to scroll away if ``who`` explores through ``side``; None if they cannot."""
    found = board(state)
    here = found.tile_at(who.point)
    if here is None or side not in found.unexplored(here.order):
        return None
    if who.point not in found.edge(here.order, side):
        return None
    size = content().ruleset.map_tile_size
    top = state.map_deck[0]
    x, y = attach_origin(here, side, top, 0)
    if not found.fits((x + dx, y + dy) for dy in range(size) for dx in range(size)):
        return None
    joining = Placed(top, "map", x, y, 0, state.placed)
    return found.scroll(here.order, joining, kept_tiles(state), content().ruleset.area_halves)


def _exit_here(state: MachinaState, who: Explorer) -> bool:
    if current_chapter(state).objective.kind != "escape":
        return False
    space = board(state).spaces.get(who.point)
    return space is not None and (space.symbol == "X" or who.point in state.exits)


def _interactions(state: MachinaState, who: Explorer) -> list[Candidate]:
    found = board(state)
    objective = current_chapter(state).objective
    out: list[Candidate] = []
    for point in neighbours(who.point):
        space = found.spaces.get(point)
        if space is None or space.action is None or point in state.exits:
            continue
        if who.stamina < interact_cost(space.action):
            continue
        action = Interact(point[0], point[1])
        room = len(held(state, who.id)) < content().ruleset.carry_limit
        if space.action.kind == "search" and point not in state.spent and state.item_deck and room:
            out.append(Candidate(action, f"Search {space.action.name}"))
        elif (
            space.action.kind == "mechanism"
            and objective.kind == "activate"
            and objective.label == space.action.label
            and charges_on(state, objective.card) > 0
        ):
            out.append(Candidate(action, f"Work {space.action.name}"))
    return out


def _item_candidates(state: MachinaState, who: Explorer) -> list[Candidate]:
    out: list[Candidate] = []
    mine = held(state, who.id)
    for own in (i for i in mine if i.equipped):
        card = content().items[own.card]
        if who.stamina < card.cost:
            continue
        if card.kind == "weapon":
            for unit in state.monsters:
                if distance(who.point, unit.point) <= card.range:
                    name = content().monsters[unit.card].name
                    dice = "1 die" if card.dice == 1 else f"{card.dice} dice"
                    label = f"Attack {name} #{unit.uid} with {card.name} ({dice})"
                    out.append(Candidate(Attack(own.card, unit.uid), label))
        elif card.effect == "heal":
            for other in on_map(state):
                near = other.id == who.id or (
                    card.range >= 1 and distance(who.point, other.point) == 1
                )
                if near and other.health < content().explorers[other.id].health:
                    label = f"Use {card.name} on {content().explorers[other.id].name}"
                    out.append(Candidate(UseItem(own.card, other.id), label))
        elif card.effect == "shock" and monsters_in_scope(state, who.point):
            out.append(Candidate(UseItem(own.card, ""), f"Discharge {card.name}"))
    rules = content().ruleset
    worn = [i for i in mine if i.equipped]
    if who.stamina >= rules.equip_cost:
        for own in mine:
            if own.equipped:
                continue
            name = content().items[own.card].name
            if len(worn) < rules.equip_slots:
                out.append(Candidate(Equip(own.card), f"Equip {name}"))
                continue
            for hand in worn:
                label = f"Equip {name} in place of {content().items[hand.card].name}"
                out.append(Candidate(Equip(own.card, hand.card), label))
    if who.stamina >= rules.give_cost:
        for other in on_map(state):
            if other.id == who.id or len(held(state, other.id)) >= rules.carry_limit:
                continue
            if distance(who.point, other.point) == 1:
                for own in (i for i in mine if not i.equipped):
                    given, to = content().items[own.card], content().explorers[other.id]
                    label = f"Give {given.name} to {to.name}"
                    out.append(Candidate(Give(own.card, other.id), label))
    return out


def explorer_candidates(state: MachinaState, who: Explorer) -> list[Candidate]:
    rules = content().ruleset
    found = board(state)
    taken = occupied(state)
    out: list[Candidate] = []
    if who.stamina >= rules.move_cost:
        for side in SIDES:
            dx, dy = STEP[side]
            to = (who.x + dx, who.y + dy)
            if found.passable(to, state.exits) and to not in taken:
                out.append(Candidate(Move(side), f"Move {DIRECTIONS[side]} to {to[0]},{to[1]}"))
    out.extend(_item_candidates(state, who))
    out.extend(_interactions(state, who))
    if who.stamina >= rules.explore_cost and state.map_deck and not exploring_prevented(state):
        for side in SIDES:
            if _explore_plan(state, who, side) is not None:
                out.append(
                    Candidate(Explore(side), f"Explore a new map tile to the {DIRECTIONS[side]}")
                )
    if who.stamina >= rules.exit_cost and _exit_here(state, who):
        out.append(Candidate(Exit(), "Exit the map"))
    out.append(Candidate(EndTurn(), "End your turn"))
    return out


def placing_candidates(state: MachinaState) -> list[Candidate]:
    found = board(state)
    name = content().chapter_tiles[state.pending].name
    out = []
    for option in state.options:
        # Between a chosen placement's scroll and the tile's arrival (one batch of events), the
        # other options may name tiles that have just left; nobody decides in such a state.
        anchor = found.by_order.get(option.anchor)
        if anchor is None:
            continue
        where = f"{DIRECTIONS[option.side]} side of {content().tile_name(anchor.tile)}"
        out.append(
            Candidate(PlaceTile(option.anchor, option.side), f"Connect {name} to the {where}")
        )
    return out


# -- doing it ---------------------------------------------------------------------------------


def _attack(out: Emitter, who: str, card_id: str, uid: int) -> None:
    card = content().items[card_id]
    target = monster(out.state, uid)
    chance = out.chance()
    dice = chance.dice(card.dice, content().ruleset.game_die)
    defense = content().monsters[target.card].defense
    hits = sum(1 for face in dice if face >= defense)
    out.emit(Attacked(who, card_id, uid, dice, hits, card.cost, chance.rng.draws))
    if card.charges and item(out.state, card_id).charges == 0:
        out.emit(ItemDestroyed(card_id))
    if monster(out.state, uid).health <= 0:
        out.emit(MonsterKilled(uid, target.card))
        monster_slain(out, target.card)


def _use(out: Emitter, who: str, card_id: str, target: str) -> None:
    card = content().items[card_id]
    out.emit(ItemUsed(who, card_id, card.cost))
    killed: list[str] = []
    if card.effect == "heal":
        patient = explorer(out.state, target)
        room = content().explorers[target].health - patient.health
        out.emit(Healed(target, min(card.amount, room)))
    else:
        for uid in monsters_in_scope(out.state, explorer(out.state, who).point):
            out.emit(MonsterWounded(uid, card.amount))
            struck = monster(out.state, uid)
            if struck.health <= 0:
                out.emit(MonsterKilled(uid, struck.card))
                killed.append(struck.card)
    if card.charges and item(out.state, card_id).charges == 0:
        out.emit(ItemDestroyed(card_id))
    for slain in killed:
        if not out.over and out.state.phase == "explorers":
            monster_slain(out, slain)


def interact_cost(space: ActionSpace) -> int:
    """The stamina an interaction with ``space`` costs: its own, else the ruleset's."""
    return content().ruleset.interact_cost if space.cost is None else space.cost


def _interact(out: Emitter, who: str, x: int, y: int) -> None:
    space = board(out.state).spaces[(x, y)]
    assert space.action is not None
    out.emit(Interacted(who, x, y, interact_cost(space.action)))
    if space.action.kind == "search":
        out.emit(SpaceSearched(x, y))
        top = out.state.item_deck[0]
        out.emit(ItemGained(who, top, content().items[top].charges, False, "deck"))
    else:
        mechanism_worked(out)


def _explore(out: Emitter, who: str, side: str) -> None:
    here = explorer(out.state, who)
    scroll = _explore_plan(out.state, here, side)
    assert scroll is not None
    anchor = board(out.state).tile_at(here.point)
    assert anchor is not None
    tile = out.state.map_deck[0]
    x, y = attach_origin(anchor, side, tile, 0)
    out.emit(Explored(who, side, content().ruleset.explore_cost))
    scroll_away(out, scroll)
    out.emit(TilePlaced(tile, "map", x, y, 0, out.state.placed, "deck"))
    progress_made(out)


def act(out: Emitter, who: str, action: MachinaAction) -> None:
    """Apply a legal explorer action (no second check)."""
    rules = content().ruleset
    match action:
        case Move(to=side):
            here = explorer(out.state, who)
            dx, dy = STEP[side]
            out.emit(Moved(who, here.x + dx, here.y + dy, rules.move_cost))
        case Attack(item=card, monster=uid):
            _attack(out, who, card, uid)
        case UseItem(item=card, target=target):
            _use(out, who, card, target)
        case Interact(x=x, y=y):
            _interact(out, who, x, y)
        case Equip(item=card, replacing=replacing):
            if replacing is not None:
                out.emit(Unequipped(who, replacing))
            out.emit(Equipped(who, card, rules.equip_cost))
        case Give(item=card, to=to):
            out.emit(Given(who, card, to, rules.give_cost))
        case Explore(side=side):
            _explore(out, who, side)
        case Exit():
            out.emit(Exited(who, rules.exit_cost))
            if not on_map(out.state):
                last_explorer_exited(out)
        case EndTurn():
            out.emit(TurnEnded(who))
        case PlaceTile(anchor=anchor, side=side):
            option = next(o for o in out.state.options if (o.anchor, o.side) == (anchor, side))
            place_option(out, out.state.pending, option)
            next_chapter(out)
        case _:
            assert_never(action)
