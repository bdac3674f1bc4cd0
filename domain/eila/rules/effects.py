"""Each effect kind: the event that resolves it on its own, or the choices it waits for."""

from __future__ import annotations

from itertools import combinations

from domain.core.rng import Chance
from domain.eila.actions import (
    Buy,
    DropItems,
    EilaAction,
    Fight,
    LocationAction,
    MakeRoom,
    PayOrHurt,
    PickItem,
    Roll,
    SpendEnergy,
    StopBuying,
    StopMoving,
    Take,
)
from domain.eila.content import ContentPack, Effect
from domain.eila.events import (
    BuyingEnded,
    CardFetched,
    ChapterWon,
    ClauseChecked,
    CombatBegan,
    DestinationSet,
    DieAcquired,
    EffectSkipped,
    EilaEvent,
    FearTaken,
    HeartBroken,
    HeartGained,
    ItemAcquired,
    ItemsDiscarded,
    LocationCovered,
    MoveEnded,
    QuizDrawn,
    ResourcePaid,
    SupportAcquired,
    TrailAdvanced,
)
from domain.eila.rules.conditions import holds, option_blocker
from domain.eila.rules.frames import shields_left
from domain.eila.rules.mine import current_grid, steps
from domain.eila.rules.storage import fear_plan, free_space, have
from domain.eila.state import EilaState


def hp_loss(state: EilaState, amount: int) -> tuple[int, int]:
    """``(lost, prevented)`` of ``amount`` HP losses: shields first, then never below 0."""
    prevented = min(amount, shields_left(state))
    return min(amount - prevented, state.hp), prevented


def waits_for_room(effect: Effect | None) -> bool:
    """Whether ``effect`` is a gain that may pause until storage has room for it: Fear, which is
    taken in full (other gains offer 0..X of what fits, so they never wait)."""
    return effect is not None and effect.kind == "gain" and effect.resource == "fear"


def automatic(pack: ContentPack, state: EilaState, effect: Effect) -> EilaEvent | None:
    """The event that resolves ``effect`` on its own, or None when the player must choose."""
    match effect.kind:
        case "gain" if waits_for_room(effect):
            to_store, hearts, room = fear_plan(pack, state.resources, effect.amount)
            if room:
                return None
            lost, prevented = hp_loss(state, hearts)
            return FearTaken(to_store, lost, prevented)
        case "gain":
            return None
        case "move":
            return MoveEnded() if state.frames[-1].done >= effect.amount else None
        case "lose":
            return ResourcePaid(
                effect.resource, min(effect.amount, have(state.resources, effect.resource))
            )
        case "blue" | "red" | "habit":
            deck = {"blue": state.blue_deck, "red": state.red_deck, "habit": state.habit_deck}
            if effect.card in deck[effect.kind]:
                return CardFetched(effect.card)
            return EffectSkipped(f"card {effect.card} is not in its deck")
        case "item":
            missing = [i for i in effect.items if i not in state.items]
            if not missing:
                return EffectSkipped("the item is already held")
            return ItemAcquired(missing[0]) if len(missing) == 1 else None
        case "discard_item":
            held = tuple(i for i in effect.items if i in state.items)
            if not held:
                return EffectSkipped("no such item is held")
            return ItemsDiscarded(held) if len(held) <= effect.count else None
        case "heart":
            return HeartGained(min(effect.amount, state.max_hp - state.hp))
        case "broken_heart":
            lost, prevented = hp_loss(state, effect.amount)
            return HeartBroken(lost, prevented)
        case "support" if effect.card in state.supports:
            return EffectSkipped("the support card is already held")
        case "support":
            return SupportAcquired(effect.card)
        case "die" if effect.name in state.dice:
            return EffectSkipped("the die is already held")
        case "die":
            return DieAcquired(effect.name)
        case "if":
            return ClauseChecked(holds(pack, state, effect.when))
        case "fight":
            return CombatBegan(effect.name) if state.combat is None else None
        case "quiz":
            quizzes = dict(state.quiz_decks).get(effect.name, ())
            if not quizzes:
                return EffectSkipped(f"the {effect.name} deck is empty")
            chance = Chance(state.rng)
            quiz = quizzes[chance.below(len(quizzes))]
            return QuizDrawn(quiz, chance.rng.draws)
        case "trigger":
            grid = current_grid(pack, state)
            if grid is None or not grid.location or _covered(state, grid.location):
                return EffectSkipped("no location event here")
            if grid.location not in state.location_deck:
                return EffectSkipped(f"location event {grid.location} is not in its deck")
            return CardFetched(grid.location)
        case "cover":
            grid = current_grid(pack, state)
            if grid is None or not grid.location:
                return EffectSkipped("no location number here")
            return LocationCovered(grid.location)
        case "ending":
            return ChapterWon(state.chapter, effect.name)
        case "market":
            return None if _market_choices(pack, state, effect)[:-1] else BuyingEnded()
        case "location_action":
            return None
        case "onward" if effect.card in state.trail_deck:
            return TrailAdvanced(effect.card)
        case "onward":
            return EffectSkipped(f"location card {effect.card} is not face down")
        case "pay_or_hp" if have(state.resources, effect.resource) < effect.amount:
            lost, prevented = hp_loss(state, 1)
            return HeartBroken(lost, prevented)
        case "pay_or_hp":
            return None
        case "place":
            return DestinationSet(effect.name)
    raise ValueError(f"The effect kind {effect.kind!r} is not known.")


