"""The event store contract every adapter meets.

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

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol

import msgspec

if TYPE_CHECKING:
    from server.store.point_runs import PointRuns


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
"""The attribute (value ``"1"``) the server sets on a private campaign (``server.auth``)."""


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


Deliver = Callable[[str, list[StoredEvent]], None]
"""Called with a campaign id and the events appended to it, in order, oldest first."""

Resumed = Callable[[], Awaitable[None]]
"""Called after the feed reconnected: notifications in between may have been lost."""

Shared = Callable[[str, str, bytes, bool], None]
"""Called with a campaign id, the process that shared it, what it shared (see
:meth:`ChangeFeed.share`) and whether that process asks the others to share theirs."""


class ChangeFeed(Protocol):
    """How appends made by other processes reach this one (:mod:`server.store.feed`)."""

    async def watch(self, campaign_id: str) -> None:
        """Start delivering ``campaign_id``'s appends; every append made after this returns will
        be delivered (or the feed will say it resumed)."""
        ...

    async def unwatch(self, campaign_id: str) -> None: ...

    async def follow(
        self, deliver: Deliver, resumed: Resumed, shared: Shared | None = None
    ) -> None:
        """Deliver changes, and what other processes share, until cancelled."""
        ...

    async def share(self, campaign_id: str, data: bytes, *, ask: bool) -> None:
        """Tell ``data`` to the other processes that watch ``campaign_id`` (this process's part
        of who is connected to it); with ``ask``, each of them answers with its own. Told at
        most once: a process whose connection is down meanwhile misses it."""
        ...

    async def close(self) -> None: ...


class EventStore(Protocol):
    """What the campaign service needs from storage. Every method may raise StoreUnavailable."""

    async def create(
        self,
        campaign_id: str,
        game: str,
        *,
        now_ms: int,
        attrs: dict[str, str] | None = None,
        events: Sequence[bytes] = (),
        listed: bool = True,
        point: bool | None = None,
    ) -> CampaignInfo:
        """Register a campaign with ``events`` as versions 1, 2, ... (none: head 0), in one
        atomic step: it exists with all of them or not at all. Raises CampaignExists.
        ``point``: whether the last of ``events`` is a decision point (:mod:`.point_runs`)."""
        ...

    async def fork(
        self,
        parent_id: str,
        at: int,
        child_id: str,
        *,
        now_ms: int,
        attrs: dict[str, str] | None = None,
        events: Sequence[bytes] = (),
        listed: bool = True,
        point: bool | None = None,
    ) -> CampaignInfo:
        """Register ``child_id`` as a copy of ``parent_id`` up to version ``at`` (0..head), with
        its own ``events`` from ``at + 1`` on, in one atomic step (all of it, or nothing)."""
        ...

    async def info(self, campaign_id: str) -> CampaignInfo:
        """Raises UnknownCampaign."""
        ...

    async def add_attrs(self, campaign_id: str, attrs: dict[str, str]) -> None:
        """Set ``attrs`` on an existing campaign (others keep theirs): the one change its
        metadata takes after creation, for a mark that can only be added, such as known luck.
        Raises UnknownCampaign."""
        ...

    async def catalogue(self, campaign_id: str) -> None:
        """Make sure a campaign that exists is in the catalog, as creating it does (idempotent;
        raises UnknownCampaign). Where the catalog is written in a step of its own after the
        campaign (Redis), a process killed in between left the campaign out of it; whoever
        finds such a campaign complete (a resumed migration) puts it back."""
        ...

    async def forks_of(
        self, campaign_id: str, *, after: ForkKey | None = None, limit: int = FORKS_PAGE
    ) -> list[CampaignInfo]:
        """The campaigns forked from ``campaign_id`` (its children, not theirs), ordered by
        fork version then id, those after ``after`` (the :func:`fork_key` of the previous
        page's last) and at most ``limit``. None for a campaign without forks, or unknown. A
        fork is in it once ``fork`` has returned, and never before the fork exists."""
        ...

    async def append(
        self,
        campaign_id: str,
        expected_version: int,
        events: Sequence[bytes],
        *,
        command_id: str | None = None,
        now_ms: int = 0,
        point: bool | None = None,
    ) -> AppendResult:
        """Atomically append ``events`` at ``expected_version + 1 ...``.

        Checks, before any write: a ``command_id`` seen before returns its original result
        (``duplicate=True``); otherwise an expected version that is not the head raises
        VersionConflict. All events are written or none, and with them, when ``point`` is not
        None, whether the last is a decision point (:mod:`.point_runs`).
        """
        ...

    # -- decision points (server.store.point_runs) ----------------------------------------

    async def point_runs(
        self,
        campaign_id: str,
        near: int,
        *,
        before: int,
        after: int,
        lowest: int = 1,
        highest: int | None = None,
    ) -> PointRuns:
        """The runs of decision points within ``lowest..highest`` around ``near``, the parents'
        included. Raises PointsUnindexed when they are not recorded that far."""
        ...

    async def record_points(
        self, campaign_id: str, since: int, through: int, points: Sequence[int]
    ) -> bool:
        """Record that ``points`` are the decision points among the campaign's own versions
        ``since < v <= through``, if its runs are complete up to ``since`` and no further
        (else nothing is written and False is returned)."""
        ...

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with ``after < version <= until`` (parent prefix included), oldest first."""
        ...

    async def command_result(self, campaign_id: str, command_id: str) -> AppendResult | None: ...

    async def save_snapshot(self, campaign_id: str, version: int, data: bytes) -> None: ...

    async def load_snapshot(self, campaign_id: str, at_most: int) -> Snapshot | None:
        """The newest snapshot at or below ``at_most``, the parent's included for a fork."""
        ...

    def changes(self) -> ChangeFeed:
        """The feed of appends made by other processes (:mod:`server.store.feed`)."""
        ...

    async def list_campaigns(
        self, *, offset: int = 0, limit: int = 50, listed_only: bool = False
    ) -> list[CampaignInfo]:
        """The catalog, newest first (by ``created_ms``, then id); with ``listed_only``, the
        listed campaigns only, ``offset`` and ``limit`` counting those alone."""
        ...

    async def ping(self) -> None:
        """Raise StoreUnavailable unless the store answers."""
        ...

    async def close(self) -> None: ...


def check_events(events: Sequence[bytes]) -> None:
    if not events:
        raise ValueError("An append needs at least one event.")


def new_info(
    campaign_id: str,
    game: str,
    *,
    now_ms: int,
    attrs: dict[str, str] | None,
    events: int = 0,
    listed: bool = True,
) -> CampaignInfo:
    """The metadata of a campaign just created with ``events`` events."""
    return CampaignInfo(
        id=campaign_id,
        game=game,
        head=events,
        created_ms=now_ms,
        updated_ms=now_ms,
        attrs=dict(attrs or {}),
        listed=listed,
    )


def forked_info(
    parent: CampaignInfo,
    at: int,
    child_id: str,
    *,
    now_ms: int,
    attrs: dict[str, str] | None,
    events: int = 0,
    listed: bool = True,
) -> CampaignInfo:
    """The metadata of a fork of ``parent`` at version ``at`` (0..head) with ``events`` of its
    own."""
    # A parent's head only grows, so a fork point checked here stays valid.
    if not 0 <= at <= parent.head:
        raise ValueError(f"Cannot fork {parent.id} at {at}: its head is {parent.head}.")
    return CampaignInfo(
        id=child_id,
        game=parent.game,
        head=at + events,
        created_ms=now_ms,
        updated_ms=now_ms,
        parent=parent.id,
        fork_version=at,
        attrs=dict(attrs or {}),
        listed=listed,
    )
