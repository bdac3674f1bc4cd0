"""The bot driver: plays the bot seats of the campaigns whose lease this process holds.

A scanner renews this process's leases and takes free or expired ones every third of a lease's
life (:mod:`server.store.leases`); for each campaign it holds, one task plays its bot seats:

1. read the head (caught up with the store); an ended campaign is put to rest;
2. when a bot seat has legal actions, turn the state into what that seat may see
   (:mod:`server.bots.thinking`) and let the bot decide in a worker, beside the event loop;
3. wait out the pace, so that people can follow, then submit the action through the campaign
   service's command path, at the version it was chosen at, with the command id
   ``bot:<policy>:<level>:<seat>@<version>``: a second driver that decides the same move (after
   a takeover) sends the same id, which the store answers as a duplicate.

A task wakes when its campaign's head moves in this process, and otherwise looks every
``poll_s`` (a move made through another process). A lease not renewed in time stops the task
before another process can take the lease, so two drivers do not act in the normal course.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from concurrent.futures.thread import BrokenThreadPool
from typing import Any, TypeVar

from domain.core.errors import DomainError
from projections.log import bot_command
from server.bots import thinking
from server.bots.specs import BotSpec, parse_spec
from server.campaigns.codec import Recorded
from server.campaigns.head import Head
from server.campaigns.results import Acted
from server.campaigns.service import CampaignService
from server.ops import logs
from server.settings import BotSettings
from server.store.base import StoreError, VersionConflict
from server.store.leases import BotTable

log = logging.getLogger("tabletale.bots")
T = TypeVar("T")


class BotDriver:
    """The process's bot driver; ``app.state.bots``."""

    def __init__(
        self,
        service: CampaignService,
        table: BotTable,
        settings: BotSettings | None = None,
        *,
        owner: str | None = None,
    ) -> None:
        self.service = service
        self.table = table
        self.settings = settings or BotSettings()
        self.owner = owner or uuid.uuid4().hex[:12]
        self.moves = 0
        self.conflicts = 0
        """Bot moves refused for a stale version: a sign of two drivers (or a person acting
        at the same moment)."""
        self.duplicates = 0
        self._driving: dict[str, asyncio.Task[None]] = {}
        self._held_at: dict[str, float] = {}  # campaign -> when its lease was last renewed
        self._acting: set[asyncio.Future[Acted]] = set()  # moves on their way to the store
        self._wake: dict[str, asyncio.Event] = {}
        self._rescan = asyncio.Event()
        self._scanner: asyncio.Task[None] | None = None
        self._executor: Executor | None = None
        service.heads.listen(self)

    # -- running --------------------------------------------------------------------------

    def start(self) -> None:
        self._scanner = asyncio.create_task(self._scan())

    async def close(self) -> None:
        tasks = [task for task in (self._scanner, *self._driving.values()) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        # A move on its way is let through before the lease goes: else the next driver could
        # read the head just before that append lands, and see its own move refused.
        if self._acting:
            await asyncio.wait(self._acting, timeout=self.settings.lease_ms / 1000)
        # Given up at once, so that another process takes over without waiting for expiry.
        for campaign_id in list(self._driving):
            try:
                await self.table.release(campaign_id, self.owner)
            except StoreError as error:
                log.warning("Could not release the bots of %s: %s", campaign_id, error)
        self._driving.clear()
        if self._executor is not None:
            executor, self._executor = self._executor, None
            await asyncio.to_thread(_stop_pool, executor)

    def adopt(self) -> None:
        """A campaign got bot seats: look for leases now rather than at the next renewal."""
        self._rescan.set()

    def driving(self) -> list[str]:
        return sorted(self._driving)

    async def _scan(self) -> None:
        every = self.settings.lease_ms / 3000
        while True:
            try:
                await self._scan_once()
            except StoreError as error:
                log.warning("Bot leases could not be renewed: %s", error)
            self._rescan.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._rescan.wait(), every)

    async def _scan_once(self) -> None:
        ttl = self.settings.lease_ms
        wanted = set(await self.table.campaigns())
        for campaign_id in list(self._driving):
            task = self._driving[campaign_id]
            if task.done() or campaign_id not in wanted:
                self._stop(campaign_id)
                await self.table.release(campaign_id, self.owner)
            elif await self.table.renew(campaign_id, self.owner, ttl):
                self._held_at[campaign_id] = asyncio.get_running_loop().time()
            else:
                log.warning("Lost the bot lease of %s; another process drives it.", campaign_id)
                self._stop(campaign_id)
        for campaign_id in sorted(wanted - set(self._driving)):
            if await self.table.acquire(campaign_id, self.owner, ttl):
                self._held_at[campaign_id] = asyncio.get_running_loop().time()
                log.info("Driving the bots of %s.", campaign_id)
                self._wake[campaign_id] = asyncio.Event()
                self._driving[campaign_id] = asyncio.create_task(self._drive(campaign_id))

    def _stop(self, campaign_id: str) -> None:
        task = self._driving.pop(campaign_id, None)
        if task is not None:
            task.cancel()
        self._wake.pop(campaign_id, None)
        self._held_at.pop(campaign_id, None)

    def _holding(self, campaign_id: str) -> bool:
        """Whether this process's lease surely still runs: renewed within two thirds of its
        life. A driver whose renewals stall (a store that does not answer) stops acting before
        its lease can lapse and pass to another process."""
        held_at = self._held_at.get(campaign_id)
        limit = self.settings.lease_ms * 2 / 3000
        return held_at is not None and asyncio.get_running_loop().time() - held_at < limit

    # -- what the repository tells ---------------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        wake = self._wake.get(after.facts.id)
        if wake is not None:
            wake.set()

    def reset(self, head: Head) -> None:
        wake = self._wake.get(head.facts.id)
        if wake is not None:
            wake.set()

    # -- playing --------------------------------------------------------------------------

    async def _drive(self, campaign_id: str) -> None:
        logs.campaign_id.set(campaign_id)
        loop = asyncio.get_running_loop()
        wake = self._wake[campaign_id]
        while True:
            wake.clear()
            try:
                head = await self.service.head(campaign_id)
                if head.outcome != "running":
                    log.info("Campaign %s has ended; its bots rest.", campaign_id)
                    await self.table.rest(campaign_id)
                    return
                seats = await self.table.seats(campaign_id)
                due = [s for s in head.facts.seats if s in seats and head.legal(s)]
                if due:
                    since = loop.time()
                    await self._move(head, due[0], parse_spec(seats[due[0]]), since)
                    continue
            except StoreError as error:
                log.warning("The bots of %s wait for the store: %s", campaign_id, error)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), self.settings.poll_s)

    async def _move(self, head: Head, seat: str, spec: BotSpec, since: float) -> None:
        campaign_id = head.facts.id
        action_id, label = await self.choose(head, seat, spec)
        pause = since + self.settings.pace_ms / 1000 - asyncio.get_running_loop().time()
        if pause > 0:
            await asyncio.sleep(pause)  # the pace a person can follow, not a wait for anything
        if not self._holding(campaign_id):
            return
        command = bot_command(spec.policy, spec.level, seat, head.version)
        acting = asyncio.ensure_future(
            self.service.act(
                campaign_id, seat, action_id, expected_version=head.version, command_id=command
            )
        )
        self._acting.add(acting)
        acting.add_done_callback(_settled)
        acting.add_done_callback(self._acting.discard)
        try:
            # Shielded: a driver stopped now still lets the append it began finish.
            acted = await asyncio.shield(acting)
        except VersionConflict:
            self.conflicts += 1
            return
        except DomainError as error:
            # Nothing was appended; the next look decides again from the head.
            log.warning("The %s's move %r for %s was refused: %s", spec.name, label, seat, error)
            await asyncio.sleep(self.settings.poll_s)  # not to retry a refusal in a tight loop
            return
        if acted.duplicate:
            self.duplicates += 1
        else:
            self.moves += 1

    async def choose(self, head: Head, seat: str, spec: BotSpec) -> tuple[str, str]:
        """The bot's action for ``seat`` at ``head``: ``(id, label)``."""
        if len(head.legal(seat)) == 1:
            only = next(iter(head.legal(seat).values()))
            return only.id, only.label
        seed = thinking.decision_seed(head.facts.id, seat, head.version, "bot")
        seen = thinking.observation(head.game, head.state, seat, seed)
        info = head.game.info
        return await self.run(
            thinking.decide, info.name, seen, seat, spec.level, seed, info.ruleset
        )

    async def hint(self, head: Head, seat: str, spec: BotSpec) -> tuple[str, str, str]:
        """What the bot ``spec`` would do for ``seat`` at ``head``, and why."""
        seed = thinking.decision_seed(head.facts.id, seat, head.version, "hint")
        seen = thinking.observation(head.game, head.state, seat, seed)
        info = head.game.info
        return await self.run(
            thinking.advise, info.name, seen, seat, spec.level, seed, info.ruleset
        )

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` beside the event loop: in a worker process, or a thread."""
        if self._executor is None:
            if self.settings.workers > 0:
                self._executor = ProcessPoolExecutor(
                    self.settings.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=thinking.start_worker,
                    initargs=(self.settings.priority,),
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="bots")
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, work, *args)
        except (BrokenProcessPool, BrokenThreadPool):
            # A worker died (killed, out of memory): the next decision starts a fresh pool.
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            raise


def _stop_pool(executor: Executor) -> None:
    """End the thinking workers and wait until the pool has let go of what it holds.

    A process pool's queues hold five semaphores, which the pool releases only once its workers
    have ended and its manager thread has joined them. A pool left to wind down on its own
    (``wait=False``) is still holding them when the server process exits, and the
    ``multiprocessing`` resource tracker warns of "5 leaked semaphore objects". A decision in
    flight is not worth keeping at a stop (:func:`server.bots.thinking.start_worker`), so the
    workers are ended rather than waited for.
    """
    if isinstance(executor, ProcessPoolExecutor):
        # The pool's own list of its workers: concurrent.futures has no public way to end them
        # before Python 3.14 (``terminate_workers``).
        workers: dict[int, multiprocessing.process.BaseProcess] = (
            getattr(executor, "_processes", None) or {}
        )
        for worker in list(workers.values()):
            worker.terminate()
    executor.shutdown(wait=True, cancel_futures=True)


def _settled(future: asyncio.Future[Acted]) -> None:
    """Retrieve the outcome of a move whose driver stopped waiting for it."""
    if not future.cancelled():
        future.exception()
