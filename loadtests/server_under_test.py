"""The tabletale server a load test measures: started on a free port under a key prefix of its
own, and what its processes cost (CPU, memory, Redis connections), read from ``/proc``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CLK_TCK = os.sysconf("SC_CLK_TCK")
NO_LIMITS = {
    "TABLETALE_LIMIT_CREATIONS": "off",
    "TABLETALE_LIMIT_SOCKETS_PER_CLIENT": "0",
    "TABLETALE_LIMIT_MESSAGES_PER_SECOND": "0",
}
"""A load generator is one client doing the work of thousands: the per-client limits, which
exist to stop exactly that, are off for the servers it measures."""


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_ready(base: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "/readyz", timeout=1) as reply:
                if reply.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.05)  # polling the server until it answers, bounded by the deadline
    raise TimeoutError(f"{base} did not become ready within {timeout} s.")


def process_tree(root: int) -> list[int]:
    """``root`` and every descendant process."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / CLK_TCK
    return total


def memory_kib(pids: list[int], field: str) -> int:
    """The sum of ``field`` (VmRSS, VmHWM) over ``pids``, in KiB."""
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith(field + ":"):
                        total += int(line.split()[1])
        except OSError:
            continue
    return total


def redis_pids(redis_url: str) -> list[int]:
    """The processes of the Redis servers behind ``redis_url`` that run on this machine (every
    primary of a cluster), by the process id each reports."""
    import redis

    from server.store.redis_cluster import primary_urls

    found = []
    for node in primary_urls(redis_url):
        client = redis.Redis.from_url(node)
        try:
            pid = int(client.info("server")["process_id"])
        finally:
            client.close()
        if os.path.exists(f"/proc/{pid}"):
            found.append(pid)
    return found


def pin_cores(text: str) -> tuple[set[int], set[int]]:
    """``--pin SERVER/REST`` (e.g. ``0/1``): the server's cores, and those of everything else."""
    server, _, rest = text.partition("/")

    def cores(part: str) -> set[int]:
        return {int(core) for core in part.split(",") if core.strip()}

    try:
        placed = cores(server), cores(rest)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not SERVER/REST cores, like 0/1") from None
    if not all(placed):
        raise argparse.ArgumentTypeError(f"{text!r} names no cores on one side, like 0/1")
    return placed


@contextlib.contextmanager
def pinned(placement: dict[int, set[int]]) -> Iterator[None]:
    """Each process (and every thread of it) on its own cores until the block ends, then back
    where it was: ``placement`` maps a process id to its cores."""
    before: dict[int, set[int]] = {}
    try:
        for pid, cores in placement.items():
            for thread in _threads(pid):
                before.setdefault(thread, os.sched_getaffinity(thread))
                os.sched_setaffinity(thread, cores)
        yield
    finally:
        for thread, cores in before.items():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(thread, cores)


def _threads(pid: int) -> list[int]:
    try:
        return [int(task) for task in os.listdir(f"/proc/{pid}/task")]
    except OSError:
        return []


def redis_connections(redis_url: str, pids: list[int]) -> dict[str, int]:
    """Connections to Redis per server process (on every node of a cluster), by the client name
    each process sets."""
    import redis

    from server.store.redis_cluster import primary_urls

    counts = {str(pid): 0 for pid in pids}
    for node in primary_urls(redis_url):
        client = redis.Redis.from_url(node)
        try:
            clients = client.client_list()
        finally:
            client.close()
        for entry in clients:
            name = str(entry.get("name", ""))
            if name.startswith("tabletale:"):
                pid = name.split(":")[1]
                if pid in counts:
                    counts[pid] += 1
    return {pid: n for pid, n in counts.items() if n}


Served = tuple[str, "subprocess.Popen[bytes]", str]


@contextlib.contextmanager
def tabletale_server(
    *, workers: int, redis_url: str, prefix: str | None = None
) -> Iterator[Served]:
    """A server process on a free port, on a key prefix of its own unless given one (deleted
    afterwards): (base URL, process, log path)."""
    port = free_port()
    prefix = prefix or f"ttbench-{uuid.uuid4().hex[:10]}"
    env = {**os.environ, "TABLETALE_REDIS_PREFIX": prefix, **NO_LIMITS}
    command = [sys.executable, "-m", "cli.main", "serve", "--port", str(port)]
    command += ["--redis-url", redis_url]
    if workers > 1:
        command += ["--workers", str(workers)]
    log_path = Path(tempfile.mkstemp(prefix="tabletale-bench-", suffix=".log")[1])
    with log_path.open("wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_until_ready(base)
            yield base, server, str(log_path)
        finally:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            asyncio.run(_delete_prefix(redis_url, prefix))


async def _delete_prefix(url: str, prefix: str) -> None:
    import redis.asyncio

    from server.store.redis_cluster import primary_urls

    for node in primary_urls(url):
        client = redis.asyncio.Redis.from_url(node)
        try:
            keys = [key async for key in client.scan_iter(match=f"{prefix}:*", count=1000)]
            # One key per UNLINK: on a cluster node, the keys of one command share a slot.
            for start in range(0, len(keys), 500):
                pipe = client.pipeline(transaction=False)
                for key in keys[start : start + 500]:
                    pipe.unlink(key)
                await pipe.execute()
        finally:
            await client.aclose()
