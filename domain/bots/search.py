"""Information-set Monte Carlo tree search over the :class:`~domain.core.game.Game` contract.

Every iteration samples a world the deciding seat could be in (the game's sampler, from the bot's
own generator), then walks one tree shared by all worlds: a node is a sequence of moves from now,
whatever the dice did in between, so its statistics gather over everything the seat cannot tell
apart. A move is offered in a world only when it is legal there; a child is scored by the times it
was offered (its availability) rather than by its parent's visits. Below the tree a playout
follows the game's rollout policy (its heuristic bot) for a number of moves, and the game's value
of the state it reaches (1 won, 0 lost, in between for a state still running) is counted on the
way back.

At the root the policy's own first move is played first and kept unless another first move is
clearly better (visited as often, and a margin higher on average): with few iterations the search
plays as its policy does, and leaves it only on evidence.

The games are played by one seat or by seats that win or lose together, so every node maximises
the same value. Work is counted in iterations, never in time: the same bot seed and the same
observation give the same choice.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import msgspec

from domain.core.game import Game, LegalAction, UnlabelledActions
from domain.core.rng import Chance

Move = tuple[str, LegalAction]


class Level(msgspec.Struct, frozen=True):
    """How hard the bot thinks: iterations per decision, moves played out below the tree, how much
    the rollout policy's move is preferred while little is known, and what it takes to leave the
    policy's first move (see :func:`search`)."""

    iterations: int
    playout: int
    prior: float = 1.0
    exploration: float = 0.7
    trust: int = 4
    """Visits the policy's first move gets before any other, and that another first move needs
    before it may be chosen instead."""
    margin: float = 0.05
    """How much higher another first move's mean value must be than the policy's move's."""
    tree_prior: bool = True
    """Whether the rollout policy's move is preferred below the root too (a game whose policy is
    dear to ask may leave the order there to the values found)."""
    best_line: bool = False
    """Whether a first move is judged by the best line found below it (each node by its best
    child visited ``trust`` times, its own mean where none is) rather than by its mean value,
    which counts every poor move tried after it."""


@dataclass
class Knowledge:
    """What the search knows of one game, none of it hidden from the seat."""

    sample: Callable[[Any, str | None, Chance], Any]
    rollout: Callable[[Game, Any, Sequence[Move], Chance], Move]
    """The move the game's heuristic plays among ``moves`` in a (sampled) state."""
    value: Callable[[Game, Any], float]
    """1 for a win, 0 for a loss, and an estimate in between for a state still running."""
    over: Callable[[Game, Any], bool]
    """Whether the search stops here (the campaign ended, or the chapter attempt did)."""
    moves: Callable[[Game, Any, Sequence[Move]], list[Move]] = field(
        default=lambda game, state, moves: list(moves)
    )
    """The moves worth searching among the legal ones (a game may leave a choice whose outcome
    depends on a secret of its content to the rollout policy)."""
    favourite: Callable[[Game, Any, Sequence[str], Sequence[Move], Chance], Move] | None = None
    """The policy's first move, from the observation as the seats see it (None: the rollout
    policy's in one sampled world). A game whose rollout policy is a cheap stand-in names its
    full heuristic here."""
    spends: Callable[[Any], bool] = field(default=lambda action: False)
    """Whether an action spends what a seat has once a game (an ability): the search plays such
    a first move only when its own figures say it pays (see :func:`_choice`)."""


@dataclass
class Node:
    visits: int = 0
    total: float = 0.0
    offered: int = 0
    children: dict[tuple[str, str], Node] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


Why = Literal["only", "best", "close", "seldom"]
"""Why a search chose its move: the ``only`` one to consider; the ``best`` figure of the moves
judged (the runner-up's is no higher); the policy's own move kept against a runner-up that scored
higher by less than the level's margin (``close``), or on fewer visits than the level trusts
(``seldom``)."""


