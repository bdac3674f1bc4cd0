"""The designed threat, read from the content: it grows with the party (see RULES_NOTES.md,
"Balance"), and the Eternity chapters are short enough in their ratings for the sliders to bite."""

from __future__ import annotations

from domain.machina import GAME
from domain.machina.content import TreatAsExit
from domain.machina.content_load import CONTENT
from domain.machina.rules.explorers import interact_cost
from domain.machina.state import MachinaState
from tests.domain.machina.helpers import DUO, FOUR, SOLO, TRIO, fresh, in_chapter

PARTIES = (SOLO, DUO, TRIO, FOUR)


def test_the_wardens_health_grows_by_two_with_each_explorer() -> None:
    warden = CONTENT.monsters["brass-warden"]
    assert [warden.health_for(len(p)) for p in PARTIES] == [6, 8, 10, 12]
    assert (warden.defense, warden.attack) == (4, 2)


def test_the_custodian_hits_harder_and_lasts_longer_with_each_explorer() -> None:
    custodian = CONTENT.monsters["custodian"]
    assert [custodian.attack_for(len(p)) for p in PARTIES] == [3, 4, 5, 6]
    assert [custodian.health_for(len(p)) for p in PARTIES] == [5, 8, 11, 14]


def test_the_engine_and_the_escapement_need_more_turns_with_each_explorer() -> None:
    engine = next(c for c in CONTENT.scenario.endgame.cards if c.id == "engine-card")
    assert [engine.charges_for(len(p)) for p in PARTIES] == [3, 9, 15, 21]
    clock = CONTENT.chapter("clock")
    assert [clock.charges_for(len(p)) for p in PARTIES] == [2, 4, 6, 8]


def test_working_the_engine_or_the_escapement_costs_two_stamina() -> None:
    for tile, letter in (("engine-heart", "m"), ("clock-chamber", "z")):
        assert interact_cost(CONTENT.chapter_tiles[tile].actions[letter]) == 2
    assert interact_cost(CONTENT.map_tiles["gatehouse"].actions["c"]) == 1  # searching


def test_the_warden_enters_play_with_its_partys_health() -> None:
    for party in PARTIES:
        state: MachinaState = in_chapter(fresh(party), "gates")
        state = _flip_into_the_orrery(state)
        warden = next(m for m in state.monsters if m.card == "brass-warden")
        assert warden.health == CONTENT.monsters["brass-warden"].health_for(len(party))


def _flip_into_the_orrery(state: MachinaState) -> MachinaState:
    """Play the first explorer until the Gatehouse's objective flips it (explore one tile)."""
    while state.chapter == "gates":
        seat = GAME.to_act(state)[0]
        legal = GAME.legal_actions(state, seat)
        chosen = next(
            (a for a in legal if a.id.startswith(("place", "explore"))),
            next((a for a in legal if a.id.startswith("move")), legal[-1]),
        )
        for event in GAME.decide(state, seat, chosen.action):
            state = GAME.evolve(state, event)
    return state


def test_the_gear_bridges_ways_out_lie_beyond_the_orrery_hall() -> None:
    hall = CONTENT.chapter_tiles["orrery-hall"]
    assert not any("X" in row for row in hall.rows)
    exits = [a for a in CONTENT.chapter("bridge").enters_play if isinstance(a, TreatAsExit)]
    assert {a.label for a in exits} == {"far-gate", "wheel-hatch"}


def test_every_eternity_chapter_reaches_its_low_ratings_in_a_few_rounds() -> None:
    chapters = (*CONTENT.scenario.chapters, CONTENT.scenario.endgame)
    ratings = {c.id: (c.spawn, c.horror) for c in chapters if c.kind == "eternity"}
    assert ratings == {"orrery": (3, 4), "bridge": (2, 3), "clock": (3, 4), "eternity": (3, 3)}
