"""A greedy Eila player: it goes for the goal and keeps Energy for the night.

It scores every legal action and takes the best, the first of equals; pure, no chance. In a
combat it rolls, then spends Energy and casts spells only while they turn a loss into a win. It
answers a quiz card once one of the choices appears in the text of a card it has met (the way a
player looks for hints), and guesses on the last night otherwise. In the mine it walks towards
the nearest location event it can see, or into the unknown. At a market it buys a card while
its best option is worth more than its price; on the mountain it values going onward to a new
location, and counts a fight on despite injuries as every loss it may take before a win.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from domain.core.game import Game, LegalAction
from domain.eila.actions import (
    Abandon,
    Answer,
    Buy,
    ChooseOption,
    ConfirmAbandon,
    Convert,
    Dawn,
    Discard,
    EndSubmissions,
    Fight,
    LocationAction,
    MakeRoom,
    PayOrHurt,
    PickItem,
    Roll,
    SpendEnergy,
    Step,
    StopBuying,
    StopMoving,
    Submit,
    Take,
    Use,
)
from domain.eila.content import ContentPack, Effect, Option
from domain.eila.game import EilaGame
from domain.eila.rules.abilities import ability_of
from domain.eila.rules.combat import combat_value, enemy_value
from domain.eila.rules.conditions import option_blocker
from domain.eila.rules.frames import pending
from domain.eila.rules.holdings import die_bonus, green_doubled, has_trait
from domain.eila.rules.mine import MOVES, grid_at, mine_of
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


def _hurt(state: EilaState, amount: int) -> float:
    return -8.0 * amount if state.hp > amount else -100.0


def _win_chance(pack: ContentPack, state: EilaState, enemy: str) -> float:
    """The chance to win a fight with every Energy spent, over the faces of the dice."""
    against = enemy_value(pack, state, enemy)
    base = die_bonus(pack, state) + state.resources.energy * pack.ruleset.energy_boost
    reds = pack.ruleset.dice["red"].faces
    greens = pack.ruleset.dice["green"].faces if "green" in state.dice else ()
    double = 2 if green_doubled(pack, state) else 1
    outcomes = [r.value + base + double * g.value for r in reds for g in greens] or [
        r.value + base for r in reds
    ]
    return sum(value >= against for value in outcomes) / len(outcomes)


def _effects_score(pack: ContentPack, state: EilaState, effects: tuple[Effect, ...]) -> float:
    return sum(_effect_score(pack, state, e) for e in effects)


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
        case "lose" | "pay_or_hp":
            return -effect.amount * _unit(pack, state, effect.resource) * 0.8
        case "item":
            return 3.0 if any(i not in state.items for i in effect.items) else 0.0
        case "discard_item":
            return -2.0 * effect.count
        case "heart":
            return 5.0 if state.hp < state.max_hp else 0.0
        case "broken_heart":
            return _hurt(state, effect.amount)
        case "support":
            return 4.0 if effect.card not in state.supports else 0.0
        case "die":
            return 3.0 if effect.name not in state.dice else 0.0
        case "fight":
            chance = _win_chance(pack, state, effect.name)
            won = _effects_score(pack, state, effect.won)
            lost = _effects_score(pack, state, effect.lost)
            if effect.repeat:
                # Fighting on: every loss is paid for until a win, (1 - p) / p of them on average.
                return won + lost * (1 - chance) / max(chance, 0.05)
            return chance * won + (1 - chance) * lost
        case "if":
            return 0.5 * _effects_score(pack, state, effect.then)
        case "quiz":
            return 2.0
        case "move":
            return 1.0
        case "trigger":
            return 2.0
        case "ending":
            return 1000.0
        case "market":
            worth = [
                _bought_worth(pack, state, card)
                for card in dict(state.markets).get(effect.name, ())
            ]
            return max([0.0, *worth])
        case "location_action":
            return max(
                [0.0, *(_option_score(pack, state, o) for o in _location_options(pack, state))]
            )
        case "onward":
            return 4.0 if effect.card in state.trail_deck else 0.0
    return 0.5


def _location_options(pack: ContentPack, state: EilaState) -> list[Option]:
    if not state.trail:
        return []
    card = pack.card(state.trail[-1], state.mode)
    return [o for o in card.options if option_blocker(pack, state, o) is None]


def _bought_worth(pack: ContentPack, state: EilaState, card: str) -> float:
    """What a market card is worth once bought: its best option later, less its price now."""
    market = next(m for m in pack.chapters[state.chapter].markets if card in m.cards)
    if any(have(state.resources, r) < n for r, n in market.price):
        return 0.0
    price = sum(n * _unit(pack, state, r) for r, n in market.price)
    best = max(_option_score(pack, state, o) for o in pack.card(card, state.mode).options)
    return best - price


def _option_score(pack: ContentPack, state: EilaState, option: Option) -> float:
    score = _effects_score(pack, state, option.effects)
    return score + (1.0 if option.destination == "future" else 0.0)


def _seen_text(pack: ContentPack, state: EilaState) -> str:
    """What the cards Eila has met this chapter say, in lower case."""
    met = (*state.past, *state.future, state.present)
    return " ".join(pack.card(n, state.mode).text for n in met if n).lower()


def answer_score(pack: ContentPack, state: EilaState, quiz: str, choice: str) -> float:
    text = dict(pack.quizzes[quiz].choices)[choice].lower()
    for article in ("a ", "an ", "the ", "on "):
        text = text.removeprefix(article)
    if text in _seen_text(pack, state):
        return 300.0 - ord(choice)
    last_night = state.phase == "night" and state.day >= pack.ruleset.time_track
    return 200.0 - ord(choice) if last_night else -1.0


def _combat_score(pack: ContentPack, state: EilaState, action: object) -> float | None:
    combat = state.combat
    if combat is None:
        return None
    short = enemy_value(pack, state, combat.enemy) - combat_value(pack, state, combat)
    match action:
        case Roll():
            return 900.0
        case Fight():
            return 800.0
        case SpendEnergy() if short > 0 and short <= _reach(pack, state):
            return 850.0
        case Use(card=card) if combat.rolled and short > 0:
            ability = ability_of(pack, card)
            gives = 0 if ability is None else ability.gives.combat
            return 860.0 if gives and short <= _reach(pack, state) + gives else -5.0
    return None


def _reach(pack: ContentPack, state: EilaState) -> int:
    return state.resources.energy * pack.ruleset.energy_boost


def _use_score(pack: ContentPack, state: EilaState, card: str) -> float:
    ability = ability_of(pack, card)
    if ability is None or ability.timing == "combat":
        return -5.0
    gives = ability.gives
    if gives.hp and state.hp <= state.max_hp - gives.hp and state.hp <= 2:
        return 700.0
    wanted = [r for r in gives.resources if still_needed(pack, state, r) > have(state.resources, r)]
    costly = [r for r in ability.cost if still_needed(pack, state, r) > 0 and r != "fear"]
    if wanted and not costly:
        return 600.0
    if "fear" in ability.cost and state.resources.fear >= 4:
        return 550.0
    return -5.0


def _step_score(pack: ContentPack, state: EilaState, step: Step) -> float:
    """Steps towards the nearest location event in sight, else into unknown tiles."""
    assert state.mine is not None
    distance = _distance_after(pack, state, step.direction)
    cost = {"energy": 3.0, "hp": 10.0}.get(step.pay, 0.0)
    dx, dy = MOVES[step.direction]
    there = grid_at(pack, state, state.mine.token[0] + dx, state.mine.token[1] + dy)
    dark = 3.0 if there is not None and there.dark and _face_up(pack, state, step) else 0.0
    return 400.0 - 10.0 * distance - cost - dark


def _face_up(pack: ContentPack, state: EilaState, step: Step) -> bool:
    mine = mine_of(pack, state)
    assert mine is not None and state.mine is not None
    dx, dy = MOVES[step.direction]
    x, y = state.mine.token[0] + dx, state.mine.token[1] + dy
    slot = next((i for i, s in enumerate(mine.slots) if (s.col, s.row) == (x // 2, y // 2)), None)
    return slot in state.mine.face_up


def _target(pack: ContentPack, state: EilaState, x: int, y: int) -> bool:
    assert state.mine is not None
    grid = grid_at(pack, state, x, y)
    if grid is None:
        return False
    return grid.location in state.location_deck and grid.location not in state.mine.covered


def _distance_after(pack: ContentPack, state: EilaState, direction: str) -> int:
    """Grids from the grid ``direction`` leads to, to the nearest target, over face-up tiles."""
    mine = mine_of(pack, state)
    assert mine is not None and state.mine is not None
    dx, dy = MOVES[direction]
    start = (state.mine.token[0] + dx, state.mine.token[1] + dy)
    seen = {start}
    queue = deque([(start, 0)])
    while queue:
        (x, y), far = queue.popleft()
        slot = next(
            (i for i, s in enumerate(mine.slots) if (s.col, s.row) == (x // 2, y // 2)), None
        )
        if slot is None:
            continue
        if slot not in state.mine.face_up:
            return far + 1  # the unknown is worth a look
        if (x, y) != state.mine.token and _target(pack, state, x, y):
            return far
        grid = grid_at(pack, state, x, y)
        assert grid is not None
        for index, (mx, my) in enumerate(MOVES.values()):
            side = grid.sides[index]
            if side == "wall" or (side == "passage" and not has_trait(pack, state, "magnifier")):
                continue
            nxt = (x + mx, y + my)
            if nxt not in seen:
                seen.add(nxt)
                queue.append((nxt, far + 1))
    return 50


def _score(pack: ContentPack, state: EilaState, action: object) -> float:
    fighting = _combat_score(pack, state, action)
    if fighting is not None:
        return fighting
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
            card = pack.card(state.present, state.mode)
            option = next(o for o in card.options if o.letter == letter)
            return 100.0 + _option_score(pack, state, option)
        case LocationAction(letter=letter) if letter:
            card = pack.card(state.trail[-1], state.mode)
            option = next(o for o in card.options if o.letter == letter)
            return 100.0 + _option_score(pack, state, option)
        case LocationAction():
            return 100.0
        case Convert(conversion=cid):
            return _conversion_score(pack, state, cid)
        case Use(card=card):
            return _use_score(pack, state, card)
        case Answer(quiz=quiz, choice=choice):
            return answer_score(pack, state, quiz, choice)
        case Step():
            return _step_score(pack, state, action)
        case StopMoving():
            assert state.mine is not None
            if not _target(pack, state, *state.mine.token):
                return 300.0
            return 450.0 if state.frames[-1].done else 385.0
        case Buy(card=card):
            return 20.0 + _bought_worth(pack, state, card)
        case StopBuying():
            return 20.0
        case PayOrHurt(pay=pay):
            return 20.0 if pay or state.hp > 3 else 10.0
        case Dawn(last=last):
            return 0.0 if last else 1.0
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
    effect = pending(state)
    if effect is not None and effect.kind == "fight" and conv.get == "energy":
        return 500.0  # more Energy to spend in the fight ahead
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
