"""Spawn effects, horror effects and horror events.

A persistent effect (haste, a hit cost, a seal) influences the game until it is cancelled: spawn
effects at the start of the next spawn phase, horror effects at the start of the next horror
phase. Invoking a horror event raises the monster threat by 1; a threat past its track starts
again at 0 and shuffles the next tier of monsters into the monster deck.
"""

from __future__ import annotations

from domain.machina.board import Point
from domain.machina.content import (
    ClockTick,
    Haste,
    HitCost,
    HorrorEffect,
    Invoke,
    Rust,
    ScopeHit,
    Seal,
    SpawnEach,
    SpawnEffect,
    SpawnWeakest,
)
from domain.machina.content_load import content
from domain.machina.events import (
    ClockAdvanced,
    EffectBegan,
    ExplorerHit,
    HorrorInvoked,
    ItemCharges,
    ItemDestroyed,
    Shuffled,
    ThreatRaised,
    TierRaised,
)
from domain.machina.rules.emitter import Emitter
from domain.machina.rules.harm import check_outs
from domain.machina.rules.units import spawn_for, weakest
from domain.machina.state import MachinaState, board, hit_cost, on_map


def each_explorer_spawns(out: Emitter) -> None:
    for explorer in on_map(out.state):
        spawn_for(out, explorer.id)


def resolve_spawn(out: Emitter, effect: SpawnEffect) -> None:
    match effect:
        case SpawnEach():
            each_explorer_spawns(out)
        case SpawnWeakest():
            who = weakest(out.state)
            if who is not None:
                spawn_for(out, who)
        case Haste(amount=amount):
            out.emit(EffectBegan("spawn", "haste", amount))


def monsters_in_scope(state: MachinaState, point: Point) -> list[int]:
    """The monsters on the same map tile as ``point``, chapter tiles connected to it included."""
    found = board(state)
    here = found.spaces.get(point)
    if here is None:
        return []
    scope = found.scope(here.tile)
    return [
        m.uid
        for m in state.monsters
        if m.point in found.spaces and found.spaces[m.point].tile in scope
    ]


def resolve_horror(out: Emitter, effect: HorrorEffect) -> None:
    match effect:
        case HitCost(amount=amount):
            out.emit(EffectBegan("horror", "hit_cost", amount))
        case Seal():
            out.emit(EffectBegan("horror", "seal", 0))
        case Invoke():
            invoke(out)
        case ScopeHit():
            struck = [e.id for e in on_map(out.state) if monsters_in_scope(out.state, e.point)]
            for who in struck:
                out.emit(ExplorerHit(who, hit_cost(out.state)))
            if struck:
                check_outs(out)
        case Rust():
            for rusting in out.state.items:
                if rusting.charges > 0:
                    out.emit(ItemCharges(rusting.card, rusting.charges - 1))
                    if rusting.charges == 1:
                        out.emit(ItemDestroyed(rusting.card))
        case SpawnWeakest():
            chosen = weakest(out.state)
            if chosen is not None:
                spawn_for(out, chosen)
        case ClockTick(amount=amount):
            advance_clock(out, amount)


def advance_clock(out: Emitter, amount: int) -> None:
    """Move the clock on by ``amount`` rounds; it stops at its end and never passes it."""
    clock = min(out.state.clock + amount, content().scenario.clock)
    if clock != out.state.clock:
        out.emit(ClockAdvanced(clock))


def invoke(out: Emitter) -> None:
    """Draw, resolve and discard the top horror card; the monster threat rises by 1."""
    state = out.state
    if not state.horror_deck:
        if not state.horror_discard:
            return
        chance = out.chance()
        order = chance.shuffled(state.horror_discard)
        out.emit(Shuffled("horror", order, len(order), chance.rng.draws))
    card = out.state.horror_deck[0]
    out.emit(HorrorInvoked(card))
    resolve_horror(out, content().horrors[card].effect)
    if not out.over:
        raise_threat(out)


def raise_threat(out: Emitter) -> None:
    state = out.state
    threat = state.threat + 1
    if threat <= content().ruleset.threat_track:
        out.emit(ThreatRaised(threat))
        return
    stronger = [m for m in content().monsters.values() if m.tier == state.tier + 1]
    if not stronger:
        return  # the strongest monsters are in already; the threat stays at the track's end
    out.emit(TierRaised(state.tier + 1))
    joining = [m.id for m in stronger for _ in range(m.copies)]
    chance = out.chance()
    order = chance.shuffled([*out.state.monster_deck, *out.state.monster_discard, *joining])
    out.emit(Shuffled("monster", order, len(order), chance.rng.draws))
