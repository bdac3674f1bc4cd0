"""The change feed: how events that another process appended reach this one.

A process delivers its own commits to its own sockets straight from the commit; the feed brings
the rest, for the campaigns the process watches, over a fixed number of connections however many
campaigns that is. A feed may drop notifications while its connection is down; it then says so
(``resumed``), and the reader catches every watched campaign up from the store.
"""

from __future__ import annotations

import asyncio

from server.store.contract import ChangeFeed, Deliver, Resumed, Shared

__all__ = ["ChangeFeed", "Deliver", "LocalFeed", "Resumed", "Shared"]


class LocalFeed:
    """The feed of a store that only this process writes (SQLite, memory): nothing to bring,
    since every append is a commit made here and delivered from the commit, and nobody to
    share with."""

    async def watch(self, campaign_id: str) -> None:
        return None

    async def unwatch(self, campaign_id: str) -> None:
        return None

    async def follow(
        self, deliver: Deliver, resumed: Resumed, shared: Shared | None = None
    ) -> None:
        await asyncio.Event().wait()  # until cancelled

    async def share(self, campaign_id: str, data: bytes, *, ask: bool) -> None:
        return None  # no other process to tell

    async def close(self) -> None:
        return None