class Choice(msgspec.Struct, frozen=True):
    """What a search decided, with the figures a hint puts into words.

    The runner-up is the other move judged by the same figure as the choice: the best mean of
    those visited ``trust`` times (else the most visited), so ``win_rate`` is at least
    ``runner_up_rate`` unless ``why`` says why the chosen move was kept all the same."""

    seat: str
    action: LegalAction
    visits: int
    win_rate: float
    runner_up: LegalAction | None
    runner_up_rate: float
    iterations: int
    runner_up_visits: int = 0
    why: Why = "best"


def legal_moves(
    game: Game, state: Any, seats: Sequence[str] | None = None, *, labelled: bool = True
) -> list[Move]:
    """What ``seats`` (default: those to act) may do at ``state``. Unlabelled moves (where the
    game can list them so) are for the search's own worlds, whose moves nobody reads."""
    acting = game.to_act(state) if seats is None else seats
    listed = game.legal_actions
    if not labelled and _lists_unlabelled(type(game)):
        listed = cast(UnlabelledActions, game).unlabelled_actions
    return [(seat, legal) for seat in acting for legal in listed(state, seat)]


@functools.cache
def _lists_unlabelled(kind: type) -> bool:
    """Whether games of ``kind`` are :class:`UnlabelledActions`: asked once a kind, since a
    protocol's own check costs microseconds and the search lists moves a thousand times a
    decision."""
    return issubclass(kind, UnlabelledActions)


def after(game: Game, state: Any, move: Move) -> Any:
    seat, legal = move
    steps = game.play(state, seat, legal.action)
    return steps[-1][1] if steps else state


def search(
    game: Game,
    knowledge: Knowledge,
    observation: Any,
    seats: Sequence[str],
    level: Level,
    chance: Chance,
) -> Choice:
    """The move for one of ``seats`` after ``level.iterations`` sampled worlds.

    ``observation`` may be the full state: the first thing each iteration does is replace what
    the seats cannot see by a sample.

    The policy's own first move (the game's heuristic) is played first ``level.trust`` times and
    kept unless another first move, visited as often at least, scores ``level.margin`` more on
    average: with few iterations the search plays as its policy does, and it leaves it only on
    evidence.
    """
    root = Node()
    observer = seats[0]
    first = knowledge.moves(game, observation, legal_moves(game, observation, seats))
    if not first:
        raise RuntimeError("No seat can act, yet the campaign is still running.")
    if knowledge.favourite is not None:
        favourite = _key(knowledge.favourite(game, observation, seats, first, chance))
    else:
        world = knowledge.sample(observation, observer, chance)
        favourite = _key(knowledge.rollout(game, world, first, chance))
    if len(first) == 1:
        return _choice(root, first, favourite, 0, level, knowledge.spends)
    for _ in range(level.iterations):
        world = knowledge.sample(observation, observer, chance)
        _iterate(game, knowledge, root, world, seats, level, chance, favourite)
    return _choice(root, first, favourite, level.iterations, level, knowledge.spends)


def _key(move: Move) -> tuple[str, str]:
    return move[0], move[1].id


def _iterate(
    game: Game,
    knowledge: Knowledge,
    root: Node,
    world: Any,
    seats: Sequence[str],
    level: Level,
    chance: Chance,
    first: tuple[str, str],
) -> None:
    node = root
    path = [root]
    expanded = False
    while not expanded and not knowledge.over(game, world):
        at_root = node is root
        acting = seats if at_root else None
        moves = knowledge.moves(game, world, legal_moves(game, world, acting, labelled=False))
        if not moves:
            break
        if at_root:
            favourite: tuple[str, str] | None = first
        elif level.tree_prior:
            favourite = _key(knowledge.rollout(game, world, moves, chance))
        else:
            favourite = None
        best: tuple[float, Move, Node] | None = None
        log_offered = 0.0
        for move in moves:
            key = _key(move)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = Node()
            child.offered += 1
        for move in moves:
            child = node.children[_key(move)]
            bonus = level.prior if _key(move) == favourite else 0.0
            if at_root and _key(move) == favourite and child.visits < level.trust:
                score = 2e9  # the policy's own move is tried first, and enough to be judged
            elif child.visits == 0:
                score = 1e9 + bonus  # expand untried moves first, the favourite before others
            else:
                log_offered = math.log(child.offered)
                score = (
                    child.mean
                    + level.exploration * math.sqrt(log_offered / child.visits)
                    + bonus / (child.visits + 1)
                )
            if best is None or score > best[0]:
                best = (score, move, child)
        assert best is not None
        _, move, child = best
        expanded = child.visits == 0
        world = after(game, world, move)
        node = child
        path.append(node)
    for _ in range(level.playout):
        if knowledge.over(game, world):
            break
        moves = knowledge.moves(game, world, legal_moves(game, world, labelled=False))
        if not moves:
            break
        world = after(game, world, knowledge.rollout(game, world, moves, chance))
    value = knowledge.value(game, world)
    for visited in path:
        visited.visits += 1
        visited.total += value


