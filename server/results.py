"""What the campaign service answers."""

from __future__ import annotations

from typing import Any

import msgspec

from server.codec import Recorded


class Created(msgspec.Struct, frozen=True):
    id: str
    game: str
    seats: tuple[str, ...]
    seed_hash: str
    version: int


class Acted(msgspec.Struct, frozen=True):
    """The outcome of an accepted command: versions ``first..last``, and their events."""

    first: int
    last: int
    duplicate: bool = False
    events: list[Recorded[Any]] = []


class Divergence(msgspec.Struct, frozen=True):
    version: int
    expected_hash: str
    actual_hash: str
    event_type: str


class VerifyReport(msgspec.Struct, frozen=True):
    campaign: str
    events: int
    ok: bool
    first_divergence: Divergence | None = None
