"""The Redis store's decision point runs (:mod:`server.store.point_runs`).

Per campaign, on its own slot: ``{prefix}:{<id>}:points``, a sorted set of runs (score: the
run's first point, member: its last), and the meta hash's ``points_indexed``, the version up to
which the runs are complete (absent: the campaign's fork point, for one stored before the index
existed). The append script extends them in the same step as the events
(``redis_append.lua``); ``redis_points.lua`` records what an older append left out.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.resources
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import redis.exceptions

from server.store.base import UnknownCampaign
from server.store.point_runs import OwnRuns, Run, check_points
from server.store.redis_errors import reachable

_RECORD_LUA = importlib.resources.files("server.store").joinpath("redis_points.lua").read_text()
_RECORD_SHA = hashlib.sha1(_RECORD_LUA.encode()).hexdigest()


class Executes(Protocol):
    async def execute(self, *args: Any) -> Any: ...


def _runs(flat: list[bytes]) -> list[Run]:
    """Runs from a ``ZRANGE … WITHSCORES`` reply: member (last), score (first), …"""
    return [(int(float(flat[i + 1])), int(flat[i])) for i in range(0, len(flat), 2)]


class RedisPoints:
    def __init__(self, link: Executes, key: Callable[[str, str], str]) -> None:
        self._link = link
        self._key = key

    async def own_runs(self, campaign_id: str, at: int, down: int, up: int) -> OwnRuns:
        meta, runs = self._key(campaign_id, "meta"), self._key(campaign_id, "points")
        none: list[bytes] = []

        async def nothing() -> list[bytes]:
            return none

        with reachable():
            known, below, above = await asyncio.gather(
                self._link.execute("HMGET", meta, "head", "fork_version", "points_indexed"),
                self._link.execute(
                    "ZRANGE", runs, at, "-inf", "BYSCORE", "REV", "LIMIT", 0, down, "WITHSCORES"
                )
                if down
                else nothing(),
                self._link.execute(
                    "ZRANGE", runs, f"({at}", "+inf", "BYSCORE", "LIMIT", 0, up, "WITHSCORES"
                )
                if up
                else nothing(),
            )
        if known[0] is None:
            raise UnknownCampaign(campaign_id)
        indexed = known[2] if known[2] is not None else known[1]
        return OwnRuns(int(indexed or 0), _runs(below), _runs(above))

    async def record(
        self, campaign_id: str, since: int, through: int, points: Sequence[int]
    ) -> bool:
        check_points(since, through, points)
        keys = [self._key(campaign_id, "meta"), self._key(campaign_id, "points")]
        args = [*keys, since, through, *points]
        with reachable():
            # EVALSHA: a cluster link routes a script by its first key.
            try:
                reply = await self._link.execute("EVALSHA", _RECORD_SHA, 2, *args)
            except redis.exceptions.NoScriptError:
                await self._link.execute("SCRIPT", "LOAD", _RECORD_LUA)
                reply = await self._link.execute("EVALSHA", _RECORD_SHA, 2, *args)
        if reply == -1:
            raise UnknownCampaign(campaign_id)
        return bool(reply == 1)
