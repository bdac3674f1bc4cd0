"""Creating and forking a campaign, written once for every adapter.

Each adapter records a new campaign in one atomic step of its own (:meth:`Recording._register`:
a dict entry, an SQLite transaction, a Redis script): its metadata and its first events, all or
nothing. What the new campaign's metadata is, and where a fork may be made, is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.store.base import CampaignInfo


class Recording:
    """``create`` and ``fork`` of the recorder contract for an adapter that answers ``info`` and
    registers a campaign (:meth:`_register`)."""

    async def info(self, campaign_id: str) -> CampaignInfo:
        raise NotImplementedError

    async def _register(
        self, info: CampaignInfo, events: Sequence[bytes], point: bool | None
    ) -> CampaignInfo:
        """Store ``info`` with ``events`` as its versions after ``info.head - len(events)``, in
        one step; raise CampaignExists when the id is taken (nothing is written then)."""
        raise NotImplementedError

    async def _register_fork(
        self, info: CampaignInfo, events: Sequence[bytes], point: bool | None
    ) -> CampaignInfo:
        """:meth:`_register` for a fork (an adapter that keeps its fork index apart enters the
        fork there too)."""
        return await self._register(info, events, point)

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
        info = new_info(
            campaign_id, game, now_ms=now_ms, attrs=attrs, events=len(events), listed=listed
        )
        return await self._register(info, events, point)

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
        parent = await self.info(parent_id)
        info = forked_info(
            parent, at, child_id, now_ms=now_ms, attrs=attrs, events=len(events), listed=listed
        )
        return await self._register_fork(info, events, point)


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
