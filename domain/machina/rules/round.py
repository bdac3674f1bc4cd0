"""The automatic part of a round, once every explorer on the map has ended their turn: the spawn
phase, the horror phase, the monster phase and the end of the round.

Regular chapters roll the game die against their spawn and horror ratings. Eternity chapters use
rating sliders instead: at the start of each phase the effects of that kind in force are
cancelled and those equal to the current rating resolve; at the end of the round each rating
that is not 1 is lowered by 1.
"""

from __future__ import annotations

from domain.machina.board import distance, neighbours
from domain.machina.content_load import content
from domain.machina.events import (
    DieRolled,
    EffectBegan,
    EffectsCancelled,
    MonsterAttacked,
    MonsterMoved,
    PhaseBegan,
    RatingsLowered,
    RoundBegan,
    RoundEnded,
    ScenarioEnded,
    SpawnRatingReset,
)
from domain.machina.rules.effects import (
    advance_clock,
    each_explorer_spawns,
    invoke,
    resolve_horror,
    resolve_spawn,
)
from domain.machina.rules.emitter import Emitter
from domain.machina.rules.harm import check_outs
from domain.machina.rules.units import spawn_for, strongest
from domain.machina.state import (
    MachinaState,
    board,
    current_chapter,
    haste,
    hit_cost,
    occupied,
    on_map,
)

SLIDER_HIT_COSTS = {2: 2, 1: 3}
"""Eternity horror ratings: at 2 each hit costs 2 health, at 1 each hit costs 3."""


def round_over_if_done(out: Emitter) -> None:
    """After an explorer's action: when every explorer on the map has ended, the round goes on."""
    state = out.state
    if state.result != "running" or state.phase != "explorers":
        return
    if all(e.ended for e in on_map(state)):
        _spawn_phase(out)
        for phase in (_horror_phase, _monster_phase, _end_of_round):
            if out.over:
                return
            phase(out)


def _roll(out: Emitter, purpose: str) -> int:
    chance = out.chance()
    face = chance.die(content().ruleset.game_die)
    out.emit(DieRolled(purpose, face, chance.rng.draws))
    return face


def _spawn_phase(out: Emitter) -> None:
    out.emit(PhaseBegan("spawn"))
    if out.state.spawn_effects:
        out.emit(EffectsCancelled("spawn"))
    chapter = current_chapter(out.state)
    if chapter.kind == "regular":
        if _roll(out, "spawn") >= chapter.spawn:
            who = strongest(out.state)
            if who is not None:
                spawn_for(out, who)
        return
    rating = out.state.spawn_rating
    if rating == 1:
        each_explorer_spawns(out)
        out.emit(SpawnRatingReset(chapter.spawn))
    for rated in chapter.spawn_effects:
        if rated.at == rating:
            resolve_spawn(out, rated.effect)


def _horror_phase(out: Emitter) -> None:
    out.emit(PhaseBegan("horror"))
    if out.state.horror_effects:
        out.emit(EffectsCancelled("horror"))
    chapter = current_chapter(out.state)
    if chapter.kind == "regular":
        if _roll(out, "horror") >= chapter.horror:
            invoke(out)
        return
    rating = out.state.horror_rating
    if rating in SLIDER_HIT_COSTS:
        out.emit(EffectBegan("horror", "hit_cost", SLIDER_HIT_COSTS[rating]))
    for rated in chapter.horror_effects:
        if rated.at == rating and not out.over:
            resolve_horror(out, rated.effect)


def _monster_phase(out: Emitter) -> None:
    out.emit(PhaseBegan("monsters"))
    for uid in [m.uid for m in out.state.monsters]:
        if out.over:
            return
        if any(m.uid == uid for m in out.state.monsters):
            _monster_acts(out, uid)


def _path_to_nearest(state: MachinaState, uid: int) -> tuple[str, list[tuple[int, int]]] | None:
    """The explorer the monster goes for and the spaces it would walk to reach them: the
    explorer it can reach a neighbouring space of in fewest steps (the first seat among equals),
    ending on the first such space in reading order."""
    unit = next(m for m in state.monsters if m.uid == uid)
    found = board(state)
    taken = occupied(state) - {unit.point}
    parents = found.walk(unit.point, lambda p: found.passable(p, state.exits) and p not in taken)
    steps: dict[tuple[int, int], int] = {}
    for point in parents:
        count, at = 0, point
        while parents[at] is not None:
            at = parents[at]  # type: ignore[assignment]
            count += 1
        steps[point] = count
    best: tuple[int, int, int, int] | None = None
    chosen: tuple[str, tuple[int, int]] | None = None
    for index, target in enumerate(on_map(state)):
        if distance(unit.point, target.point) == 1:
            goals = [unit.point]
        else:
            goals = [p for p in neighbours(target.point) if p in parents]
        for goal in goals:
            key = (steps[goal], index, goal[1], goal[0])
            if best is None or key < best:
                best, chosen = key, (target.id, goal)
    if chosen is None:
        return None
    who, goal = chosen
    path = [goal]
    while parents[path[-1]] is not None:
        path.append(parents[path[-1]])  # type: ignore[arg-type]
    path.reverse()
    return who, path[1:]


def _monster_acts(out: Emitter, uid: int) -> None:
    """The monster moves toward the nearest explorer and attacks them if it ends next to them."""
    state = out.state
    found = _path_to_nearest(state, uid)
    if found is None:
        return
    who, path = found
    unit = next(m for m in state.monsters if m.uid == uid)
    card = content().monsters[unit.card]
    reach = card.move + haste(state)
    if path and reach > 0:
        to = path[min(reach, len(path)) - 1]
        out.emit(MonsterMoved(uid, to[0], to[1]))
    state = out.state
    unit = next(m for m in state.monsters if m.uid == uid)
    target = next(e for e in state.explorers if e.id == who)
    if distance(unit.point, target.point) != 1:
        return
    chance = out.chance()
    dice = chance.dice(card.attack_for(len(state.seats)), content().ruleset.game_die)
    hits = sum(1 for face in dice if face >= content().explorers[who].defense)
    loss = hits * hit_cost(state)
    out.emit(MonsterAttacked(uid, who, dice, hits, loss, chance.rng.draws))
    if hits:
        check_outs(out)


def _lowered(rating: int) -> int:
    return rating if rating == 1 else rating - 1


def _end_of_round(out: Emitter) -> None:
    out.emit(PhaseBegan("end"))
    state = out.state
    if current_chapter(state).kind == "eternity":
        spawn, horror = _lowered(state.spawn_rating), _lowered(state.horror_rating)
        if (spawn, horror) != (state.spawn_rating, state.horror_rating):
            out.emit(RatingsLowered(spawn, horror))
    advance_clock(out, 1)
    out.emit(RoundEnded(state.round))
    if out.state.clock >= content().scenario.clock:
        out.emit(ScenarioEnded("lost", "clock"))
    else:
        out.emit(RoundBegan(state.round + 1))
