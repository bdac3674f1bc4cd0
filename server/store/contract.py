"""The event store contract every adapter meets: the event recorder, and the small indexes kept
beside each stream (snapshots, decision points, forks), each a protocol of its own; and the change
feed that brings other processes' appends. The values they answer are in :mod:`server.store.base`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from server.store.base import (
    FORKS_PAGE,
    AppendResult,
    CampaignInfo,
    ForkKey,
    Snapshot,
    StoredEvent,
)
from server.store.point_runs import PointRuns

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


class EventRecorder(Protocol):
    """The event recorder: a campaign's stream and its metadata, nothing the application derives
    from them. Every method may raise StoreUnavailable."""

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

    async def read(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[StoredEvent]:
        """Events with ``after < version <= until`` (parent prefix included), oldest first."""
        ...

    async def command_result(self, campaign_id: str, command_id: str) -> AppendResult | None: ...

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

    async def list_campaigns(
        self, *, offset: int = 0, limit: int = 50, listed_only: bool = False
    ) -> list[CampaignInfo]:
        """The catalog, newest first (by ``created_ms``, then id); with ``listed_only``, the
        listed campaigns only, ``offset`` and ``limit`` counting those alone."""
        ...

    def changes(self) -> ChangeFeed:
        """The feed of appends made by other processes (:mod:`server.store.feed`)."""
        ...

    async def open_format(self) -> None:
        """Bring the store's own format up to this release's, or raise NewerFormat for one newer
        than it knows (:mod:`server.store.formats`); what ``serve`` does before it listens. Every
        other method does it too on first use."""
        ...

    async def ping(self) -> None:
        """Raise StoreUnavailable unless the store answers (NewerFormat once a newer release
        took the store over)."""
        ...

    async def close(self) -> None: ...


class Snapshots(Protocol):
    """States kept beside a stream at some versions: a cache, never the truth."""

    async def save_snapshot(self, campaign_id: str, version: int, data: bytes) -> None: ...

    async def load_snapshot(self, campaign_id: str, at_most: int) -> Snapshot | None:
        """The newest snapshot at or below ``at_most``, the parent's included for a fork."""
        ...


class PointIndex(Protocol):
    """The decision points kept beside a stream, as runs (:mod:`.point_runs`)."""

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


class ForkIndex(Protocol):
    """The forks of each campaign, kept beside its stream."""

    async def forks_of(
        self, campaign_id: str, *, after: ForkKey | None = None, limit: int = FORKS_PAGE
    ) -> list[CampaignInfo]:
        """The campaigns forked from ``campaign_id`` (its children, not theirs), ordered by
        fork version then id, those after ``after`` (the :func:`fork_key` of the previous
        page's last) and at most ``limit``. None for a campaign without forks, or unknown. A
        fork is in it once ``fork`` has returned, and never before the fork exists."""
        ...


class AnalysisTable(Protocol):
    """Analyses kept beside a stream (``server.analysis``): a projection of the campaign, each
    decision point's estimate as it is computed, and the whole analysis once it is complete,
    under the campaign, its ruleset and the level. Derived, never the truth: a lost entry is
    computed again. Every method may raise StoreUnavailable."""

    async def save_point(
        self, campaign_id: str, ruleset: str, level: int, version: int, data: bytes
    ) -> None:
        """Keep the estimate at ``version`` (one written again replaces it)."""
        ...

    async def points(self, campaign_id: str, ruleset: str, level: int) -> dict[int, bytes]:
        """Every estimate kept under the key, by version (none: empty)."""
        ...

    async def save_whole(self, campaign_id: str, ruleset: str, level: int, data: bytes) -> None:
        """Keep the complete analysis of an ended campaign."""
        ...

    async def whole(self, campaign_id: str, ruleset: str, level: int) -> bytes | None:
        """The complete analysis kept under the key, or None."""
        ...


class EventStore(EventRecorder, Snapshots, PointIndex, ForkIndex, Protocol):
    """Everything a backend keeps: the recorder and the indexes beside each stream. Each adapter
    (memory, SQLite, Redis) meets all of it; the shared conformance suites test each part on
    each. A bot lease table (:mod:`.leases`) and an analysis table (:class:`AnalysisTable`,
    :mod:`.analyses`) are kept beside it where the backend offers them."""
