from __future__ import annotations

from typing import Any

import msgspec
import pytest

from domain.core.errors import IllegalAction, NotYourTurn
from domain.gil_ennis import GAME
from domain.gil_ennis.actions import EndClimb, Hike, Organize, Place, UsePower
from domain.gil_ennis.content import CONTENT, DREAMS
from domain.gil_ennis.events import DieDiscarded, FinalNightBegan, JourneyEnded
from domain.gil_ennis.state import pool
from tests.domain.gil_ennis.helpers import COOP, actions, build, card, of_type, play

VALLEY = min(CONTENT.map.paths, key=lambda p: len(p.campsites)).id
LAST_DAY = len(CONTENT.map.route(VALLEY))


def _arrive(seats: tuple[str, ...] = ("player",), **fields: Any) -> tuple[Any, list[Any]]:
    fields.setdefault("gil", card(5, (3,), 2))
    fields.setdefault("ennis", card(6, (1,), 4))
    state = build(seats, phase="hike", day=LAST_DAY, path=VALLEY, **fields)
    return play(state, seats[0], Hike())


def _night(seats: tuple[str, ...] = ("player",), **fields: Any) -> Any:
    challenge = fields.pop("challenge")
    return build(
        seats,
        phase="final_night",
        day=LAST_DAY + 1,
        path=VALLEY,
        challenge=challenge,
        placed=(0,) * len(challenge),
        **fields,
    )


def test_the_worry_dice_carry_over_onto_mount_humbaba() -> None:
    state, events = _arrive(worry_level=8)
    assert events[-1] == FinalNightBegan((6, 2), state.rng.draws)
    assert state.challenge == (6, 2) and state.placed == (0, 0)
    # The worry dice left the map for the mountain: the pool is unchanged.
    assert pool(state) == 14 - 6 - 2


def test_worries_add_dice_in_the_order_they_were_gained() -> None:
    # The Tide Remembers adds a 5; A Missed Note adds a 2.
    state, _ = _arrive(worry_level=3, worries=("lantern-under-water", "salt-choir"))
    assert state.challenge == (3, 5, 2)


def test_a_rolled_worry_rolls_dice_from_the_pool() -> None:
    # Echoes rolls three dice.
    state, events = _arrive(worry_level=2, worries=("grandmothers-bell",))
    assert len(state.challenge) == 4 and state.challenge[0] == 2
    assert all(1 <= v <= 6 for v in state.challenge)
    assert events[-1].draws > 0


def test_worry_dice_need_pool_dice() -> None:
    # Ten inventory dice and two worry dice leave two in the pool for three wanted dice.
    state, _ = _arrive(
        worry_level=9,
        worries=("lantern-under-water", "salt-choir", "clockmakers-orchard"),
        gil=card(5, (3, 3, 3), 2),
        ennis=card(6, (1, 1, 1), 4),
    )
    assert state.challenge == (6, 3, 5, 2)


def test_the_door_swings_adds_a_six() -> None:
    state, _ = _arrive(worry_level=1, worries=("salt-choir", "door-in-the-riverbank"))
    assert state.challenge == (1, 2, 6)


def test_a_raise_lowest_worry_raises_the_lowest_die(monkeypatch: pytest.MonkeyPatch) -> None:
    # No shipped card raises a die since content 2; a content pack may.
    door = DREAMS["door-in-the-riverbank"]
    raising = msgspec.structs.replace(door.worry, kind="raise_lowest", value=2)
    monkeypatch.setitem(DREAMS, door.id, msgspec.structs.replace(door, worry=raising))
    state, _ = _arrive(worry_level=1, worries=("salt-choir", "door-in-the-riverbank"))
    assert state.challenge == (3, 2)


def test_the_wolf_takes_both_pocket_dice() -> None:
    state, events = _arrive(worry_level=3, worries=("paper-wolf",))
    assert DieDiscarded("gil", "pocket", 2) in events
    assert DieDiscarded("ennis", "pocket", 4) in events
    assert state.gil.pocket == 0 and state.ennis.pocket == 0


def test_matching_every_challenge_die_wins() -> None:
    state = _night(challenge=(5, 1), gil=card(5, (3,), 2), ennis=card(6, (1,), 4))
    assert of_type(state, Place) == [Place("gil", "hand", 5), Place("ennis", "backpack", 1)]
    state, _ = play(state, "player", Place("gil", "hand", 5))
    assert state.placed == (5, 0)
    assert state.gil.hand == 0
    state, events = play(state, "player", Place("ennis", "backpack", 1))
    assert events[-1] == JourneyEnded("won", "summit")
    assert GAME.outcome(state) == "won"
    assert GAME.legal_actions(state, "player") == []


def test_a_die_of_another_value_cannot_be_placed() -> None:
    state = _night(challenge=(5,), gil=card(4, (), 2), ennis=card(6, (), 4))
    assert of_type(state, Place) == []
    with pytest.raises(IllegalAction):
        play(state, "player", Place("gil", "hand", 4))


def test_giving_up_the_climb_loses() -> None:
    state = _night(challenge=(5, 5), gil=card(5, (), 2), ennis=card(6, (), 4))
    state, _ = play(state, "player", Place("gil", "hand", 5))
    state, events = play(state, "player", EndClimb())
    assert events == [JourneyEnded("lost", "turned_back")]
    assert GAME.outcome(state) == "lost"


def test_abilities_and_every_insight_are_usable_on_the_final_night() -> None:
    # paper-wolf's insight is a SLEEP power; on the final night it still works.
    state = _night(
        challenge=(6,),
        gil=card(5, (), 2, ("paper-wolf",)),
        ennis=card(6, (), 4),
        used_game=("ability:gil/second-look",),
    )
    powers = {a.power for a in of_type(state, UsePower)}
    assert powers == {
        "ability:gil/steady-hands",
        "insight:paper-wolf",
        "ability:ennis/turn-it-over",
        "ability:ennis/lucky-pebble",
    }
    state, _ = play(state, "player", UsePower("gil", "insight:paper-wolf", "hand", 5, 6))
    assert Place("gil", "hand", 6) in actions(state)


def test_no_organizing_on_the_final_night() -> None:
    state = _night(challenge=(6,), gil=card(5, (), 0), ennis=card(6, (), 4))
    assert of_type(state, Organize) == []


def test_coop_seats_place_their_own_dice_and_either_may_give_up() -> None:
    state = _night(COOP, challenge=(5, 6), gil=card(5, (), 2), ennis=card(6, (), 4))
    with pytest.raises(NotYourTurn):
        play(state, "ennis", Place("gil", "hand", 5))
    assert EndClimb() in actions(state, "gil") and EndClimb() in actions(state, "ennis")
