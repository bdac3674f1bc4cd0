from __future__ import annotations

import msgspec
import pytest

from domain.core.engine import last_rewind, replay, states
from domain.core.errors import UnsupportedRuleset
from domain.core.events import CampaignCreated, Reseeded, Rewound
from domain.core.game import action_id
from domain.core.hashing import seed_commitment, state_hash
from domain.core.rng import Rng
from tests.support.dice_race import GAME, Began, Held, Rolled

CREATED = CampaignCreated("dice-race", "dice-race/1", 5, "salt", ("red", "blue"), {"target": 50})


def stream() -> list[tuple[int, object]]:
    return [
        (1, CREATED),
        (2, Began(0, 1)),
        (3, Rolled("red", 4, 2)),
        (4, Rolled("blue", 6, 3)),
        (5, Rewound(3)),
        (6, Held("red")),
        (7, Rewound(5)),
    ]


def test_rewind_returns_the_state_of_its_target_version() -> None:
    by_version = dict(states(GAME, stream()))
    assert by_version[5] == by_version[3]
    assert by_version[7] == by_version[5]
    assert by_version[6].totals == (4, 0)


def test_a_rewind_to_a_version_the_replay_did_not_pass_is_refused() -> None:
    with pytest.raises(ValueError, match="rewinds to 3"):
        replay(GAME, stream()[4:], None)


def test_reseeded_restarts_the_generator_and_nothing_else() -> None:
    before = replay(GAME, stream()[:4])
    after = replay(GAME, [*stream()[:4], (5, Reseeded(99, "s"))])
    assert after.rng == Rng(99, 0, "s") and after.totals == before.totals


def test_creation_keys_the_generator_with_seed_and_salt() -> None:
    assert replay(GAME, stream()[:1]).rng == Rng(5, 0, "salt")


def test_a_campaign_of_another_ruleset_is_refused_by_name() -> None:
    old = msgspec.structs.replace(CREATED, ruleset="dice-race/0")
    with pytest.raises(UnsupportedRuleset, match=r"'dice-race/0'.*'dice-race/1'"):
        replay(GAME, [(1, old)])
    assert UnsupportedRuleset.code == "unsupported_ruleset"


def test_last_rewind_finds_the_latest() -> None:
    assert last_rewind(stream()) == (6, 5)
    assert last_rewind(stream()[:4]) is None


def test_state_hash_is_canonical_and_sensitive() -> None:
    a = replay(GAME, stream()[:3])
    b = replay(GAME, stream()[:3])
    assert state_hash(a) == state_hash(b)
    assert state_hash(a) != state_hash(msgspec.structs.replace(a, totals=(0, 1)))


def test_seed_commitment_depends_on_seed_and_salt() -> None:
    assert seed_commitment(1, "a") == seed_commitment(1, "a")
    assert len({seed_commitment(1, "a"), seed_commitment(2, "a"), seed_commitment(1, "b")}) == 3


def test_action_id_spells_tag_and_fields() -> None:
    class Pay(msgspec.Struct, frozen=True, tag="pay"):
        dreamer: str
        dice: tuple[int, ...]
        all_in: bool = False
        note: str | None = None

    assert action_id(Pay("gil", (4, 6))) == "pay:gil:4+6:false:-"


def test_action_id_is_the_same_remembered_or_not() -> None:
    class Pay(msgspec.Struct, frozen=True, tag="pay"):
        dreamer: str
        all_in: bool = False

    class Move(msgspec.Struct, tag="move"):  # not frozen: cannot be hashed, spelled each time
        steps: list[int]

    class Count(msgspec.Struct, frozen=True, tag="count"):
        n: int

    # equal actions share their id; unequal ones that hash alike (True and 1) do not mix
    assert [action_id(Pay("gil", True)), action_id(Pay("gil", True))] == ["pay:gil:true"] * 2
    assert action_id(Count(1)) == "count:1" and action_id(Pay("ennis")) == "pay:ennis:false"
    assert action_id(Move([1, 2])) == "move:[1, 2]"
    assert action_id(Move([3])) == "move:[3]"
