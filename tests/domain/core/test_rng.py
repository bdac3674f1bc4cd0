from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from domain.core.rng import Chance, Rng, word

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


@given(seed=SEEDS, index=st.integers(0, 10**6))
def test_words_are_a_pure_function_of_seed_and_index(seed: int, index: int) -> None:
    assert word(seed, index) == word(seed, index)
    assert 0 <= word(seed, index) < 2**64


@given(seed=SEEDS)
def test_a_cursor_resumes_exactly_where_the_recorded_draw_count_left_it(seed: int) -> None:
    straight = Chance(Rng(seed))
    expected = [straight.die() for _ in range(10)]
    first = Chance(Rng(seed))
    head = [first.die() for _ in range(4)]
    resumed = Chance(first.rng)
    assert head + [resumed.die() for _ in range(6)] == expected


@given(seed=SEEDS, items=st.lists(st.integers(), max_size=30))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    assert sorted(Chance(Rng(seed)).shuffled(items)) == sorted(items)


def test_dice_faces_are_roughly_uniform() -> None:
    chance = Chance(Rng(2024))
    counts = Counter(chance.die() for _ in range(60_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    # 10,000 expected per face; 6 standard deviations is about +-550
    assert all(abs(n - 10_000) < 550 for n in counts.values()), counts


def test_different_seeds_give_different_streams() -> None:
    assert Chance(Rng(1)).dice(20) != Chance(Rng(2)).dice(20)


def test_below_rejects_an_empty_range() -> None:
    import pytest

    with pytest.raises(ValueError, match="below 0"):
        Chance(Rng(1)).below(0)
