"""Applying the events of support cards, combat, quizzes, the mine, markets, the trail and the
pocket watch (see :mod:`domain.eila.rules.evolve` for the rest)."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from domain.eila.content import ContentPack, Effect
from domain.eila.events import (
    AbilityUsed,
    BuyingEnded,
    CardBought,
    ChapterElementEvent,
    ClauseChecked,
    CombatBegan,
    CombatResolved,
    CombatRolled,
    DawnChosen,
    DawnPeeked,
    DestinationSet,
    DieAcquired,
    EnergySpent,
    LocationActionChosen,
    LocationCovered,
    MarketDrawn,
    MineLaidOut,
    Moved,
    MoveEnded,
    QuizAnswered,
    QuizDrawn,
    SupportAcquired,
    TileFlipped,
    TrailAdvanced,
)
from domain.eila.rules.abilities import ability_of
from domain.eila.rules.frames import advance, afresh, pending, push, set_place, touch
from domain.eila.rules.mine import MOVES, grid_at
from domain.eila.rules.storage import changed
from domain.eila.state import Combat, Deck, EilaState, MineState

DARK_FEAR = (Effect("gain", resource="fear", amount=1),)
"""What entering (or passing) a dark area of the mine does."""


def _combat(state: EilaState) -> Combat:
    assert state.combat is not None
    return state.combat


def _mine(state: EilaState) -> MineState:
    assert state.mine is not None
    return state.mine


def _decks(decks: tuple[Deck, ...], name: str, cards: tuple[str, ...]) -> tuple[Deck, ...]:
    """``decks`` with deck ``name`` holding ``cards`` (added last when new)."""
    if any(deck == name for deck, _ in decks):
        return tuple((deck, cards if deck == name else held) for deck, held in decks)
    return (*decks, (name, cards))


def back_to_market(pack: ContentPack, state: EilaState, card: str) -> EilaState:
    market = next(m for m in pack.chapters[state.chapter].markets if card in m.cards)
    held = dict(state.markets).get(market.name, ())
    cards = tuple(c for c in market.cards if c in held or c == card)
    return replace(state, markets=_decks(state.markets, market.name, cards))


def _bought(pack: ContentPack, state: EilaState, card: str) -> EilaState:
    market = next(m for m in pack.chapters[state.chapter].markets if card in m.cards)
    resources = state.resources
    for resource, amount in market.price:
        resources = changed(resources, resource, -amount)
    left = tuple(c for c in dict(state.markets)[market.name] if c != card)
    return replace(
        state,
        resources=resources,
        markets=_decks(state.markets, market.name, left),
        future=(*state.future, card),
    )


def _used(pack: ContentPack, state: EilaState, card: str) -> EilaState:
    ability = ability_of(pack, card)
    assert ability is not None
    resources = state.resources
    for resource, amount in ability.cost.items():
        resources = changed(resources, resource, -amount)
    for resource, amount in ability.gives.resources.items():
        resources = changed(resources, resource, amount)
    items = tuple(i for i in state.items if i != card) if ability.discard else state.items
    hp = min(state.max_hp, state.hp + ability.gives.hp)
    state = replace(state, resources=resources, items=items, hp=hp)
    if state.combat is None:
        return state
    combat = replace(
        state.combat,
        bonus=state.combat.bonus + ability.gives.combat,
        shields=state.combat.shields + ability.gives.shield,
    )
    return touch(replace(state, combat=combat))


def evolve(pack: ContentPack, state: EilaState, event: ChapterElementEvent) -> EilaState:
    match event:
        case DestinationSet(destination=destination):
            return advance(set_place(state, destination))
        case SupportAcquired(support=support):
            return advance(replace(state, supports=tuple(sorted((*state.supports, support)))))
        case DieAcquired(die=die):
            return advance(replace(state, dice=tuple(sorted((*state.dice, die)))))
        case ClauseChecked(holds=holds):
            clause = pending(state)
            assert clause is not None
            state = advance(state)
            return push(state, clause.then) if holds and clause.then else state
        case CombatBegan(enemy=enemy):
            return replace(state, combat=Combat(enemy))
        case CombatRolled(red=red, green=green, draws=draws):
            combat = replace(_combat(state), rolled=True, red=red, green=green)
            return touch(replace(state, combat=combat, rng=state.rng.advanced_to(draws)))
        case EnergySpent():
            combat = replace(_combat(state), energy=_combat(state).energy + 1)
            resources = changed(state.resources, "energy", -1)
            return touch(replace(state, combat=combat, resources=resources))
        case CombatResolved(won=won, shields=shields):
            fight = pending(state)
            assert fight is not None
            state = replace(state, combat=None)
            # Fighting on despite injuries, a lost combat starts afresh after its lost option.
            state = advance(state) if won or not fight.repeat else afresh(state)
            branch = fight.won if won else fight.lost
            return push(state, branch, shields=shields) if branch else state
        case AbilityUsed(card=card):
            return _used(pack, state, card)
        case QuizDrawn(quiz=quiz, draws=draws):
            deck = pack.quizzes[quiz].deck
            left = tuple(q for q in dict(state.quiz_decks)[deck] if q != quiz)
            state = replace(
                state,
                quiz_decks=_decks(state.quiz_decks, deck, left),
                quiz_open=(*state.quiz_open, quiz),
                rng=state.rng.advanced_to(draws),
            )
            return advance(state)
        case QuizAnswered(quiz=quiz, correct=correct):
            state = replace(
                state,
                quiz_open=tuple(q for q in state.quiz_open if q != quiz),
                quiz_done=(*state.quiz_done, quiz),
            )
            reward = pack.quizzes[quiz].reward
            return push(state, reward) if correct and reward else state
        case MineLaidOut(tiles=tiles, draws=draws):
            mine = pack.chapters[state.chapter].mine
            assert mine is not None
            face_up = tuple(i for i, slot in enumerate(mine.slots) if slot.face_up)
            laid = MineState(tiles, face_up, mine.start)
            return replace(state, mine=laid, rng=state.rng.advanced_to(draws))
        case TileFlipped(slot=slot):
            mine_state = _mine(state)
            face_up = tuple(sorted((*mine_state.face_up, slot)))
            return touch(replace(state, mine=replace(mine_state, face_up=face_up)))
        case Moved(direction=direction, paid=paid):
            mine_state = _mine(state)
            dx, dy = MOVES[direction]
            x, y = mine_state.token[0] + dx, mine_state.token[1] + dy
            state = replace(state, mine=replace(mine_state, token=(x, y)))
            if paid == "energy":
                state = replace(state, resources=changed(state.resources, "energy", -1))
            elif paid == "hp":
                state = replace(state, hp=state.hp - 1)
            state = touch(state, 1)
            grid = grid_at(pack, state, x, y)
            return push(state, DARK_FEAR) if grid is not None and grid.dark else state
        case MoveEnded() | BuyingEnded():
            return advance(state)
        case LocationCovered(location=location):
            mine_state = _mine(state)
            covered = (*mine_state.covered, location)
            return advance(replace(state, mine=replace(mine_state, covered=covered)))
        case MarketDrawn(market=market, cards=cards, draws=draws):
            markets = _decks(state.markets, market, cards)
            return replace(state, markets=markets, rng=state.rng.advanced_to(draws))
        case CardBought(card=card):
            return touch(_bought(pack, state, card))
        case LocationActionChosen(letter=letter):
            state = advance(state)
            if not letter:
                return state
            options = pack.card(state.trail[-1], state.mode).options
            option = next(o for o in options if o.letter == letter)
            return push(state, option.effects) if option.effects else state
        case TrailAdvanced(card=card):
            state = replace(
                state,
                trail=(*state.trail, card),
                trail_deck=tuple(c for c in state.trail_deck if c != card),
            )
            return advance(state)
        case DawnPeeked():
            return replace(state, phase="dawn", known_on_top=max(1, state.known_on_top))
        case DawnChosen(last=last):
            state = replace(state, phase="day")
            if not last:
                return state
            upcoming = (*state.upcoming[1:], state.upcoming[0])
            return replace(state, upcoming=upcoming, known_on_top=0, known_at_bottom=1)
        case _:
            assert_never(event)
