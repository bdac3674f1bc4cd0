"""Spawn and horror rating sliders, in Eternity chapters.

"In regular chapters, you roll to spawn monsters and invoke horror events, but Eternity chapters
introduce a new approach to the spawn and horror phases."
"""

from __future__ import annotations

from domain.machina.content_load import CONTENT
from domain.machina.events import (
    DieRolled,
    EffectBegan,
    EffectsCancelled,
    HorrorInvoked,
    MonsterAppeared,
    MonsterAttacked,
    RatingsLowered,
    SpawnRatingReset,
    ThreatRaised,
)
from domain.machina.state import Effect, MachinaState, hit_cost
from tests.domain.machina.helpers import (
    SOLO,
    TRIO,
    at,
    end_round,
    fresh,
    in_chapter,
    of_type,
    seeded,
    tag_of,
    tags,
    with_monster,
)

CLOCK = CONTENT.chapter("clock")  # eternity: haste at spawn 3, a horror event at horror 4


def _clock(**fields: object) -> MachinaState:
    return in_chapter(fresh(SOLO), "clock", **fields)


def test_the_spawn_phase_cancels_the_spawn_effects_in_force_then_resolves_those_at_the_rating() -> (
    None
):
    """ "At the start of spawn phase: - Cancel all spawn effects that currently influence the game.
    - Resolve all spawn effects that are equal to the current spawn rating.\""""
    assert [(r.at, tag_of(r.effect)) for r in CLOCK.spawn_effects] == [(3, "haste")]
    state = _clock(spawn_rating=3, spawn_effects=(Effect("haste", 1),))
    state, events = end_round(state)
    spawn = tags(events)[tags(events).index("phase_began") :]
    assert spawn[:3] == ["phase_began", "effects_cancelled", "effect_began"]
    assert of_type(events, EffectsCancelled)[0].which == "spawn"
    began = of_type(events, EffectBegan)[0]
    assert (began.which, began.kind, began.amount) == ("spawn", "haste", 1)
    assert state.spawn_effects == (Effect("haste", 1),)


def test_a_spawn_effect_at_another_rating_is_cancelled_and_not_resolved_again() -> None:
    state, events = end_round(_clock(spawn_rating=4, spawn_effects=(Effect("haste", 1),)))
    assert [e.which for e in of_type(events, EffectsCancelled)] == ["spawn"]
    assert not [e for e in of_type(events, EffectBegan) if e.which == "spawn"]
    assert state.spawn_effects == ()


def test_the_horror_phase_cancels_the_horror_effects_in_force_then_resolves_those_at_rating() -> (
    None
):
    """ "At the start of horror phase: - Cancel all horror effects that currently influence the
    game. - Resolve all horror effects that are equal to the current horror rating.\""""
    assert [(r.at, tag_of(r.effect)) for r in CLOCK.horror_effects] == [(4, "invoke")]
    state = _clock(horror_rating=4, horror_effects=(Effect("seal", 0),))
    state, events = end_round(state)
    names = tags(events)
    horror = names.index("phase_began", names.index("phase_began") + 1)
    assert names[horror + 1 : horror + 3] == ["effects_cancelled", "horror_invoked"]
    assert of_type(events, EffectsCancelled)[0].which == "horror"
    assert of_type(events, ThreatRaised)[0].threat == 1
    invoked = of_type(events, HorrorInvoked)[0].card
    assert all(e.kind != "seal" for e in state.horror_effects) or invoked == "sealed-bulkheads"


def test_eternity_chapters_roll_no_die() -> None:
    _, events = end_round(_clock(spawn_rating=5, horror_rating=5))
    assert of_type(events, DieRolled) == []


def test_at_the_end_of_the_round_each_rating_above_1_is_lowered_by_1() -> None:
    """ "At the end of the round: - If horror's rating is not 1, lower it by 1. - If spawn's
    rating is not 1, lower it by 1.\""""
    state, events = end_round(_clock(spawn_rating=5, horror_rating=3))
    assert of_type(events, RatingsLowered) == [RatingsLowered(4, 2)]
    assert (state.spawn_rating, state.horror_rating) == (4, 2)


def test_a_rating_at_1_is_not_lowered() -> None:
    state, events = end_round(_clock(spawn_rating=4, horror_rating=1))
    assert of_type(events, RatingsLowered) == [RatingsLowered(3, 1)]
    assert state.horror_rating == 1


