"""The client library sends a seed in its one spelling, as the server shows it back."""

from __future__ import annotations

import pytest

from clients.http import seed_field


def test_a_seed_goes_as_its_decimal_digits() -> None:
    assert seed_field(42) == "42"
    assert seed_field("18446744073709551615") == "18446744073709551615"
    assert seed_field("0") == "0"


@pytest.mark.parametrize("seed", ["0042", "00", "-1", "4 2", "4.2"])
def test_a_seed_spelled_otherwise_is_refused_before_it_is_sent(seed: str) -> None:
    with pytest.raises(ValueError, match="without leading zeros"):
        seed_field(seed)
