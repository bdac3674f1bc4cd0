"""A fast Gil & Ennis player: every legal action is scored by what the table looks like after it,
and the best is taken.

It decides from what its seat sees. Before it looks, the dream deck's order and the campaign's
generator are replaced by a sample from the bot's own generator (:mod:`domain.gil_ennis.sampling`),
so an action whose outcome is chance (a reroll, a forage) is scored over a few sampled outcomes,
never over the real ones. Everything else it reads (dice, worry level, worry cards, insights,
the cards not yet seen) lies open on the table.

The score of a table is how well Gil and Ennis would stand if they walked up Mount Humbaba
tomorrow with what they carry (see :func:`standing`): the chance of matching today's challenge
with their dice and powers, after the meals still to come, less a little for every challenge
die and plus a little for every die kept. Before a night the score looks through the dream to
come: each way to dream, each card the deck may show, the best dice to pay with, or waking.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import product
from typing import Any, NamedTuple

from domain.core.game import Game, LegalAction
from domain.core.rng import Chance, Rng
from domain.gil_ennis.actions import (
    AddDrawn,
    EndClimb,
    Pledge,
    Reroll,
    TurnIn,
    UsePower,
    Wake,
)
from domain.gil_ennis.content import CHARACTERS, CONTENT, DREAMS, Power
from domain.gil_ennis.sampling import sample
from domain.gil_ennis.state import GilEnnisState, pool, worry_dice

Move = tuple[str, LegalAction]
Dice = tuple[int, ...]

SAMPLES = 3
"""Sampled outcomes per chance action."""
CHALLENGE_DIE = 0.06
"""What each die waiting on Mount Humbaba costs the score, however well it is matched today:
dice still to be spent or eaten make every one of them a risk."""
KEPT_DIE = 0.05
"""What each die carried to the summit is worth beyond the dice it matches."""
POWER = 0.01
"""What each power kept for the final night is worth beyond the dice it changes."""
DREAM_READY = 0.02
"""What a HAND die at or above the worry level is worth: it lets the next night's dream happen."""
STARVED = -1.0
REROLL_DIE_MAX = 2
"""Rerolls of more dice than this are not considered (each one is sampled, and rarely better)."""


class Pack(NamedTuple):
    """One character's dice: HAND (0 when empty), BACKPACK high to low, POCKET."""

    hand: int
    backpack: Dice
    pocket: int

    def all(self) -> Dice:
        return tuple(v for v in (self.hand, *self.backpack, self.pocket) if v)


class Table(NamedTuple):
    """What the score reads: open information only."""

    gil: Pack
    ennis: Pack
    level: int
    worries: tuple[str, ...]
    gil_powers: tuple[str, ...]
    ennis_powers: tuple[str, ...]
    pool: int
    meals: int
    """Meals still to eat, the next one first."""
    refill_first: bool
    """Whether a pocket may be refilled (by organizing) before the next meal."""


def _kind(power: Power) -> str:
    return f"set{power.value}" if power.kind == "set" else power.kind


def _powers(state: GilEnnisState, who: str) -> tuple[str, ...]:
    """The powers ``who`` could still use on the final night."""
    found: list[str] = []
    final = state.phase == "final_night"
    for ability in CHARACTERS[who].abilities:
        key = f"ability:{who}/{ability.id}"
        spent = state.used_game if ability.frequency == "game" or final else ()
        if key not in spent and not (final and key in state.used_round):
            found.append(_kind(ability.power))
    card = state.gil if who == "gil" else state.ennis
    for card_id in card.insights:
        if not (final and f"insight:{card_id}" in state.used_round):
            found.append(_kind(DREAMS[card_id].insight.power))
    return tuple(sorted(found))


def _route_length(path: str) -> int:
    return (
        len(CONTENT.map.route(path))
        if path
        else len(CONTENT.map.trail) + min(len(p.campsites) for p in CONTENT.map.paths)
    )


