"""What an event store keeps and answers, and how it fails: the values of the store contract
(:mod:`server.store.contract`), shared by every adapter.

A store keeps, per campaign, an append-only list of opaque event payloads addressed by version
(1, 2, 3, ...), a little metadata, the command ids it has accepted, and optional snapshots. It knows
nothing about games: the campaign service encodes and decodes.

Forks are copy-on-write: a child records ``(parent, fork_version)``, starts with ``head ==
fork_version`` and reads versions up to ``fork_version`` from its parent, so a fork costs the same
at version 10 or 100,000. Each campaign's forks are indexed as ``fork`` stores them, so
``forks_of`` pages through a parent's children without a scan of the catalog.

A campaign is *listed* or not: ``list_campaigns(listed_only=True)`` pages through the listed ones
only, so a page of the public catalog is full however many unlisted campaigns there are.
Records written before the store kept ``listed`` read as listed unless their ``private``
attribute is ``"1"`` (:func:`listed_by_default`); each adapter's module says how its old records
are brought in line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec


class StoreError(Exception):
    """Base of the typed store errors."""

    code = "unavailable"


class VersionConflict(StoreError):
    """The expected version is not the head: somebody appended first. Nothing was written."""

    code = "stale_version"

    def __init__(self, campaign_id: str, expected: int, actual: int) -> None:
        self.campaign_id = campaign_id
        self.expected = expected
        self.actual = actual
        super().__init__(
            f"Campaign {campaign_id} is at version {actual}, not at the expected {expected}."
        )


class UnknownCampaign(StoreError):
    code = "not_found"

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        super().__init__(f"There is no campaign {campaign_id!r}.")


class CampaignExists(StoreError):
    code = "conflict"

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        super().__init__(f"A campaign {campaign_id!r} already exists.")


class StoreUnavailable(StoreError):
    """The backing server cannot be reached; the caller may retry later."""

    code = "unavailable"


class StoredEvent(msgspec.Struct, frozen=True, array_like=True):
    version: int
    data: bytes


class AppendResult(msgspec.Struct, frozen=True):
    """Versions ``first..last`` hold the command's events; ``duplicate`` if it was a retry."""

    first: int
    last: int
    duplicate: bool = False


class CampaignInfo(msgspec.Struct, frozen=True):
    """A campaign's metadata as the store keeps it. ``attrs`` belong to the layers above;
    ``listed`` says whether the catalog's ``listed_only`` pages show it."""

    id: str
    game: str
    head: int
    created_ms: int
    updated_ms: int
    parent: str | None = None
    fork_version: int = 0
    attrs: dict[str, str] = {}
    listed: bool = True


PRIVATE_ATTR = "private"
"""The attribute (value ``"1"``) the server sets on a private campaign
(``server.campaigns.tokens``)."""


def listed_by_default(attrs: Mapping[str, str]) -> bool:
    """Whether a campaign stored before ``listed`` was kept is listed: unless it is private.

    The one place the store reads an attribute: private campaigns were left out of the catalog
    before the store could leave them out itself, and must stay out.
    """
    return attrs.get(PRIVATE_ATTR) != "1"


class Snapshot(msgspec.Struct, frozen=True):
    version: int
    data: bytes


ForkKey = tuple[int, str]
"""Where a fork sits among its parent's: ``(fork_version, id)``."""

FORKS_PAGE = 100
"""Forks a page of :meth:`EventStore.forks_of` holds unless asked otherwise."""


def fork_key(info: CampaignInfo) -> ForkKey:
    return (info.fork_version, info.id)


def check_events(events: Sequence[bytes]) -> None:
    if not events:
        raise ValueError("An append needs at least one event.")
