"""A greedy Eila player: it goes for the goal and keeps Energy for the night.

It scores every legal action and takes the best, the first of equals; pure, no chance.
"""

from __future__ import annotations

from typing import Any

from domain.core.game import Game, LegalAction
from domain.eila.actions import (
    Abandon,
    ChooseOption,
    ConfirmAbandon,
    Convert,
    Discard,
    EndSubmissions,
    MakeRoom,
    PickItem,
    Submit,
    Take,
)
from domain.eila.content import ContentPack, Effect, Option
from domain.eila.game import EilaGame
from domain.eila.rules.storage import free_space, have, still_needed
from domain.eila.state import EilaState

# Rough worth of one unit of a resource the goal does not ask for.
_WORTH = {"food": 1.0, "coin": 1.0, "stone": 1.5, "knowledge": 0.7, "energy": 2.0, "fear": -1.5}


def _unit(pack: ContentPack, state: EilaState, resource: str) -> float:
    if resource == "fear":
        # Fear crowds out Energy and, past the maximum, costs HP.
        return -1.0 - state.resources.fear / 2
    if still_needed(pack, state, resource) > have(state.resources, resource):
        return 6.0
    if resource == "energy" and state.resources.energy < 2:
        return 4.0
    return _WORTH[resource]


def _effect_score(pack: ContentPack, state: EilaState, effect: Effect) -> float:
    match effect.kind:
        case "gain" if effect.resource == "fear":
            overflow = max(0, state.resources.fear + effect.amount - pack.ruleset.fear_max)
            return effect.amount * _unit(pack, state, "fear") - 8.0 * overflow
        case "gain":
            room = free_space(pack, state.resources, effect.resource)
            return min(effect.amount, room) * _unit(pack, state, effect.resource)
        case "lose" if effect.resource == "fear":
            return effect.amount * 1.5
        case "lose" if still_needed(pack, state, effect.resource) > 0:
            return -effect.amount * 6.0
        case "lose":
            return -effect.amount * _unit(pack, state, effect.resource) * 0.8
        case "item":
            return 3.0 if any(i not in state.items for i in effect.items) else 0.0
        case "discard_item":
            return -2.0 * effect.count
        case "heart":
            return 5.0 if state.hp < state.max_hp else 0.0
        case "broken_heart":
            return -8.0 * effect.amount if state.hp > effect.amount else -100.0
        case _:
            return 0.5


def _option_score(pack: ContentPack, state: EilaState, option: Option) -> float:
    score = sum(_effect_score(pack, state, e) for e in option.effects)
    return score + (1.0 if option.destination == "future" else 0.0)


def _score(pack: ContentPack, state: EilaState, action: object) -> float:
    match action:
        case Submit():
            return 1000.0
        case Take(amount=amount):
            return 100.0 + amount
        case PickItem() | MakeRoom(resource="knowledge"):
            return 50.0
        case MakeRoom():
            return 40.0
        case ChooseOption(letter=letter):
            card = pack.cards[state.present]
            option = next(o for o in card.options if o.letter == letter)
            return 100.0 + _option_score(pack, state, option)
        case Convert(conversion=cid):
            return _conversion_score(pack, state, cid)
        case Discard():
            return -1000.0
        case EndSubmissions():
            return 0.0
        case Abandon():
            return -1e9
        case ConfirmAbandon(yes=yes):
            return -1e9 if yes else 1e9
    return 10.0


def _conversion_score(pack: ContentPack, state: EilaState, cid: str) -> float:
    conv = pack.conversions[cid]
    needed = still_needed(pack, state, conv.give)
    spare = have(state.resources, conv.give) - needed
    if spare < conv.give_amount:
        return -1.0
    wanted = still_needed(pack, state, conv.get) > have(state.resources, conv.get)
    short_of_energy = conv.get == "energy" and state.resources.energy == 0
    if state.phase == "night" and (short_of_energy or wanted):
        return 500.0
    return 2000.0 if wanted else -1.0


def greedy_choice(pack: ContentPack, state: EilaState, legal: list[LegalAction]) -> LegalAction:
    return max(legal, key=lambda la: _score(pack, state, la.action))


class EilaGreedy:
    """The :class:`~domain.bots.Bot` that plays Eila's one seat greedily."""

    def __init__(self, game: EilaGame) -> None:
        self._game = game

    def choose(self, game: Game, state: Any) -> tuple[str, LegalAction]:
        (seat,) = game.to_act(state)
        return seat, greedy_choice(self._game.pack, state, game.legal_actions(state, seat))
