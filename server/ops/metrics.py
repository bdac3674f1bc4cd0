"""The server's Prometheus metrics, kept by ``prometheus_client``.

One process: each app has a registry of its own. Several worker processes (``serve --workers N``):
``serve`` points ``PROMETHEUS_MULTIPROC_DIR`` at a fresh directory before the workers start, so
``prometheus_client`` keeps every worker's values in files there, and ``/metrics`` answered by any
worker adds up all of them. Counters and histograms sum over workers, dead ones included; gauges
sum over the workers still running (``livesum``): a worker that stops removes its own, and a scrape
removes those of workers that died without stopping.

Gauges that sample a value owned elsewhere (cached heads, Redis commands in flight) are set at
each scrape, and with several workers also every ``SAMPLE_INTERVAL_S`` by each worker, since a
scrape reaches only one of them.
"""

from __future__ import annotations

import asyncio
import gc
import glob
import os
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    generate_latest,
    multiprocess,
)

from server.ops import phases

MULTIPROC_DIR = "PROMETHEUS_MULTIPROC_DIR"
SAMPLE_INTERVAL_S = 1.0
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

# A ``*_created`` series per counter and histogram says when this process started; it would only
# differ between one process and several (multiprocess mode never has it).
disable_created_metrics()  # type: ignore[no-untyped-call]


def multiprocess_directory() -> str | None:
    """Where worker processes keep their metrics, or None in a process of its own."""
    return os.environ.get(MULTIPROC_DIR) or None


class Metrics:
    def __init__(self, *, directory: str | None = None) -> None:
        """``directory``: the multiprocess directory to aggregate (default: the environment's)."""
        self.directory = directory or multiprocess_directory()
        own = CollectorRegistry()
        self.accepted = Counter("tabletale_actions_accepted", "Actions accepted.", registry=own)
        self.rejected = Counter(
            "tabletale_actions_rejected",
            "Actions rejected, by error code.",
            ["code"],
            registry=own,
        )
        self.action_phase_seconds = Histogram(
            "tabletale_action_phase_seconds",
            "Time a sample of accepted actions (one in 16) spent in each phase of the command "
            "path (server/ops/phases.py).",
            ["phase"],
            buckets=BUCKETS,
            registry=own,
        )
        self.phase_seconds = {p: self.action_phase_seconds.labels(p) for p in phases.PHASES}
        """Each phase's histogram, looked up once."""
        self.append_seconds = Histogram(
            "tabletale_append_seconds",
            "Time to decide and append one command.",
            buckets=BUCKETS,
            registry=own,
        )
        self.updates_pushed = Counter(
            "tabletale_updates_pushed",
            "Live frames queued for sockets: one per watching socket per change "
            "(the acting socket's answer included).",
            registry=own,
        )
        self.sockets = Gauge(
            "tabletale_sockets_connected",
            "Open WebSocket sessions.",
            multiprocess_mode="livesum",
            registry=own,
        )
        self.sockets_dropped = Counter(
            "tabletale_sockets_dropped",
            "Sockets the server aborted because the peer stopped reading, by reason: "
            "`stalled` (its backlog stayed full past ws_stall_timeout_s) or `missed_pong`.",
            ["reason"],
            registry=own,
        )
        self.campaigns_cached = Gauge(
            "tabletale_campaigns_cached",
            "Campaign head states cached in the server's processes.",
            multiprocess_mode="livesum",
            registry=own,
        )
        self.redis_in_flight = Gauge(
            "tabletale_redis_commands_in_flight",
            "Commands on the pipelined Redis link waiting for their replies (0 without Redis).",
            multiprocess_mode="livesum",
            registry=own,
        )
        self.gc_pause_seconds = Histogram(
            "tabletale_gc_pause_seconds",
            "Pauses of Python's cyclic garbage collector, by generation (2: a full collection): "
            "the event loop answers nobody meanwhile.",
            ["generation"],
            buckets=BUCKETS,
            registry=own,
        )
        self._gc_started = 0.0
        self._samplers: list[tuple[Gauge, Callable[[], float]]] = []
        if self.directory is None:
            self.registry = own
        else:
            # Read every worker's files; this process's metrics are among them.
            self.registry = CollectorRegistry()
            multiprocess.MultiProcessCollector(self.registry, path=self.directory)  # type: ignore[no-untyped-call]

    def sample(self, gauge: Gauge, read: Callable[[], float]) -> None:
        """Set ``gauge`` from ``read()`` at every scrape (and every sampling interval)."""
        self._samplers.append((gauge, read))

    def refresh(self) -> None:
        for gauge, read in self._samplers:
            gauge.set(read())

    async def keep_sampled(self, interval: float = SAMPLE_INTERVAL_S) -> None:
        """Refresh the sampled gauges forever: with several workers, a scrape refreshes one."""
        while True:
            self.refresh()
            await asyncio.sleep(interval)

    def render(self) -> bytes:
        """The text exposition of every metric (of every worker, with several)."""
        self.refresh()
        if self.directory is not None:
            self._forget_dead_workers(self.directory)
        return generate_latest(self.registry)

    def time_collections(self) -> None:
        """Time every collection of this process's garbage collector until :meth:`close`."""
        if self._time_collection not in gc.callbacks:
            gc.callbacks.append(self._time_collection)

    def _time_collection(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        else:
            paused = time.perf_counter() - self._gc_started
            self.gc_pause_seconds.labels(str(info["generation"])).observe(paused)
            phases.paused_s[0] += paused

    def close(self) -> None:
        """This worker is stopping: its gauges leave the sums (its counts stay)."""
        if self._time_collection in gc.callbacks:
            gc.callbacks.remove(self._time_collection)
        if self.directory is not None:
            multiprocess.mark_process_dead(os.getpid(), self.directory)  # type: ignore[no-untyped-call]

    @staticmethod
    def _forget_dead_workers(directory: str) -> None:
        # A worker killed outright never ran close(); uvicorn starts another under a new pid.
        for path in glob.glob(os.path.join(directory, "gauge_live*_*.db")):
            pid = int(path[: -len(".db")].rsplit("_", 1)[1])
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                multiprocess.mark_process_dead(pid, directory)  # type: ignore[no-untyped-call]
            except PermissionError:
                pass  # running, as another user
