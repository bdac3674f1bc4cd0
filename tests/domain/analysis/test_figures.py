"""A chance counted over playouts carries its sample size and a Wilson interval."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.analysis.calibration import deciles, picked
from domain.analysis.figures import counted, known, wilson


@given(n=st.integers(1, 500), share=st.floats(0, 1))
def test_the_interval_lies_in_0_1_and_holds_the_share_won(n: int, share: float) -> None:
    won = round(share * n)
    estimate = counted(won, n)
    assert 0.0 <= estimate.low <= estimate.p <= estimate.high <= 1.0
    assert estimate.playouts == n and estimate.won == won


def test_the_interval_matches_the_wilson_formula_and_narrows_with_playouts() -> None:
    assert wilson(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    wide, narrow = wilson(8, 16), wilson(80, 160)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_no_playouts_know_nothing_and_an_ended_campaign_is_certain() -> None:
    assert counted(0, 0).low == 0.0 and counted(0, 0).high == 1.0
    assert known(True).p == known(True).low == known(True).high == 1.0
    assert known(False).p == 0.0


def test_positions_are_tallied_by_decile_of_their_estimate() -> None:
    found = deciles([(0.05, False), (0.08, True), (0.55, True), (1.0, True), (0.95, False)])
    assert [d.low for d in found] == [0.0, 0.5, 0.9]
    first, middle, last = found
    assert (first.positions, first.won) == (2, 1) and first.said == pytest.approx(0.065)
    assert (middle.positions, middle.share) == (1, 1.0)
    assert (last.positions, last.won, last.share) == (2, 1, 0.5)
    assert last.share_low < 0.5 < last.share_high


def test_positions_to_calibrate_are_drawn_from_the_seed_in_order() -> None:
    found = list(range(40))
    drawn = picked(found, 4, seed=9)
    assert drawn == sorted(drawn) and len(set(drawn)) == 4
    assert picked(found, 4, seed=9) == drawn
    assert picked(found[:3], 4, seed=9) == found[:3]
