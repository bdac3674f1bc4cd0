"""The rules of an expedition: set-up, who may act, what they may do, and what it causes.

Every action is checked by membership in the candidate list that ``legal_actions`` also shows,
so the two cannot drift apart.
"""

from __future__ import annotations

from domain.core.errors import IllegalAction, NotYourTurn
from domain.core.memo import recent
from domain.core.rng import Chance
from domain.machina.actions import MachinaAction
from domain.machina.content_load import content
from domain.machina.events import ItemGained, RoundBegan, Shuffled, TilePlaced
from domain.machina.rules.chapters import next_chapter
from domain.machina.rules.emitter import Emitter
from domain.machina.rules.explorers import (
    Candidate,
    act,
    explorer_candidates,
    placing_candidates,
)
from domain.machina.rules.round import round_over_if_done
from domain.machina.rules.units import place_explorers
from domain.machina.state import MachinaState, board, explorer

__all__ = ["Candidate", "candidates", "decide", "play", "setup", "to_act"]


def to_act(state: MachinaState) -> tuple[str, ...]:
    if state.result != "running":
        return ()
    if state.phase == "placing":
        return tuple(e.id for e in state.explorers if e.status != "out")
    if state.phase == "explorers":
        return tuple(e.id for e in state.explorers if e.status == "map" and not e.ended)
    return ()


@recent
def candidates(state: MachinaState, seat: str) -> tuple[Candidate, ...]:
    """What ``seat`` may do now (remembered for the last few states and seats: see
    :mod:`domain.core.memo`)."""
    if seat not in to_act(state):
        return ()
    if state.phase == "placing":
        return tuple(placing_candidates(state))
    return tuple(explorer_candidates(state, explorer(state, seat)))


def play(state: MachinaState, seat: str, action: MachinaAction) -> Emitter:
    """The events of a legal ``action``, each with the state it leaves (no legality check)."""
    out = Emitter(state)
    act(out, seat, action)
    round_over_if_done(out)
    return out


def decide(state: MachinaState, seat: str, action: object) -> Emitter:
    if state.result != "running":
        raise IllegalAction("The expedition is over; no more actions can be taken.")
    if seat not in state.seats:
        raise IllegalAction(f"There is no seat {seat!r} in this campaign.")
    found = next((c for c in candidates(state, seat) if c.action == action), None)
    if found is None:
        for other in to_act(state):
            if any(c.action == action for c in candidates(state, other)):
                raise NotYourTurn(f"That action belongs to {content().explorers[other].name}.")
        raise IllegalAction(f"The action {action!r} is not open to {seat!r} now.")
    return play(state, seat, found.action)


def setup(state: MachinaState) -> Emitter:
    """Shuffle the decks, hand out the explorers' own items, lay the start tile with the explorers
    at its entry token, and let the first chapter enter play."""
    out = Emitter(state)
    chance = Chance(state.rng)
    taken = {i for seat in state.seats for i in content().explorers[seat].items}
    decks = (
        ("map", [t for t in content().map_tiles if t != content().scenario.start_tile]),
        (
            "monster",
            [m.id for m in content().monsters.values() if m.tier == 1 for _ in range(m.copies)],
        ),
        ("horror", list(content().horrors)),
        ("item", [i for i in content().items if i not in taken]),
    )
    for deck, cards in decks:
        order = chance.shuffled(cards)
        out.emit(Shuffled(deck, order, len(order), chance.rng.draws))
    for seat in state.seats:
        for index, card in enumerate(content().explorers[seat].items):
            ready = index < content().ruleset.equip_slots
            out.emit(ItemGained(seat, card, content().items[card].charges, ready, "start"))
    out.emit(TilePlaced(content().scenario.start_tile, "map", 0, 0, 0, 0, "start"))
    found = board(out.state)
    entry = next(p for p, space in found.spaces.items() if space.symbol == "E")
    place_explorers(out, entry)
    next_chapter(out)
    out.emit(RoundBegan(1))
    return out
