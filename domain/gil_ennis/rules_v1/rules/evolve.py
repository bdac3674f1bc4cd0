"""Apply one event. The hot path of every replay: plain replaces, no validation, no draws."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

from domain.gil_ennis.rules_v1.events import (
    Ate,
    CampBroken,
    DiceRerolled,
    DiceRolled,
    DieDiscarded,
    DieDrawn,
    DieGiven,
    DiePlaced,
    DiePledged,
    DreamersChosen,
    DreamFailed,
    DreamFulfilled,
    DreamsShuffled,
    FinalNightBegan,
    ForageRolled,
    ForageStowed,
    GilEnnisEvent,
    Hiked,
    InsightsDiscarded,
    JourneyEnded,
    PowerUsed,
    SpecialActionTaken,
    SuppliesOrganized,
    TurnedIn,
    WorryLevelChanged,
)
from domain.gil_ennis.rules_v1.inventory import change, organize, push_in, remove
from domain.gil_ennis.rules_v1.state import Character, GilEnnisState, Pledge, with_character


def _card(state: GilEnnisState, who: str) -> Character:
    return state.gil if who == "gil" else state.ennis


def _rng(state: GilEnnisState, draws: int) -> GilEnnisState:
    return replace(state, rng=state.rng.advanced_to(draws))


def evolve(state: GilEnnisState, event: GilEnnisEvent) -> GilEnnisState:
    match event:
        case DiceRolled(character=who, faces=faces, draws=draws):
            card = Character(
                hand=faces[0], backpack=tuple(sorted(faces[1:4], reverse=True)), pocket=faces[4]
            )
            return with_character(_rng(state, draws), who, card)
        case DreamsShuffled(order=order, draws=draws):
            phase = "hike" if state.phase == "setup" else state.phase
            return replace(_rng(state, draws), deck=order, discard=(), phase=phase)
        case Hiked(day=day, campsite=site, path=path):
            return replace(
                state,
                day=day,
                path=path or state.path,
                phase="final_night" if site == "summit" else "pitch",
                step="",
                special_used=False,
                used_round=(),
                ready=(),
                gil=replace(state.gil, organized=False),
                ennis=replace(state.ennis, organized=False),
            )
        case SpecialActionTaken():
            return replace(state, special_used=True)
        case DiceRerolled(character=who, slots=slots, old=old, new=new, draws=draws):
            card = _card(state, who)
            for slot, before, after in zip(slots, old, new, strict=True):
                card = change(card, slot, before, after)
            return with_character(_rng(state, draws), who, card)
        case DieDiscarded(character=who, slot=slot, value=value):
            return with_character(state, who, remove(_card(state, who), slot, value))
        case WorryLevelChanged(level=level):
            return replace(state, worry_level=level)
        case InsightsDiscarded(character=who, cards=cards):
            card = _card(state, who)
            kept = tuple(c for c in card.insights if c not in cards)
            state = with_character(state, who, replace(card, insights=kept))
            return replace(state, discard=state.discard + cards)
        case DieDrawn(character=who, value=value, draws=draws):
            card, _ = push_in(_card(state, who), value)
            return with_character(_rng(state, draws), who, card)
        case DieGiven(giver=giver, slot=slot, value=value, receiver=receiver):
            state = with_character(state, giver, remove(_card(state, giver), slot, value))
            card, _ = push_in(_card(state, receiver), value)
            return with_character(state, receiver, card)
        case PowerUsed(character=who, power=power, slot=slot, old=old, new=new, draws=draws):
            state = with_character(state, who, change(_card(state, who), slot, old, new))
            return replace(
                _rng(state, draws),
                used_round=(*state.used_round, power),
                used_game=(*state.used_game, power),
            )
        case SuppliesOrganized(character=who, slot=slot, value=value, target=target):
            card = organize(_card(state, who), slot, value, target, event.target_value)
            return with_character(state, who, card)
        case TurnedIn(seat=seat, nightfall=nightfall):
            if nightfall:
                return replace(state, ready=(), phase="sleep", step="choose")
            return replace(state, ready=(*state.ready, seat))
        case DreamersChosen(dreamers=dreamers, card=card_id):
            deck = state.deck[1:] if card_id else state.deck
            return replace(state, deck=deck, dream=card_id, dreamers=dreamers, step="pay")
        case DiePledged(requirement=index, character=who, slot=slot, value=value):
            return replace(state, pledges=(*state.pledges, Pledge(index, who, slot, value)))
        case DreamFulfilled(card=card_id, dreamers=dreamers, level=level):
            for pledge in state.pledges:
                card = remove(_card(state, pledge.character), pledge.slot, pledge.value)
                state = with_character(state, pledge.character, card)
            if len(dreamers) == 1:
                card = _card(state, dreamers[0])
                state = with_character(
                    state, dreamers[0], replace(card, insights=(*card.insights, card_id))
                )
            else:
                state = replace(state, discard=(*state.discard, card_id))
            return _morning(state, level, dreamed=True)
        case DreamFailed(card=card_id, level=level):
            worries = (*state.worries, card_id) if card_id else state.worries
            return _morning(replace(state, worries=worries), level, dreamed=False)
        case Ate(pocket_of=source, value=value):
            card = _card(state, source)
            return with_character(state, source, replace(card, pocket=value - 1))
        case ForageRolled(value=value, draws=draws):
            return replace(_rng(state, draws), forage=value, step="forage")
        case ForageStowed(character=who, value=value):
            card, _ = push_in(_card(state, who), value)
            return replace(with_character(state, who, card), forage=0)
        case CampBroken():
            return replace(state, phase="hike", step="")
        case FinalNightBegan(challenge=challenge, draws=draws):
            return replace(
                _rng(state, draws),
                challenge=challenge,
                placed=(0,) * len(challenge),
                phase="final_night",
                used_round=(),
            )
        case DiePlaced(character=who, slot=slot, value=value, space=space):
            state = with_character(state, who, remove(_card(state, who), slot, value))
            placed = (*state.placed[:space], value, *state.placed[space + 1 :])
            return replace(state, placed=placed)
        case JourneyEnded(result=result):
            return replace(state, result=result, phase="over", step="")
        case _:
            assert_never(event)


def _morning(state: GilEnnisState, level: int, *, dreamed: bool) -> GilEnnisState:
    return replace(
        state,
        worry_level=level,
        dreamed=dreamed,
        dream="",
        dreamers=(),
        pledges=(),
        phase="break",
        step="eat",
    )
