"""The process's analyses: each decision point estimated in the bot workers, one per call, and
kept in the store's analysis table as soon as it is computed.

An analysis is keyed by the campaign, its ruleset and the level. Asking for one starts a *job*
for the decision points that have no estimate kept yet (or adds them to the job already running
under that key); a job estimates them in order, one call to a worker each, so progress shows
between points (a job keeps as many in the workers at once as there are workers), and a cancel
or a server stop takes effect between them. Whatever was kept
stays kept: a second reader, or the same one after a restart, is answered from the store, and
only what is missing is ever computed. Once every decision point of an ended campaign has its
estimate, the whole analysis is kept too, and read back without replaying the campaign.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.analysis.analyse import summarise
from domain.analysis.decisions import Decision, decisions
from domain.analysis.levels import DEFAULT_LEVEL, analysis_level
from domain.analysis.report import Analysis, Point
from domain.core.errors import DomainError
from server.analysis.access import EVERY_SEAT
from server.analysis.messages import AnalysisOut, State
from server.analysis.work import Observed, analysis_seed, decode, estimate, observe
from server.campaigns.head import Head
from server.campaigns.service import CampaignService
from server.errors import ApiError
from server.store.base import StoreError
from server.store.contract import AnalysisTable

log = logging.getLogger("tabletale.analysis")

Run = Callable[..., Awaitable[Any]]
"""``run(work, *args)``: ``work(*args)`` in a bot worker (``BotDriver.run``)."""
Key = tuple[str, str, int]
"""The campaign, its ruleset and the level."""

FOUND_KEPT = 16
"""Campaigns whose decision points stay found in memory (at one version each)."""

_whole = msgspec.msgpack.Decoder(Analysis)
_encoder = msgspec.msgpack.Encoder()


@dataclass
class _Job:
    head: Head
    queue: list[Decision]
    task: asyncio.Task[None] | None = None
    queued: set[int] = field(default_factory=set)


class Analyst:
    """``app.state.analyses``: starts, follows and cancels the process's analyses."""

    def __init__(
        self, service: CampaignService, table: AnalysisTable, run: Run, *, parallel: int = 1
    ) -> None:
        self.service = service
        self.table = table
        self._run = run
        self._parallel = max(1, parallel)
        """Points a job has in the workers at once: as many as there are workers, so that a
        bot's decision waits behind one point at most."""
        self.computed = 0
        """Estimates this process has computed (a reader answered from the store adds none)."""
        self._jobs: dict[Key, _Job] = {}
        self._found: OrderedDict[tuple[str, int], list[Decision]] = OrderedDict()
        self._closed = False

    # -- reading ----------------------------------------------------------------------------

    async def read(self, head: Head, level: int | None, scope: str | None) -> AnalysisOut:
        """The analysis as far as it has gone, of the decision points ``scope`` may see."""
        number = _level(level)
        key = _key(head, number)
        if head.outcome != "running" and scope is EVERY_SEAT:
            kept = await self.table.whole(*key)
            if kept is not None:
                whole = _whole.decode(kept)
                count = len(whole.points)
                return self._out(head, number, scope, count, count, whole)
        wanted = await self._wanted(head, scope)
        kept_points = await self.table.points(*key)
        have = [d for d in wanted if d.version in kept_points]
        estimated = [decode(kept_points[d.version]) for d in have]
        analysis = self._summarise(head, have, estimated, number)
        if len(have) == len(wanted) and head.outcome != "running" and scope is EVERY_SEAT:
            await self.table.save_whole(*key, _encoder.encode(analysis))
        return self._out(head, number, scope, len(have), len(wanted), analysis)

    def _out(
        self,
        head: Head,
        level: int,
        scope: str | None,
        done: int,
        total: int,
        analysis: Analysis,
    ) -> AnalysisOut:
        job = self._jobs.get(_key(head, level))
        state: State = "done" if done == total else "running" if job is not None else "idle"
        return AnalysisOut(head.facts.id, level, state, done, total, scope, head.version, analysis)

    def _summarise(
        self, head: Head, found: list[Decision], estimated: list[Point], level: int
    ) -> Analysis:
        seed = analysis_seed(head.facts.id)
        return summarise(head.game, found, estimated, level=level, seed=seed)

    async def point(self, head: Head, level: int | None, scope: str | None, version: int) -> Point:
        """The estimate kept at ``version``, a decision point ``scope`` may see."""
        number = _level(level)
        wanted = {d.version for d in await self._wanted(head, scope)}
        kept = await self.table.points(*_key(head, number))
        if version not in wanted or version not in kept:
            raise ApiError(
                "not_found",
                f"Version {version} has no estimate of level {number} to try: analyse the "
                "campaign first, and pick one of its decision points.",
            )
        return decode(kept[version])

    async def _wanted(self, head: Head, scope: str | None) -> list[Decision]:
        found = await self._decisions(head)
        return [d for d in found if scope is EVERY_SEAT or d.seat == scope]

    async def _decisions(self, head: Head) -> list[Decision]:
        """The campaign's decision points up to ``head`` (found once per version)."""
        at = (head.facts.id, head.version)
        found = self._found.get(at)
        if found is None:
            recorded = await self.service.events(head.facts.id, 0, head.version)
            stream = [(r.version, r.event) for r in recorded]
            # Replaying and matching moves is the server's own work on the true states (it holds
            # them anyway); in a thread, so the event loop is not held for a long campaign.
            found = await asyncio.to_thread(decisions, head.game, stream)
            self._found[at] = found
            while len(self._found) > FOUND_KEPT:
                self._found.popitem(last=False)
        self._found.move_to_end(at)
        return found

    # -- computing --------------------------------------------------------------------------

    async def start(self, head: Head, level: int | None, scope: str | None) -> AnalysisOut:
        """Estimate the decision points ``scope`` may see that have none kept yet, in a job (one
        started already under the key takes them on)."""
        if self._closed:
            raise ApiError("unavailable", "The server is stopping: ask again in a moment.")
        number = _level(level)
        key = _key(head, number)
        out = await self.read(head, number, scope)
        if out.state == "done":
            return out
        kept = await self.table.points(*key)
        missing = [d for d in await self._wanted(head, scope) if d.version not in kept]
        job = self._jobs.get(key)
        if job is None:
            job = self._jobs[key] = _Job(head, [])
            job.task = asyncio.create_task(self._work(key, job))
        if head.version > job.head.version:
            job.head = head
        for decision in missing:
            if decision.version not in job.queued:
                job.queued.add(decision.version)
                job.queue.append(decision)
        job.queue.sort(key=lambda d: d.version)
        return await self.read(head, number, scope)

    async def cancel(self, head: Head, level: int | None) -> bool:
        """Stop the key's job between two points (what it computed stays kept)."""
        job = self._jobs.pop(_key(head, _level(level)), None)
        if job is None or job.task is None:
            return False
        job.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await job.task
        return True

    async def close(self) -> None:
        """Stop every job; nothing kept is lost, and what is missing is computed when asked."""
        self._closed = True
        jobs, self._jobs = list(self._jobs.values()), {}
        for job in jobs:
            if job.task is not None:
                job.task.cancel()
        await asyncio.gather(*(job.task for job in jobs if job.task), return_exceptions=True)

    def running(self) -> int:
        return len(self._jobs)

    async def _work(self, key: Key, job: _Job) -> None:
        campaign_id, ruleset, level = key
        seed = analysis_seed(campaign_id)
        thinking: set[asyncio.Task[tuple[int, bytes]]] = set()
        try:
            while job.queue or thinking:
                while job.queue and len(thinking) < self._parallel:
                    decision = job.queue.pop(0)
                    observed = observe(job.head.game, campaign_id, decision)
                    thinking.add(asyncio.create_task(self._estimate(observed, level, seed)))
                finished, thinking = await asyncio.wait(
                    thinking, return_when=asyncio.FIRST_COMPLETED
                )
                for task in finished:
                    version, data = task.result()
                    await self.table.save_point(campaign_id, ruleset, level, version, data)
                    self.computed += 1
                if not job.queue and not thinking and job.head.outcome != "running":
                    # Keeps the whole analysis (a reader asking meanwhile may queue more).
                    await self.read(job.head, level, EVERY_SEAT)
        except (StoreError, DomainError) as error:
            log.warning("The analysis of %s stopped: %s", campaign_id, error)
        except Exception:
            log.exception("The analysis of %s failed.", campaign_id)
        finally:
            for task in thinking:
                task.cancel()
            if self._jobs.get(key) is job:
                del self._jobs[key]

    async def _estimate(self, observed: Observed, level: int, seed: int) -> tuple[int, bytes]:
        data: bytes = await self._run(estimate, observed, level, seed)
        return observed.version, data


def _level(level: int | None) -> int:
    number = DEFAULT_LEVEL if level is None else level
    analysis_level(number)  # refuses a level that does not exist
    return number


def _key(head: Head, level: int) -> Key:
    return head.facts.id, head.game.info.ruleset, level
