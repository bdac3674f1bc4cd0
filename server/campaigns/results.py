"""What the campaign service answers."""

from __future__ import annotations

from typing import Any

import msgspec

from server.campaigns.codec import Recorded
from server.store.base import AppendResult


class Created(msgspec.Struct, frozen=True):
    id: str
    game: str
    seats: tuple[str, ...]
    seed_hash: str
    version: int


class Acted(AppendResult, frozen=True):
    """The outcome of an accepted command: the store's answer (versions ``first..last``, and
    whether it was a retry) with the events it stored. The wire's ``ActedOut`` stays a type of
    its own: the protocol names the last version ``version`` and echoes the command id."""

    events: list[Recorded[Any]] = []


class Divergence(msgspec.Struct, frozen=True):
    version: int
    expected_hash: str
    actual_hash: str
    event_type: str
    refused: str | None = None
    """Why the rules could not apply the stored event at all, in a sentence (``actual_hash``
    is then empty)."""


class VerifyReport(msgspec.Struct, frozen=True):
    campaign: str
    events: int
    ok: bool
    first_divergence: Divergence | None = None