def _choice(
    root: Node,
    first: list[Move],
    favourite: tuple[str, str],
    iterations: int,
    level: Level,
    spends: Callable[[Any], bool] = lambda action: False,
) -> Choice:
    """The policy's first move, unless another one visited ``level.trust`` times at least scored
    ``level.margin`` more on average (then the best such, by mean value, then visits).

    A move that ``spends`` a once-a-game ability is kept only when its own figures say it pays:
    visited ``level.trust`` times and ``level.margin`` ahead of the best move that spends
    nothing; else that move is played and the ability kept."""

    def stats(move: Move) -> Node:
        child = root.children.get(_key(move), Node())
        if not level.best_line:
            return child
        return Node(visits=child.visits, total=_line(child, level.trust) * child.visits)

    kept = next((m for m in first if _key(m) == favourite), None)
    trusted = [m for m in first if stats(m).visits >= max(1, level.trust)]
    challenger = max(
        (m for m in trusted if _key(m) != favourite),
        key=lambda m: (stats(m).mean, stats(m).visits),
        default=None,
    )
    if kept is None:
        best = challenger or max(first, key=lambda m: (stats(m).visits, stats(m).mean))
    elif challenger is not None and stats(challenger).mean >= stats(kept).mean + level.margin:
        best = challenger
    else:
        best = kept
    saving = [m for m in first if not spends(m[1].action)]
    if spends(best[1].action) and saving:
        rival = max(saving, key=lambda m: (stats(m).mean, stats(m).visits))
        tried = stats(best).visits >= max(1, level.trust)
        if not tried or stats(best).mean < stats(rival).mean + level.margin:
            best = kept if kept is not None and not spends(kept[1].action) else rival
    # The runner-up is judged as the choice was: by mean among the moves visited often enough
    # to be trusted, and only where none was, the most visited (a hint names it with its mean).
    others = [m for m in first if m is not best]
    judged = [m for m in others if m in trusted]
    second: Move | None
    if judged:
        second = max(judged, key=lambda m: (stats(m).mean, stats(m).visits))
    else:
        second = max(others, key=lambda m: (stats(m).visits, stats(m).mean), default=None)
    chosen = stats(best)
    other = stats(second) if second is not None else Node()
    why: Why
    if second is None or iterations == 0:
        why = "only"
    elif other.mean <= chosen.mean:
        why = "best"
    elif other.visits < max(1, level.trust):
        why = "seldom"
    else:
        why = "close"
    return Choice(
        seat=best[0],
        action=best[1],
        visits=chosen.visits,
        win_rate=chosen.mean,
        runner_up=second[1] if second is not None else None,
        runner_up_rate=other.mean,
        iterations=iterations,
        runner_up_visits=other.visits,
        why=why,
    )


def _line(node: Node, trust: int) -> float:
    """The value of the best line below ``node``: its best child visited ``trust`` times (or
    once, for a trust of 0), followed down; its own mean where it has no such child."""
    judged = [c for c in node.children.values() if c.visits >= max(1, trust)]
    if not judged:
        return node.mean
    return max(_line(c, trust) for c in judged)
