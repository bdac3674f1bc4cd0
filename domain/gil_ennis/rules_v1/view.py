"""What a seat sees: everything on the table, without the seed or the dream deck's order.

Gil & Ennis has no secrets between the characters, so every seat (and a spectator) sees the same.
"""

from __future__ import annotations

import msgspec

from domain.gil_ennis.rules_v1.rules.common import campsite
from domain.gil_ennis.rules_v1.state import Character, GilEnnisState, Pledge, pool, worry_dice


class GilEnnisView(msgspec.Struct, frozen=True):
    seat: str | None
    seats: tuple[str, ...]
    phase: str
    step: str
    day: int
    campsite: str
    path: str
    worry_level: int
    worry_dice: tuple[int, ...]
    pool: int
    deck_count: int
    discard: tuple[str, ...]
    worries: tuple[str, ...]
    gil: Character
    ennis: Character
    dream: str
    dreamers: tuple[str, ...]
    pledges: tuple[Pledge, ...]
    dreamed: bool
    special_used: bool
    used_round: tuple[str, ...]
    used_game: tuple[str, ...]
    ready: tuple[str, ...]
    forage: int
    challenge: tuple[int, ...]
    placed: tuple[int, ...]
    result: str


def view(state: GilEnnisState, seat: str | None) -> GilEnnisView:
    site = campsite(state)
    if site is not None:
        where = site.id
    else:
        where = "summit" if state.challenge or state.phase == "final_night" else "home"
    on_map = () if state.challenge or state.phase == "setup" else worry_dice(state.worry_level)
    return GilEnnisView(
        seat=seat,
        seats=state.seats,
        phase=state.phase,
        step=state.step,
        day=state.day,
        campsite=where,
        path=state.path,
        worry_level=state.worry_level,
        worry_dice=on_map,
        pool=pool(state),
        deck_count=len(state.deck),
        discard=state.discard,
        worries=state.worries,
        gil=state.gil,
        ennis=state.ennis,
        dream=state.dream,
        dreamers=state.dreamers,
        pledges=state.pledges,
        dreamed=state.dreamed,
        special_used=state.special_used,
        used_round=state.used_round,
        used_game=state.used_game,
        ready=state.ready,
        forage=state.forage,
        challenge=state.challenge,
        placed=state.placed,
        result=state.result,
    )