def table(state: GilEnnisState) -> Table:
    length = _route_length(state.path)
    if state.phase in ("setup", "hike") or (state.phase, state.step) == ("break", "forage"):
        meals, refill = length - state.day, True
    else:
        meals, refill = length - state.day + 1, False
    return Table(
        Pack(state.gil.hand, state.gil.backpack, state.gil.pocket),
        Pack(state.ennis.hand, state.ennis.backpack, state.ennis.pocket),
        state.worry_level,
        state.worries,
        _powers(state, "gil"),
        _powers(state, "ennis"),
        pool(state),
        max(0, meals),
        refill,
    )


# The final night: can the challenge be matched?


def _without(values: Sequence[Any], value: Any) -> tuple[Any, ...]:
    out = list(values)
    out.remove(value)
    return tuple(out)


def _turns_into(power: str, die: int, wanted: int) -> float:
    """The chance that ``power`` turns ``die`` into ``wanted``."""
    match power:
        case "nudge":
            return 1.0 if abs(die - wanted) == 1 else 0.0
        case "flip":
            return 1.0 if 7 - die == wanted else 0.0
        case "reroll":
            return 1 / 6
        case _:
            return 1.0 if int(power[3:]) == wanted else 0.0


@lru_cache(maxsize=400_000)
def match_chance(
    challenge: Dice,
    gil: Dice,
    ennis: Dice,
    gil_powers: tuple[str, ...],
    ennis_powers: tuple[str, ...],
) -> float:
    """The chance of matching every die of ``challenge`` (sorted) with the characters' dice
    (sorted), each power changing at most one of its owner's dice."""
    if not challenge:
        return 1.0
    if len(challenge) > len(gil) + len(ennis):
        return 0.0
    wanted, rest = challenge[0], challenge[1:]
    best = 0.0
    if wanted in gil:
        best = match_chance(rest, _without(gil, wanted), ennis, gil_powers, ennis_powers)
    if best < 1.0 and wanted in ennis:
        best = max(best, match_chance(rest, gil, _without(ennis, wanted), gil_powers, ennis_powers))
    for power in dict.fromkeys(gil_powers):
        for die in dict.fromkeys(gil):
            if best >= 1.0:
                return best
            odds = _turns_into(power, die, wanted) if die != wanted else 0.0
            if odds * 1.0 > best:
                after = match_chance(
                    rest, _without(gil, die), ennis, _without(gil_powers, power), ennis_powers
                )
                best = max(best, odds * after)
    for power in dict.fromkeys(ennis_powers):
        for die in dict.fromkeys(ennis):
            if best >= 1.0:
                return best
            odds = _turns_into(power, die, wanted) if die != wanted else 0.0
            if odds * 1.0 > best:
                after = match_chance(
                    rest, gil, _without(ennis, die), gil_powers, _without(ennis_powers, power)
                )
                best = max(best, odds * after)
    return best


def _summit(level: int, worries: tuple[str, ...], free: int) -> tuple[Dice, int, bool]:
    """Mount Humbaba's challenge if the final night came now: the fixed dice (sorted), how many
    would be rolled, and whether the pockets would be lost."""
    fixed = list(worry_dice(level))
    rolled = 0
    lose = False
    for card_id in worries:
        worry = DREAMS[card_id].worry
        match worry.kind:
            case "add_die":
                if free:
                    fixed.append(worry.value)
                    free -= 1
            case "add_rolled":
                take = min(free, worry.value)
                rolled += take
                free -= take
            case "raise_lowest":
                low = fixed.index(min(fixed))
                fixed[low] = min(6, fixed[low] + worry.value)
            case _:
                lose = True
    return tuple(sorted(fixed)), rolled, lose


