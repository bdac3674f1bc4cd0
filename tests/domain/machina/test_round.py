"""The base game's round: the explorer phase, the monster phase, health and the clock."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from msgspec.structs import replace

from domain.core.errors import IllegalAction, NotYourTurn
from domain.machina import GAME
from domain.machina.actions import Attack, EndTurn, Equip, Exit, Give, Interact, Move, UseItem
from domain.machina.content import ClockTick
from domain.machina.content_load import CONTENT
from domain.machina.events import (
    Attacked,
    ClockAdvanced,
    ExplorerOut,
    MonsterAttacked,
    MonsterKilled,
    MonsterMoved,
    RoundBegan,
    ScenarioEnded,
)
from domain.machina.rules.effects import resolve_horror
from domain.machina.rules.emitter import Emitter
from domain.machina.state import Item, MachinaState, hit_cost
from tests.domain.machina.helpers import (
    DUO,
    SOLO,
    actions,
    at,
    end_round,
    fresh,
    in_chapter,
    of_type,
    play,
    seeded,
    with_monster,
)


def test_set_up_lays_the_gatehouse_with_the_explorers_at_its_entry_token() -> None:
    state = fresh(DUO)
    assert [t.tile for t in state.tiles] == [CONTENT.scenario.start_tile]
    assert [(e.x, e.y) for e in state.explorers] == [(0, 1), (1, 1)]
    assert (state.phase, state.round, state.chapter) == ("explorers", 1, "gates")
    assert len(state.chapter_deck) == len(CONTENT.scenario.chapters) - 1


def test_explorers_act_in_any_order_until_each_has_ended_their_turn() -> None:
    state = fresh(DUO)
    assert GAME.to_act(state) == ("ada", "bram")
    state, _ = play(state, "bram", EndTurn())
    assert GAME.to_act(state) == ("ada",)
    state, _ = play(state, "ada", Move("s"))
    assert state.explorers[0].stamina == CONTENT.explorers["ada"].stamina - 1
    state, events = play(state, "ada", EndTurn())
    assert of_type(events, RoundBegan) == [RoundBegan(2)]
    assert [e.stamina for e in state.explorers] == [4, 4]  # refilled
    assert GAME.to_act(state) == ("ada", "bram")


def test_moving_costs_a_stamina_a_space_and_never_onto_an_obstacle_or_a_unit() -> None:
    state = with_monster(fresh(DUO), "cog-rat", 0, 2)
    moves = [a.to for a in actions(state) if isinstance(a, Move)]
    assert moves == []  # north a wall, east Bram, south a rat, west no tile
    assert [a.to for a in actions(state, "bram") if isinstance(a, Move)] == ["n", "s"]
    tired = at(state, "bram", 1, 1, stamina=0)
    assert actions(tired, "bram") == [EndTurn()]


def test_exit_tokens_lead_out_only_in_an_escape_chapter() -> None:
    state = at(fresh(DUO), "ada", 3, 0)  # the Gatehouse's exit token
    assert Exit() not in actions(state)
    assert Exit() in actions(in_chapter(state, "bridge"))


def _hit(state: MachinaState) -> tuple[MachinaState, MonsterAttacked, list[object]]:
    for seed in range(200):
        after, events = end_round(seeded(state, seed))
        attacks = of_type(events, MonsterAttacked)
        if attacks and attacks[0].hits:
            return after, attacks[0], list(events)
    raise AssertionError("no seed in 200 lets the monster hit")


def test_a_hit_costs_1_health_unless_a_horror_effect_says_otherwise() -> None:
    state = with_monster(at(fresh(SOLO), "ada", 1, 1), "cog-rat", 1, 2)
    assert hit_cost(state) == 1
    before = state.explorers[0].health
    after, attack, _ = _hit(state)
    assert attack.loss == attack.hits
    assert after.explorers[0].health == before - attack.loss


def test_an_explorer_at_0_health_is_out_and_with_all_out_the_scenario_is_lost() -> None:
    state = with_monster(at(fresh(SOLO), "ada", 1, 1, health=1), "cog-rat", 1, 2)
    after, _, events = _hit(state)
    assert of_type(events, ExplorerOut) == [ExplorerOut("ada")]
    assert of_type(events, ScenarioEnded) == [ScenarioEnded("lost", "fallen")]
    assert GAME.outcome(after) == "lost" and GAME.to_act(after) == ()


def test_a_monster_goes_for_the_nearest_explorer_the_first_seat_among_equals() -> None:
    state = at(at(fresh(DUO), "ada", 0, 2), "bram", 2, 2)
    state = with_monster(state, "rust-hound", 1, 2, health=9)  # next to both
    hound = state.monsters[-1].uid
    _, events = end_round(state)
    # Only the placed monster: the round's own spawn and horror phases may bring others.
    assert [e for e in of_type(events, MonsterMoved) if e.monster == hound] == []
    assert _attacks_by(events, hound)[0].explorer == "ada"
    state = with_monster(at(at(fresh(DUO), "ada", 0, 1), "bram", 2, 3), "cog-rat", 1, 0)
    rat = state.monsters[-1].uid
    _, events = end_round(state)
    moved = next(e for e in of_type(events, MonsterMoved) if e.monster == rat)
    assert (moved.x, moved.y) == (1, 1)  # one step to Ada; Bram is three away
    assert _attacks_by(events, rat)[0].explorer == "ada"


def _attacks_by(events: Sequence[object], monster: int) -> list[MonsterAttacked]:
    return [e for e in of_type(list(events), MonsterAttacked) if e.monster == monster]


def test_an_attack_rolls_the_weapons_dice_against_the_monsters_defense() -> None:
    state = with_monster(at(fresh(SOLO), "ada", 1, 1), "cog-rat", 1, 2)
    state, events = play(state, "ada", Attack("spanner", 1))
    attack = of_type(events, Attacked)[0]
    defense = CONTENT.monsters["cog-rat"].defense
    assert len(attack.dice) == CONTENT.items["spanner"].dice
    assert attack.hits == sum(1 for d in attack.dice if d >= defense)
    assert bool(of_type(events, MonsterKilled)) == (attack.hits >= 1)
    assert state.explorers[0].stamina == CONTENT.explorers["ada"].stamina - 1


def test_with_every_hand_full_equipping_an_item_unequips_another() -> None:
    assert CONTENT.ruleset.equip_slots == 1
    state = replace(
        fresh(SOLO), items=(Item("spanner", "ada", True), Item("tonic", "ada", False, 2))
    )
    assert [a for a in actions(state) if isinstance(a, Equip)] == [Equip("tonic", "spanner")]
    state, _ = play(state, "ada", Equip("tonic", "spanner"))
    assert [(i.card, i.equipped) for i in state.items] == [("spanner", False), ("tonic", True)]


def test_an_explorer_carries_at_most_two_items() -> None:
    assert CONTENT.ruleset.carry_limit == 2
    full = (Item("spanner", "ada", True), Item("tonic", "ada", False, 2))
    state = at(at(replace(fresh(DUO), items=full), "ada", 1, 1), "bram", 1, 2)
    assert not [a for a in actions(state) if isinstance(a, Interact)]  # the locker at 2,1
    state = replace(state, items=(*full, Item("rivet-gun", "bram", False, 3)))
    assert Give("rivet-gun", "ada") not in actions(state, "bram")


def test_a_healing_item_restores_you_or_a_neighbour() -> None:
    state = at(at(fresh(DUO), "ada", 1, 1, health=3), "bram", 1, 2, health=2)
    state = replace(state, items=(Item("tonic", "ada", True, 2),))
    heals = [a for a in actions(state) if isinstance(a, UseItem)]
    assert heals == [UseItem("tonic", "ada"), UseItem("tonic", "bram")]
    state, _ = play(state, "ada", UseItem("tonic", "bram"))
    assert state.explorers[1].health == 4


def test_the_clock_running_out_loses_the_scenario() -> None:
    state = replace(fresh(SOLO), clock=CONTENT.scenario.clock - 1)
    state, events = end_round(state)
    assert of_type(events, ScenarioEnded) == [ScenarioEnded("lost", "clock")]


def test_an_illegal_action_or_another_explorers_is_refused() -> None:
    state = fresh(DUO)
    with pytest.raises(IllegalAction):
        GAME.decide(state, "ada", Move("w"))  # nobody can
    assert Move("n") in actions(state, "bram") and Move("n") not in actions(state, "ada")
    with pytest.raises(NotYourTurn):
        GAME.decide(state, "ada", Move("n"))


def test_the_clock_stops_at_its_end_and_a_round_ending_there_loses() -> None:
    end = CONTENT.scenario.clock
    out = Emitter(replace(fresh(SOLO), clock=end - 1))
    resolve_horror(out, ClockTick(3))  # a horror card ticking past the end stops at it
    assert out.state.clock == end
    resolve_horror(out, ClockTick(1))
    assert out.events == [ClockAdvanced(end)]
    state, events = end_round(out.state)
    assert state.clock == end
    assert of_type(events, ScenarioEnded) == [ScenarioEnded("lost", "clock")]