def test_at_spawn_rating_1_each_explorer_spawns_a_monster_then_the_rating_resets() -> None:
    """ "At the start of a spawn phase, when the current spawn rating is 1 - each explorer will
    spawn a monster, then the spawn rating will be reset.\""""
    state = in_chapter(fresh(TRIO), "clock", spawn_rating=1, horror_rating=5)
    state, events = end_round(state)
    spawned = of_type(events, MonsterAppeared)
    assert [m.by for m in spawned] == ["ada", "bram", "cyra"]
    assert all(m.source == "deck" for m in spawned)
    names = tags(events)
    assert names.index("spawn_rating_reset") > max(
        i for i, n in enumerate(names) if n == "monster_appeared"
    )
    assert of_type(events, SpawnRatingReset) == [SpawnRatingReset(CLOCK.spawn)]
    # reset to the chapter's start, then lowered like any rating at the end of the round
    assert state.spawn_rating == CLOCK.spawn - 1


def _attacked(state: MachinaState) -> tuple[MachinaState, MonsterAttacked]:
    """The round played with a Cog Rat next to Ada, on the first seed where it hits her."""
    for seed in range(200):
        after, events = end_round(seeded(state, seed))
        attacks = of_type(events, MonsterAttacked)
        if attacks and attacks[0].hits:
            return after, attacks[0]
    raise AssertionError("no seed in 200 lets the rat hit")


def _rat_next_to_ada(**fields: object) -> MachinaState:
    state = at(_clock(**fields), "ada", 1, 1)
    return with_monster(state, "cog-rat", 1, 2)


def test_at_horror_rating_2_each_hit_costs_2_health_until_the_next_horror_phase() -> None:
    """ "At the start of a horror phase, when the current horror rating is 2 - whenever an explorer
    is hit, they will lose 2 health instead of 1. This effect lasts until the next horror
    phase.\""""
    state, attack = _attacked(_rat_next_to_ada(spawn_rating=5, horror_rating=2))
    assert attack.loss == 2 * attack.hits
    # still in force through the next explorer phase, with the rating now at 1 ...
    assert state.horror_rating == 1 and hit_cost(state) == 2
    # ... until the next horror phase cancels it (and rating 1 brings its own)
    _, events = end_round(state)
    names = tags(events)
    horror = [i for i, n in enumerate(names) if n == "phase_began"][1]
    assert names[horror + 1 : horror + 3] == ["effects_cancelled", "effect_began"]
    assert of_type(events, EffectBegan)[-1] == EffectBegan("horror", "hit_cost", 3)


def test_at_horror_rating_1_each_hit_costs_3_health_resolved_again_every_round() -> None:
    """ "At the start of a horror phase, when the current horror rating is 1 - whenever an explorer
    is hit, they will lose 3 health instead of 1. This effect lasts indefinitely as it will be
    resolved every round (the horror rating does not reset).\""""
    state, attack = _attacked(_rat_next_to_ada(spawn_rating=5, horror_rating=1))
    assert attack.loss == 3 * attack.hits
    for _ in range(3):
        state = at(state, "ada", 1, 1, health=CONTENT.explorers["ada"].health)
        state, events = end_round(state)
        assert EffectsCancelled("horror") in of_type(events, EffectsCancelled)
        horror = [e for e in of_type(events, EffectBegan) if e.which == "horror"]
        assert horror == [EffectBegan("horror", "hit_cost", 3)]
        assert state.horror_rating == 1 and hit_cost(state) == 3


def test_regular_chapters_roll_the_game_die_against_their_ratings() -> None:
    """Our base rule for regular chapters: the game die against the spawn and horror ratings."""
    state = fresh(SOLO)
    gates = CONTENT.chapter("gates")
    assert gates.kind == "regular"
    _, events = end_round(state)
    rolls = of_type(events, DieRolled)
    assert [r.purpose for r in rolls] == ["spawn", "horror"]
    # A horror card may bring monsters of its own: only the spawn phase's answer the spawn roll.
    spawn_phase = events[events.index(rolls[0]) : events.index(rolls[1])]
    assert bool(of_type(spawn_phase, MonsterAppeared)) == (rolls[0].face >= gates.spawn)
    assert bool(of_type(events, HorrorInvoked)) == (rolls[1].face >= gates.horror)
