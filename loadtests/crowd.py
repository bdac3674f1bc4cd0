"""A crowd watching one table: how long until the last spectator has each update?

    python loadtests/crowd.py [--spectators 1000,5000,10000] [--processes 1] [--actions 60]
                              [--pace 1.0] [--drivers 4] [--pin 0/1] [--redis-url URL]

One Eila campaign on a ``tabletale serve`` process on loopback (with ``--processes 2``, two
processes on one Redis, the spectators split evenly between them and the player on the first).
``--drivers`` helper processes open the spectator sockets, each a bare WebSocket client that reads
every frame and notes when each version arrived (reading only a frame's head, so the clients cost
as little as they can). When every spectator has its ``welcome``, one player acts ``--actions``
times, ``--pace`` actions a second, over its own socket. Per crowd size it prints one JSON object:

- ``last_update_ms``: per action, from the player's ``accepted`` until the last spectator had its
  ``update`` (p50, p99, max), and how many spectator updates never came;
- ``player_round_trip_ms``: the acting player's own round trip, act sent to ``accepted`` (p50, p99);
- ``server_cpu_us_per_frame``: the server processes' CPU while the player acted, over the frames
  delivered to spectators in that time;
- ``server_kib_per_spectator``: the server's RSS with the crowd connected, less before, per socket.

Times are taken with ``CLOCK_MONOTONIC``, which every process on the machine shares. The drivers
share the machine's cores with the server, so part of the lateness is theirs: ``--drivers`` trades
their parallelism against the server's share of the CPU. ``--pin 0/1`` puts the server's processes
on core 0 and the drivers, the player and a local Redis on core 1 while the player acts (Redis is
put back afterwards), so the lateness measured is the server's own work for the crowd.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import re
import struct
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clients.connection import Seat  # noqa: E402
from loadtests.server_under_test import (  # noqa: E402
    cpu_seconds,
    memory_kib,
    pin_cores,
    pinned,
    process_tree,
    redis_pids,
    tabletale_server,
)

VERSION = re.compile(rb'"version":(\d+)')
CONNECT_AT_ONCE = 100
"""Sockets a driver opens concurrently: enough to fill a crowd quickly, few enough that the
server's accept queue never overflows."""
HELLO = json.dumps({"type": "hello"}).encode()


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))], 2)


def masked_frame(opcode: int, payload: bytes) -> bytes:
    """A client's frame (clients must mask; a zero mask keeps the payload as it is)."""
    head = bytes([0x80 | opcode])
    size = len(payload)
    if size < 126:
        head += bytes([0x80 | size])
    elif size < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", size)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", size)
    return head + b"\0\0\0\0" + payload


class Spectator(asyncio.Protocol):
    """One bare spectator socket: the upgrade, a ``hello``, then every frame's version noted."""

    def __init__(self, host: str, path: str, arrivals: dict[int, list[float]]) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n\r\n"
        ).encode()
        self.arrivals = arrivals
        self.buffer = bytearray()
        self.upgraded = False
        self.welcomed: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.version = 0
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic()
        self.buffer += data
        if not self.upgraded:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 101"):
                self._fail(ConnectionError(bytes(self.buffer[:80]).decode(errors="replace")))
                return
            del self.buffer[: end + 4]
            self.upgraded = True
            assert self.transport is not None
            self.transport.write(masked_frame(0x1, HELLO))
        self._frames(now)

    def _frames(self, now: float) -> None:
        buffer = self.buffer
        while len(buffer) >= 2:
            opcode, size, start = buffer[0] & 0x0F, buffer[1] & 0x7F, 2
            if size == 126:
                if len(buffer) < 4:
                    return
                size, start = struct.unpack_from("!H", buffer, 2)[0], 4
            elif size == 127:
                if len(buffer) < 10:
                    return
                size, start = struct.unpack_from("!Q", buffer, 2)[0], 10
            if len(buffer) < start + size:
                return
            payload = bytes(buffer[start : start + size])
            del buffer[: start + size]
            if opcode in (0x1, 0x2):
                found = VERSION.search(payload, 0, 200)
                if found:
                    self.version = int(found.group(1))
                    if self.welcomed.done():
                        self.arrivals.setdefault(self.version, []).append(now)
                    else:
                        self.welcomed.set_result(self.version)
            elif opcode == 0x9 and self.transport is not None:  # ping: pong, or be dropped
                self.transport.write(masked_frame(0xA, payload))
            elif opcode == 0x8 and self.transport is not None:
                self.transport.close()

    def _fail(self, error: BaseException) -> None:
        if not self.welcomed.done():
            self.welcomed.set_exception(error)
        if self.transport is not None:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("closed before its welcome"))
        if not self.closed.done():
            self.closed.set_result(None)


async def drive(base: str, campaign: str, count: int) -> None:
    """Driver mode: open ``count`` spectators, say ``ready``, then on ``stop V`` wait until each
    has version ``V`` (or 30 s pass) and print when each version reached how many of them."""
    host, port = base.removeprefix("http://").split(":")
    loop = asyncio.get_running_loop()
    arrivals: dict[int, list[float]] = {}
    spectators: list[Spectator] = []
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def open_one() -> None:
        async with gate:
            _, spectator = await loop.create_connection(
                lambda: Spectator(f"{host}:{port}", f"/ws/campaigns/{campaign}", arrivals),
                host,
                int(port),
            )
            spectators.append(spectator)
            await asyncio.wait_for(spectator.welcomed, 60)

    await asyncio.gather(*(open_one() for _ in range(count)))
    print("ready", flush=True)
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    line = (await reader.readline()).decode().split()
    final = int(line[1])
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(s.version < final for s in spectators):
        await asyncio.sleep(0.05)  # polling for the last update, bounded by the deadline
    summary = {str(v): [len(times), max(times)] for v, times in arrivals.items()}
    print(json.dumps({"arrivals": summary}), flush=True)
    for spectator in spectators:
        if spectator.transport is not None:
            spectator.transport.close()


