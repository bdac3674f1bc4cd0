"""A heuristic Machina player: it goes for the chapter's objective and fights what is in reach.

Every legal action of every seat that may act gets a score, and the best is taken (the first seat
and action among equals). Walking is scored by how much closer a step brings the explorer to the
objective's spaces; pure, no chance.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any

from domain.core.game import Game, LegalAction
from domain.machina.actions import (
    Attack,
    EndTurn,
    Equip,
    Exit,
    Explore,
    Interact,
    Move,
    PlaceTile,
    UseItem,
)
from domain.machina.board import STEP, Point, neighbours
from domain.machina.content_load import CONTENT
from domain.machina.rules.effects import monsters_in_scope
from domain.machina.state import (
    Explorer,
    MachinaState,
    board,
    current_chapter,
    explorer,
    held,
    hit_cost,
)

_FAR = 1_000


def _goals(state: MachinaState, who: Explorer) -> set[Point]:
    """The spaces the explorer wants to stand on for the current objective."""
    found = board(state)
    objective = current_chapter(state).objective
    goals: set[Point] = set()
    match objective.kind:
        case "escape":
            goals = {p for p, s in found.spaces.items() if s.symbol == "X"} | set(state.exits)
        case "explore":
            for placed in found.tiles:
                for side in found.unexplored(placed.order):
                    goals |= {p for p in found.edge(placed.order, side) if found.passable(p)}
        case "activate":
            space = found.labelled(objective.label)
            if space is not None:
                goals = set(neighbours(space.point))
        case _:
            goals = {
                p
                for m in state.monsters
                if m.card == objective.monster
                for p in neighbours(m.point)
            }
    if not goals:  # nothing to go for: close in on the nearest monster
        goals = {p for m in state.monsters for p in neighbours(m.point)}
    return {p for p in goals if found.passable(p, state.exits)}


def _distances(state: MachinaState, goals: set[Point]) -> dict[Point, int]:
    """Steps from every space to the nearest goal (passable spaces, as :func:`_goals` gives),
    walking around obstacles and monsters."""
    paths = board(state).paths(state.exits)
    blocked = {m.point for m in state.monsters}
    steps = {g: 0 for g in goals if g not in blocked}
    queue = deque(steps)
    while queue:
        point = queue.popleft()
        further = steps[point] + 1
        for other in paths[point]:
            if other not in steps and other not in blocked:
                steps[other] = further
                queue.append(other)
    return steps


def _best_weapon_dice(state: MachinaState, who: str) -> int:
    return max(
        (CONTENT.items[i.card].dice for i in held(state, who) if i.equipped),
        default=0,
    )


def _score(state: MachinaState, who: Explorer, action: object, steps: dict[Point, int]) -> float:
    objective = current_chapter(state).objective
    card = CONTENT.explorers[who.id]
    match action:
        case PlaceTile():
            return 100.0
        case Exit():
            return 90.0
        case Interact(x=x, y=y):
            space = board(state).spaces[(x, y)]
            mechanism = space.action is not None and space.action.kind == "mechanism"
            return 80.0 if mechanism else 25.0
        case Explore():
            return 85.0 if objective.kind == "explore" else 5.0
        case Attack(monster=uid):
            target = next(m for m in state.monsters if m.uid == uid)
            bonus = 30.0 if target.card == objective.monster else 0.0
            return 50.0 + bonus - target.health
        case UseItem(target=target) if target:
            patient = explorer(state, target)
            missing = CONTENT.explorers[target].health - patient.health
            return 60.0 if missing >= 2 * hit_cost(state) else 10.0 * (missing > 1)
        case UseItem():
            return 20.0 * len(monsters_in_scope(state, who.point))
        case Equip(item=item, replacing=replacing):
            dice = CONTENT.items[item].dice
            if replacing is not None and CONTENT.items[replacing].dice >= dice:
                return -5.0
            return 30.0 if dice > _best_weapon_dice(state, who.id) else 1.0
        case Move(to=side):
            here = steps.get(who.point, _FAR)
            dx, dy = STEP[side]
            there = steps.get((who.x + dx, who.y + dy), _FAR)
            if who.health <= card.health // 3 and objective.kind != "escape":
                return 2.0 if there > here else -1.0
            return 40.0 if there < here else -2.0
        case EndTurn():
            return 0.0
    return -10.0


def best_move(
    state: MachinaState, moves: Sequence[tuple[str, LegalAction]]
) -> tuple[str, LegalAction]:
    """The best scored of ``moves`` (the first among equals); in the placing phase, the first."""
    if state.phase == "placing":  # any place will do: the first one offered
        return moves[0]
    best: tuple[float, str, LegalAction] | None = None
    distances: dict[str, dict[Point, int]] = {}
    for seat, legal in moves:
        who = explorer(state, seat)
        if seat not in distances:
            distances[seat] = _distances(state, _goals(state, who))
        score = _score(state, who, legal.action, distances[seat])
        if best is None or score > best[0]:
            best = (score, seat, legal)
    if best is None:
        raise RuntimeError("No seat can act, yet the campaign is still running.")
    return best[1], best[2]


class MachinaHeuristic:
    """The :class:`~domain.bots.Bot` that plays every Machina seat."""

    def choose(self, game: Game, state: Any) -> tuple[str, LegalAction]:
        moves = [
            (seat, legal)
            for seat in game.to_act(state)
            for legal in game.legal_actions(state, seat)
        ]
        if not moves:
            raise RuntimeError("No seat can act, yet the campaign is still running.")
        return best_move(state, moves)
