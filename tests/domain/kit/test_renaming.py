"""Which words a sampled world renamed, and renaming them elsewhere."""

from __future__ import annotations

import msgspec

from domain.core.rng import Rng
from domain.kit.renaming import Places, kept, renamed, renaming


class Table(msgspec.Struct, frozen=True):
    rng: Rng
    face_up: tuple[str, ...]
    hand: tuple[str, ...]
    deck: tuple[str, ...]


class Drew(msgspec.Struct, frozen=True):
    seat: str
    card: str


REAL = Table(Rng(1, 3, "kit"), ("sun",), ("moon", "star"), ("comet", "rain"))


def test_the_words_in_hidden_places_are_renamed_and_those_in_sight_kept() -> None:
    world = Table(Rng(9, 0, "sampled"), ("sun",), ("rain", "comet"), ("star", "moon"))
    seen = Places().of(REAL, world)
    assert renaming(seen) == {"moon": "rain", "star": "comet", "comet": "star", "rain": "moon"}
    assert kept(seen) == {"sun"}  # the generator's salt is no word of the game


def test_a_word_both_in_sight_and_hidden_is_not_renamed() -> None:
    real = Table(Rng(1), ("moon",), ("moon", "star"), ())
    world = Table(Rng(1), ("moon",), ("star", "moon"), ())
    assert renaming(Places().of(real, world)) == {"star": "moon"}


def test_an_event_is_renamed_through_and_through() -> None:
    assert renamed(Drew("gil", "moon"), {"moon": "rain"}) == Drew("gil", "rain")
    assert renamed({"moon": ("moon", 1)}, {"moon": "rain"}) == {"rain": ("rain", 1)}
    untouched = Drew("gil", "sun")
    assert renamed(untouched, {"moon": "rain"}) is untouched