def server_pids(processes: list[subprocess.Popen[bytes]]) -> list[int]:
    return [pid for process in processes for pid in process_tree(process.pid)]


async def play(base: str, campaign: str, token: str, actions: int, pace: float) -> dict[str, Any]:
    """The player: ``actions`` random legal actions (never abandoning), ``pace`` a second."""
    import random

    rng = random.Random(7)
    accepted: dict[int, float] = {}
    round_trips: list[float] = []
    async with Seat.connect(base, campaign, token=token, timeout=30) as seat:
        start = time.monotonic()
        for n in range(actions):
            await asyncio.sleep(max(0.0, start + n / pace - time.monotonic()))  # the pace
            choices = [a for a in seat.legal_actions if "abandon" not in a["id"]]
            if not choices or seat.outcome != "running":
                break
            sent = time.monotonic()
            await seat.act(rng.choice(choices)["id"], timeout=30)
            now = time.monotonic()
            accepted[seat.version] = now
            round_trips.append((now - sent) * 1000)
        return {"accepted": accepted, "round_trips": round_trips, "final": seat.version}


def run(args: argparse.Namespace, spectators: int) -> dict[str, Any]:
    with contextlib.ExitStack() as stack:
        prefix = f"ttcrowd-{uuid.uuid4().hex[:10]}"  # both processes serve the same campaigns
        bases, processes = [], []
        for _ in range(args.processes):
            base, process, _log = stack.enter_context(
                tabletale_server(workers=1, redis_url=args.redis_url, prefix=prefix)
            )
            bases.append(base)
            processes.append(process)
        created = httpx.post(f"{bases[0]}/api/campaigns", json={"game": "eila"}).json()
        campaign, token = created["id"], next(iter(created["seats"].values()))
        pids = server_pids(processes)
        rss_before = memory_kib(pids, "VmRSS")
        drivers = []
        share = -(-spectators // args.drivers)
        for n in range(args.drivers):
            count = min(share, spectators - n * share)
            if count <= 0:
                break
            base = bases[n % len(bases)]
            command = [sys.executable, __file__, "--driver", "--base", base]
            command += ["--campaign", campaign, "--count", str(count)]
            drivers.append(
                subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT)
            )
        for driver in drivers:
            assert driver.stdout is not None
            if driver.stdout.readline().strip() != b"ready":
                raise RuntimeError("a driver could not open its spectators")
        pids = server_pids(processes)
        rss_crowd = memory_kib(pids, "VmRSS")
        placement: dict[int, set[int]] = {}
        if args.pin is not None:
            server_cores, other_cores = args.pin
            others = [os.getpid(), *redis_pids(args.redis_url), *(d.pid for d in drivers)]
            placement = {pid: server_cores for pid in pids}
            placement |= {pid: other_cores for pid in others}
        with pinned(placement):
            cpu_before = cpu_seconds(pids)
            played = asyncio.run(play(bases[0], campaign, token, args.actions, args.pace))
            cpu_used = cpu_seconds(pids) - cpu_before
        arrivals: dict[int, list[float]] = {}
        for driver in drivers:
            assert driver.stdin is not None and driver.stdout is not None
            driver.stdin.write(f"stop {played['final']}\n".encode())
            driver.stdin.flush()
        for driver in drivers:
            assert driver.stdout is not None
            report = json.loads(driver.stdout.readline())
            driver.wait(timeout=30)
            for version, (count, last) in report["arrivals"].items():
                seen = arrivals.setdefault(int(version), [0, 0.0])
                seen[0] += count
                seen[1] = max(seen[1], last)
        lateness, missing, delivered = [], 0, 0
        for version, at in played["accepted"].items():
            count, last = arrivals.get(version, [0, 0.0])
            delivered += count
            missing += spectators - count
            if count:
                lateness.append((last - at) * 1000)
        return {
            "spectators": spectators,
            "processes": args.processes,
            "pinned": (
                {"server": sorted(args.pin[0]), "rest": sorted(args.pin[1])} if args.pin else None
            ),
            "actions": len(played["accepted"]),
            "pace_per_s": args.pace,
            "last_update_ms": {
                "p50": percentile(lateness, 50),
                "p99": percentile(lateness, 99),
                "max": round(max(lateness), 2) if lateness else None,
                "missing_updates": missing,
            },
            "player_round_trip_ms": {
                "p50": percentile(played["round_trips"], 50),
                "p99": percentile(played["round_trips"], 99),
            },
            "server_cpu_us_per_frame": round(cpu_used / max(delivered, 1) * 1e6, 2),
            "server_kib_per_spectator": round((rss_crowd - rss_before) / spectators, 1),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", default="1000,5000,10000")
    parser.add_argument("--processes", type=int, choices=(1, 2), default=1)
    parser.add_argument("--actions", type=int, default=60)
    parser.add_argument("--pace", type=float, default=1.0, help="the player's actions a second")
    parser.add_argument("--drivers", type=int, default=4)
    parser.add_argument(
        "--pin",
        type=pin_cores,
        help="SERVER/REST: the server's processes on the cores SERVER, the drivers, the player "
        "and a local Redis on REST (e.g. 0/1) while the player acts",
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("TABLETALE_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    # driver mode (internal)
    parser.add_argument("--driver", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--campaign", help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.driver:
        asyncio.run(drive(args.base, args.campaign, args.count))
        return
    for spectators in (int(n) for n in args.spectators.split(",")):
        print(json.dumps(run(args, spectators)), flush=True)


if __name__ == "__main__":
    main()
