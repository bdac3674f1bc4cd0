"""The garbage collector's tuning: young collections spaced out, what exists frozen out."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from server.ops import collector


@pytest.fixture
def restored() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restored")
def test_tuning_spaces_young_collections_and_freezes_what_exists() -> None:
    gc.unfreeze()
    kept = [object() for _ in range(10)], {"a": [1]}
    collector.tune(30_000)
    assert gc.get_threshold() == (30_000, 50, 100)
    assert gc.get_freeze_count() > 0
    assert not any(o is kept for o in gc.get_objects())  # frozen: no collection walks it


@pytest.mark.usefixtures("restored")
def test_zero_keeps_cpythons_thresholds() -> None:
    before = gc.get_threshold()
    collector.tune(0)
    assert gc.get_threshold() == before
