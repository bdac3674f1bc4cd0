"""From decoded file Structs to the Structs the rules read (see :mod:`domain.eila.content_types`).

Nothing here judges content: :mod:`domain.eila.content_checks` does, before any of this is built.
"""

from __future__ import annotations

from domain.eila.content_files import (
    CardFile,
    EffectFile,
    GoalSideFile,
    HabitFile,
    MarketFile,
    MineFile,
    QuizFile,
)
from domain.eila.content_types import (
    RESOURCES,
    Amounts,
    Card,
    Effect,
    GoalSide,
    Market,
    Mine,
    MineGrid,
    MineSlot,
    MineTile,
    Option,
    QuizCard,
)


def card(raw: CardFile | HabitFile, chapter: int | None) -> Card | None:
    """The card the rules read; None when one of its effects is malformed."""
    options = []
    for option in raw.options:
        effects = effects_of(option.effects)
        if effects is None:
            return None
        options.append(
            Option(option.letter, option.label, option.requires, effects, option.destination)
        )
    shelter = isinstance(raw, CardFile) and raw.shelter
    return Card(raw.number, raw.colour, raw.name, raw.text, tuple(options), chapter, shelter)


def effects_of(raws: tuple[EffectFile, ...]) -> tuple[Effect, ...] | None:
    built = [effect(raw) for raw in raws]
    if any(e is None for e in built):
        return None
    return tuple(e for e in built if e is not None)


def effect(raw: EffectFile) -> Effect | None:
    match raw:
        case EffectFile(gain=str(resource), max=int(amount)):
            return Effect("gain", resource=resource, amount=amount)
        case EffectFile(lose=str(resource), amount=int(amount)):
            return Effect("lose", resource=resource, amount=amount)
        case EffectFile(blue=str(number)):
            return Effect("blue", card=number)
        case EffectFile(red=str(number)):
            return Effect("red", card=number)
        case EffectFile(habit=str(number)):
            return Effect("habit", card=number)
        case EffectFile(item=tuple(items)):
            return Effect("item", items=items)
        case EffectFile(discard_item=tuple(items), count=int(count)):
            return Effect("discard_item", items=items, count=count)
        case EffectFile(heart=int(amount)):
            return Effect("heart", amount=amount)
        case EffectFile(broken_heart=int(amount)):
            return Effect("broken_heart", amount=amount)
        case EffectFile(support=str(number)):
            return Effect("support", card=number)
        case EffectFile(die=str(name)):
            return Effect("die", name=name)
        case EffectFile(fight=str(enemy)):
            won = effects_of(raw.won or ())
            lost = effects_of(raw.lost or ())
            if won is None or lost is None:
                return None
            return Effect("fight", name=enemy, won=won, lost=lost, repeat=bool(raw.fight_on))
        case EffectFile(if_=condition, then=tuple(then)) if condition is not None:
            clause = effects_of(then)
            return None if clause is None else Effect("if", when=condition, then=clause)
        case EffectFile(quiz=str(deck)):
            return Effect("quiz", name=deck)
        case EffectFile(move=int(amount)):
            return Effect("move", amount=amount)
        case EffectFile(trigger=str()):
            return Effect("trigger")
        case EffectFile(cover=str()):
            return Effect("cover")
        case EffectFile(ending=str(letter)):
            return Effect("ending", name=letter)
        case EffectFile(market=str(name)):
            return Effect("market", name=name)
        case EffectFile(location_action=True):
            return Effect("location_action")
        case EffectFile(onward=str(number)):
            return Effect("onward", card=number)
        case EffectFile(pay_or_hp=str(resource), amount=int(amount)):
            return Effect("pay_or_hp", resource=resource, amount=amount)
        case EffectFile(place=str(destination)):
            return Effect("place", name=destination)
    return None


def goal_side(raw: GoalSideFile) -> GoalSide:
    return GoalSide(amounts(raw.submit), raw.hearts)


def amounts(given: Amounts) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(given.items(), key=lambda pair: RESOURCES.index(pair[0])))


def quiz(raw: QuizFile, reward: tuple[Effect, ...]) -> QuizCard:
    choices = tuple(sorted(raw.choices.items()))
    deck = raw.id.split("-")[0]
    return QuizCard(raw.id, deck, raw.question, choices, raw.answer, reward, raw.reward_text)


def mine(raw: MineFile) -> Mine:
    slots = tuple(MineSlot(s.group, s.col, s.row, s.face_up) for s in raw.slots)
    tiles = {}
    for tile in raw.tiles:
        grids = tuple(
            MineGrid(
                g.location or "",
                g.dark,
                g.shelter,
                (g.north, g.east, g.south, g.west),
            )
            for g in tile.grids
        )
        tiles[tile.id] = MineTile(tile.id, tile.group, tile.name, grids)  # type: ignore[arg-type]
    return Mine(slots, tiles, (raw.start[0], raw.start[1]))


def market(raw: MarketFile) -> Market:
    return Market(raw.name, raw.label, raw.cards, raw.draw, amounts(raw.price))