def choices(pack: ContentPack, state: EilaState, effect: Effect) -> list[EilaAction]:
    """What the player may do to resolve ``effect``, which waits for a choice.

    Total over every state a campaign passes through, those inside one action's events included:
    there an effect that resolves on its own may be pending, and it lists no choice or the ones it
    would offer (the stream never stops there, so nobody is asked them)."""
    match effect.kind:
        case "gain" if waits_for_room(effect):
            # Only while room is still missing: a conversion that makes it resumes the gain.
            return [MakeRoom(r) for r in ("knowledge", "energy") if have(state.resources, r) > 0]
        case "gain":
            most = min(effect.amount, free_space(pack, state.resources, effect.resource))
            return [Take(n) for n in range(most, -1, -1)]
        case "item":
            return [PickItem(i) for i in effect.items if i not in state.items]
        case "discard_item":
            held = [i for i in effect.items if i in state.items]
            return [DropItems(tuple(combo)) for combo in combinations(held, effect.count)]
        case "fight":
            if state.combat is None:
                # The enemy is faced on its own (Rule 03: CombatBegan follows at once), so the
                # version between choosing the option (or losing a fight fought on) and that event
                # waits for no answer.
                return []
            if not state.combat.rolled:
                return [Roll()]
            return [Fight(), *([SpendEnergy()] if state.resources.energy > 0 else [])]
        case "move":
            return [*steps(pack, state), StopMoving()]
        case "market":
            return _market_choices(pack, state, effect)
        case "location_action":
            card = pack.card(state.trail[-1], state.mode)
            open_ = [o.letter for o in card.options if option_blocker(pack, state, o) is None]
            return [*(LocationAction(letter) for letter in open_), LocationAction("")]
        case "pay_or_hp":
            # The resource may have gone in a conversion made while this choice waited.
            enough = have(state.resources, effect.resource) >= effect.amount
            return [*([PayOrHurt(True)] if enough else []), PayOrHurt(False)]
    return []


def _market_choices(pack: ContentPack, state: EilaState, effect: Effect) -> list[EilaAction]:
    market = next(m for m in pack.chapters[state.chapter].markets if m.name == effect.name)
    affordable = all(have(state.resources, r) >= n for r, n in market.price)
    cards = dict(state.markets).get(effect.name, ()) if affordable else ()
    return [*(Buy(card) for card in cards), StopBuying()]


def _covered(state: EilaState, location: str) -> bool:
    return state.mine is not None and location in state.mine.covered