def _eat(gil: Pack, ennis: Pack, meals: int, refill_first: bool) -> tuple[Pack, Pack, int] | None:
    """The packs after ``meals`` meals (None: someone goes hungry), refilling an empty pocket
    from the backpack's highest die on each day it may be organized. Also returns the pips left
    over in the pockets."""
    packs = {"gil": gil, "ennis": ennis}
    for meal in range(meals):
        if meal or refill_first:
            for who, pack in packs.items():
                if not pack.pocket and pack.backpack:
                    packs[who] = Pack(pack.hand, pack.backpack[1:], pack.backpack[0])
        for who in ("gil", "ennis"):
            source = who if packs[who].pocket else ("ennis" if who == "gil" else "gil")
            pack = packs[source]
            if not pack.pocket:
                return None
            packs[source] = Pack(pack.hand, pack.backpack, pack.pocket - 1)
    pips = packs["gil"].pocket + packs["ennis"].pocket
    return packs["gil"], packs["ennis"], pips


@lru_cache(maxsize=200_000)
def standing(tab: Table) -> float:
    """How well the table stands: see the module's docstring."""
    eaten = _eat(tab.gil, tab.ennis, tab.meals, tab.refill_first)
    if eaten is None:
        return STARVED + 0.01 * (len(tab.gil.all()) + len(tab.ennis.all()))
    gil, ennis, _ = eaten
    fixed, rolled, lose = _summit(tab.level, tab.worries, tab.pool)
    if lose:
        gil, ennis = Pack(gil.hand, gil.backpack, 0), Pack(ennis.hand, ennis.backpack, 0)
    gil_dice, ennis_dice = tuple(sorted(gil.all())), tuple(sorted(ennis.all()))
    odds = match_chance(fixed, gil_dice, ennis_dice, tab.gil_powers, tab.ennis_powers)
    # A rolled die is matched by whatever is left over; each one left unknown halves the hope
    # a little, the more dice spare the less.
    spare = len(gil_dice) + len(ennis_dice) - len(fixed)
    for _ in range(rolled):
        odds *= min(1.0, 0.35 + 0.1 * max(0, spare))
        spare -= 1
    ready = (tab.gil.hand >= tab.level) + (tab.ennis.hand >= tab.level)
    return (
        odds
        - CHALLENGE_DIE * (len(fixed) + rolled)
        + KEPT_DIE * (len(gil_dice) + len(ennis_dice))
        + POWER * (len(tab.gil_powers) + len(tab.ennis_powers))
        + DREAM_READY * ready * (tab.meals > 1)
    )


# The night: each way to dream, each card the deck may show, the best way to pay or waking.


def _unseen(state: GilEnnisState) -> tuple[str, ...]:
    """The cards the next draw may show: the deck's, or the discard pile's when it is empty."""
    if not state.deck:
        return tuple(sorted(state.discard))
    seen = {*state.discard, *state.worries, *state.gil.insights, *state.ennis.insights}
    seen.discard("")
    if state.dream:
        seen.add(state.dream)
    return tuple(d.id for d in CONTENT.dreams if d.id not in seen)


def _payments(
    tab: Table,
    dreamers: tuple[str, ...],
    cost: Sequence[Any],
    pledged: dict[int, tuple[str, str, int]] | None = None,
) -> list[Table]:
    """Every way to pay ``cost`` with the dreamers' dice (keeping the dice ``pledged`` to some
    requirements already), as the table after paying."""
    options: list[list[tuple[str, str, int]]] = []
    for index, requirement in enumerate(cost):
        if pledged and index in pledged:
            options.append([pledged[index]])
            continue
        found = []
        for who in dreamers:
            pack = tab.gil if who == "gil" else tab.ennis
            for slot, value in (("backpack", v) for v in dict.fromkeys(pack.backpack)):
                if requirement.accepts(value):
                    found.append((who, slot, value))
            for slot, value in (("hand", pack.hand), ("pocket", pack.pocket)):
                if value and requirement.accepts(value):
                    found.append((who, slot, value))
        options.append(found)
    tables = []
    for choice in product(*options):
        after = _pay(tab, choice)
        if after is not None:
            tables.append(after)
    return tables


def _pay(tab: Table, dice: Sequence[tuple[str, str, int]]) -> Table | None:
    packs = {"gil": tab.gil, "ennis": tab.ennis}
    for who, slot, value in dice:
        pack = packs[who]
        if slot == "hand":
            if pack.hand != value:
                return None
            pack = Pack(0, pack.backpack, pack.pocket)
        elif slot == "pocket":
            if pack.pocket != value:
                return None
            pack = Pack(pack.hand, pack.backpack, 0)
        else:
            if value not in pack.backpack:
                return None
            pack = Pack(pack.hand, _without(pack.backpack, value), pack.pocket)
        packs[who] = pack
    return tab._replace(gil=packs["gil"], ennis=packs["ennis"], pool=tab.pool + len(dice))


def _raised(tab: Table, amount: int) -> int:
    on_map = len(worry_dice(tab.level))
    return min(tab.level + amount, 6 * (on_map + tab.pool))


def _forage(tab: Table) -> float:
    """What a foraged die adds, roughly: one more die kept."""
    return KEPT_DIE + 0.01 if tab.pool else 0.0


@lru_cache(maxsize=200_000)
def dream_value(
    tab: Table,
    dreamers: tuple[str, ...],
    card_id: str,
    pledged: tuple[tuple[int, tuple[str, str, int]], ...] = (),
    *,
    waking: bool = True,
) -> float:
    """The best of paying ``card_id``'s cost (when it can be paid, with the dice ``pledged``
    already) and, when ``waking``, sleeping restlessly."""
    failed = tab._replace(level=max(1, tab.level - 1), worries=(*tab.worries, card_id))
    best = standing(failed) if waking else STARVED * 10
    if not dreamers:
        return best
    card = DREAMS[card_id]
    alone = len(dreamers) == 1
    cost = card.alone if alone else card.together
    for paid in _payments(tab, dreamers, cost, dict(pledged)):
        level = _raised(paid, 2 if alone else 1)
        if alone:
            insight = _kind(card.insight.power)
            if dreamers[0] == "gil":
                paid = paid._replace(gil_powers=tuple(sorted((*paid.gil_powers, insight))))
            else:
                paid = paid._replace(ennis_powers=tuple(sorted((*paid.ennis_powers, insight))))
        paid = paid._replace(level=level)
        free = paid.pool - (len(worry_dice(level)) - len(worry_dice(tab.level)))
        paid = paid._replace(pool=free)
        best = max(best, standing(paid) + _forage(paid))
    return best


@lru_cache(maxsize=100_000)
def night_value(tab: Table, cards: tuple[str, ...]) -> float:
    """The best way to spend tonight, averaged over the cards the deck may show."""
    ways: list[tuple[str, ...]] = [()]
    if tab.ennis.hand >= tab.level:
        ways.append(("gil",))
    if tab.gil.hand >= tab.level:
        ways.append(("ennis",))
    if len(ways) == 3:
        ways.append(("gil", "ennis"))
    if not cards:
        return standing(tab._replace(level=max(1, tab.level - 1)))
    return max(sum(dream_value(tab, way, c) for c in cards) / len(cards) for way in ways)


def score(state: GilEnnisState) -> float:
    """The worth of a (sampled) state to Gil and Ennis."""
    if state.result != "running":
        return 10.0 if state.result == "won" else -10.0
    if state.phase == "final_night":
        open_values = tuple(
            sorted(v for v, p in zip(state.challenge, state.placed, strict=True) if not p)
        )
        return match_chance(
            open_values,
            tuple(sorted(Pack(state.gil.hand, state.gil.backpack, state.gil.pocket).all())),
            tuple(sorted(Pack(state.ennis.hand, state.ennis.backpack, state.ennis.pocket).all())),
            _powers(state, "gil"),
            _powers(state, "ennis"),
        )
    tab = table(state)
    if state.phase == "sleep" and state.step == "pay":
        return dream_value(tab, state.dreamers, state.dream, _frozen(_pledges(state)))
    if state.phase in ("setup", "hike", "pitch", "sleep"):
        if state.phase == "hike" and state.day == len(CONTENT.map.route(state.path)):
            return standing(tab)  # the next hike climbs Mount Humbaba
        return night_value(tab, _unseen(state))
    return standing(tab)


# Choosing a move.


def _after(game: Game, world: GilEnnisState, move: Move) -> GilEnnisState:
    steps = game.play(world, move[0], move[1].action)
    return steps[-1][1] if steps else world


def _pledges(state: GilEnnisState) -> dict[int, tuple[str, str, int]]:
    return {p.requirement: (p.character, p.slot, p.value) for p in state.pledges}


def _frozen(
    pledged: dict[int, tuple[str, str, int]],
) -> tuple[tuple[int, tuple[str, str, int]], ...]:
    return tuple(sorted(pledged.items()))


def _worth(game: Game, world: GilEnnisState, move: Move, resample: Any) -> float:
    action = move[1].action
    match action:
        case TurnIn():
            return score(world) + 1e-6  # doing nothing wins a tie
        case EndClimb():
            return -1.0
        case Wake():
            return dream_value(table(world), (), world.dream)
        case Pledge(requirement=index, character=who, slot=slot, value=value):
            pledged = {**_pledges(world), index: (who, slot, value)}
            return dream_value(
                table(world), world.dreamers, world.dream, _frozen(pledged), waking=False
            )
    if world.phase == "sleep" and world.step == "choose" and not isinstance(action, UsePower):
        after = _after(game, world, move)
        dreamers = after.dreamers
        cards = _unseen(world)
        if not cards:
            return score(after)
        tab = table(world)
        return sum(dream_value(tab, dreamers, c) for c in cards) / len(cards)
    after = _after(game, world, move)
    if after.rng.draws == world.rng.draws:
        return score(after)
    total = score(after)
    for _ in range(SAMPLES - 1):
        other = resample()
        total += score(_after(game, other, move))
    return total / SAMPLES


def considered(move: Move) -> bool:
    """Whether the heuristic weighs ``move`` at all."""
    action = move[1].action
    return not isinstance(action, Reroll) or len(action.dice) <= REROLL_DIE_MAX


def best_move(game: Game, state: Any, seats: Sequence[str], chance: Chance) -> Move:
    """The best scored move of ``seats`` (the first among equals), from what ``seats[0]`` sees of
    ``state``: its hidden parts are replaced by a sample from ``chance`` before anything is read."""
    world = sample(state, seats[0], chance)
    moves = [(seat, legal) for seat in seats for legal in game.legal_actions(world, seat)]
    if not moves:
        raise RuntimeError("No seat can act, yet the campaign is still running.")
    if len(moves) == 1:
        return moves[0]
    drawn = [m for m in moves if isinstance(m[1].action, AddDrawn)]
    if drawn:
        # The last die added ends in the HAND: add the lowest first.
        return min(drawn, key=lambda m: m[1].action.value)
    best: tuple[float, Move] | None = None
    for move in moves:
        if not considered(move):
            continue
        worth = _worth(game, world, move, lambda: sample(state, seats[0], chance))
        if best is None or worth > best[0]:
            best = (worth, move)
    assert best is not None
    return best[1]


class GilEnnisHeuristic:
    """A :class:`~domain.bots.Bot` and a :class:`~domain.bots.Policy` for Gil & Ennis.

    Its chance (for sampling what the seat cannot see) is its own: a generator keyed by the bot's
    seed and the number of decisions it has made.
    """

    def __init__(self, seed: int = 0) -> None:
        self._seed = seed
        self._decisions = 0

    def _chance(self) -> Chance:
        self._decisions += 1
        return Chance(Rng(self._seed, 0, f"gil-ennis-heuristic/{self._decisions}"))

    def choose(self, game: Game, state: Any) -> Move:
        seats = game.to_act(state)
        if not seats:
            raise RuntimeError("No seat can act, yet the campaign is still running.")
        return best_move(game, state, seats, self._chance())

    def decide(self, game: Game, observation: Any, seat: str) -> LegalAction:
        return best_move(game, observation, (seat,), self._chance())[1]
