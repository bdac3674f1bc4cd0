"""Spectators that stop reading, against one server process: are they dropped, and is the memory
they held given back?

    python loadtests/stalled_sockets.py [--sockets 2000] [--idle 20] [--stall-timeout 2]
                                        [--ping-interval 10] [--send-buffer-kib 64]
                                        [--waves 3] [--syncs 0] [--redis-url URL]

A ``tabletale serve`` process on loopback (``ws_stall_timeout_s``, ``ws_ping_interval_s`` and
``ws_send_buffer_kib`` set from the flags) serves Gil & Ennis campaigns, one per 100 spectators.
This script opens ``--sockets`` spectator sockets with a tiny kernel receive buffer (``SO_RCVBUF``),
reads each one's ``welcome`` and then nothing more (after asking for ``--syncs`` full views, which
fill its backlog however slowly the campaigns are played), plus ``--idle`` sockets that open on a
campaign, say nothing and read nothing, and one spectator per campaign that reads everything. It
plays the campaigns over HTTP (random legal actions, rewound to the start every 10 versions) until
the server has closed every stalled and idle socket or a deadline passes, and does all that
``--waves`` times on the same campaigns, so that what memory a wave leaves behind shows (is it kept,
or used again by the next?). It reports as one JSON object, per wave: the server's RSS before the
sockets, at its peak and after they are gone; its open file descriptors likewise; the sockets it
counts (``tabletale_sockets_connected``) and the ones it dropped (``tabletale_sockets_dropped``);
how long after opening the last socket the stalled and the idle ones were closed; and over the run,
how late the reading spectators' updates came.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import socket
import struct
import sys
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from loadtests.server_under_test import memory_kib, tabletale_server  # noqa: E402

PER_CAMPAIGN = 100
SYNC = json.dumps({"type": "sync"})
REWIND_AFTER = 10
ESTABLISHED = 1
"""``TCP_ESTABLISHED`` in Linux's ``tcp_states.h``: a FIN or a reset from the server moves a
socket out of it."""
RECEIVE_BUFFER = 1024
"""The stalled clients' ``SO_RCVBUF`` (the kernel doubles it and keeps a floor of its own): the
server's writes to them back up after a few frames instead of after megabytes."""


def metric(text: str, name: str) -> float:
    """The sum of every series of ``name`` in a Prometheus text exposition."""
    total = 0.0
    for line in text.splitlines():
        if line.startswith(name) and line[len(name)] in " {":
            total += float(line.rsplit(" ", 1)[1])
    return total


def open_fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def masked_text(text: str) -> bytes:
    """One client-to-server text frame (clients mask what they send)."""
    payload = text.encode()
    assert len(payload) < 126
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


async def read_exactly(loop: asyncio.AbstractEventLoop, sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = await loop.sock_recv(sock, n - len(data))
        if not chunk:
            raise ConnectionError("The server closed the socket during its welcome.")
        data += chunk
    return data


async def read_frame(loop: asyncio.AbstractEventLoop, sock: socket.socket) -> bytes:
    head = await read_exactly(loop, sock, 2)
    size = head[1] & 0x7F
    if size == 126:
        size = struct.unpack("!H", await read_exactly(loop, sock, 2))[0]
    elif size == 127:
        size = struct.unpack("!Q", await read_exactly(loop, sock, 8))[0]
    return await read_exactly(loop, sock, size)


async def stalled_socket(
    port: int, path: str, hello: str | None, *, syncs: int = 0
) -> socket.socket:
    """A socket that completes the handshake, says ``hello`` and reads its welcome (when it
    says one), asks for ``syncs`` full views, and is never read again."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)  # before connecting
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    request = (
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    await loop.sock_sendall(sock, request.encode())
    response = b""
    while b"\r\n\r\n" not in response:
        response += await read_exactly(loop, sock, 1)
    if not response.startswith(b"HTTP/1.1 101"):
        raise ConnectionError(f"The handshake failed: {response[:60]!r}.")
    if hello is not None:
        await loop.sock_sendall(sock, masked_text(hello))
        welcome = json.loads(await read_frame(loop, sock))
        if welcome["type"] != "welcome":
            raise ConnectionError(f"Expected a welcome, got {welcome['type']}.")
        await loop.sock_sendall(sock, masked_text(SYNC) * syncs)
    return sock


def closed_by_peer(sock: socket.socket) -> bool:
    """Whether the server has closed or reset ``sock``, from the kernel's TCP state (reading
    would drain what the server sent; the state's first byte of ``TCP_INFO``)."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)[0] != ESTABLISHED


class Reader:
    """A spectator that reads everything, noting how late each update came."""

    def __init__(self) -> None:
        self.lateness: list[float] = []
        self.sent: dict[int, float] = {}
        self.updates = 0

    async def run(self, url: str, opened: asyncio.Event) -> None:
        from websockets.asyncio.client import connect

        async with connect(url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello"}))
            json.loads(await ws.recv())
            opened.set()
            async for raw in ws:
                message = json.loads(raw)
                if message["type"] == "update":
                    self.updates += 1
                    sent = self.sent.pop(message["version"], None)
                    if sent is not None:
                        self.lateness.append(time.monotonic() - sent)


async def play(
    http: httpx.AsyncClient, campaign: dict[str, Any], reader: Reader, stop: asyncio.Event
) -> int:
    """Random legal actions on ``campaign`` until ``stop``, rewound to the first decision every
    ``REWIND_AFTER`` versions so that it seldom ends."""
    cid, token = campaign["id"], campaign["seats"]["player"]
    headers = {"Authorization": f"Bearer {token}"}
    actions = 0
    start: int | None = None  # the first version the player had a decision at
    while not stop.is_set():
        state = (await http.get(f"/api/campaigns/{cid}/state", headers=headers)).json()
        start = start or state["version"]
        if state["outcome"] != "running" or not state["legal_actions"]:
            break  # an ended campaign cannot be rewound: the rest play on
        if state["version"] > start + REWIND_AFTER:
            to = {"to": start}
            reply = await http.post(f"/api/campaigns/{cid}/rewind", json=to, headers=headers)
            if reply.status_code != 200:
                raise RuntimeError(reply.text)
            continue
        body = {
            "action": random.choice(state["legal_actions"])["id"],
            "expected_version": state["version"],
            "command_id": uuid.uuid4().hex,
        }
        sent = time.monotonic()
        reader.sent[state["version"] + 1] = sent
        reply = await http.post(f"/api/campaigns/{cid}/actions", json=body, headers=headers)
        if reply.status_code == 200:
            actions += 1
    return actions


class Server:
    """The server under test, as this script sees it: its metrics, descriptors and memory."""

    def __init__(self, http: httpx.AsyncClient, pid: int) -> None:
        self.http = http
        self.pid = pid

    async def metric(self, name: str) -> float:
        return metric((await self.http.get("/metrics")).text, name)

    async def dropped(self) -> dict[str, float]:
        text = (await self.http.get("/metrics")).text
        return {
            reason: metric(text, f'tabletale_sockets_dropped_total{{reason="{reason}"}}')
            for reason in ("stalled", "missed_pong")
        }

    def fds(self) -> int:
        return open_fds(self.pid)

    def rss_mb(self) -> float:
        return round(memory_kib([self.pid], "VmRSS") / 1024, 1)


async def wave(
    server: Server,
    port: int,
    campaigns: list[dict[str, Any]],
    readers: list[Reader],
    args: argparse.Namespace,
) -> dict[str, Any]:
    """Open the stalled and idle sockets, play until the server has closed them all (or the
    deadline), and say what it took."""
    sockets_start = await server.metric("tabletale_sockets_connected")
    dropped_start = await server.dropped()
    fds_start, rss_start = server.fds(), server.rss_mb()
    hello = json.dumps({"type": "hello"})
    limit = asyncio.Semaphore(64)

    async def stalled_one(n: int) -> socket.socket:
        async with limit:
            cid = campaigns[n // PER_CAMPAIGN]["id"]
            return await stalled_socket(port, f"/ws/campaigns/{cid}", hello, syncs=args.syncs)

    async def idle_one() -> socket.socket:
        async with limit:
            # On a campaign, saying nothing: no updates, only pings (unanswered).
            return await stalled_socket(port, f"/ws/campaigns/{campaigns[0]['id']}", None)

    stalled = await asyncio.gather(*(stalled_one(n) for n in range(args.sockets)))
    idlers = await asyncio.gather(*(idle_one() for _ in range(args.idle)))
    opened_at = time.monotonic()
    sockets_open = await server.metric("tabletale_sockets_connected")
    stop = asyncio.Event()
    players = [
        asyncio.create_task(play(server.http, c, r, stop))
        for c, r in zip(campaigns, readers, strict=True)
    ]
    rss_peak, fds_peak = server.rss_mb(), server.fds()
    stalled_closed_s = idle_closed_s = None
    while time.monotonic() < opened_at + args.deadline:
        rss_peak, fds_peak = max(rss_peak, server.rss_mb()), max(fds_peak, server.fds())
        now = time.monotonic() - opened_at
        idle_open = sum(not closed_by_peer(s) for s in idlers)
        if idle_closed_s is None and not idle_open:
            idle_closed_s = round(now, 2)
        # The server's own count: a FIN cannot reach a peer whose receive window is full.
        connected = await server.metric("tabletale_sockets_connected")
        if stalled_closed_s is None and connected <= sockets_start + idle_open:
            stalled_closed_s = round(now, 2)
        if stalled_closed_s is not None and idle_closed_s is not None:
            break
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.1)  # a sampling period, not a wait on it
    stop.set()
    actions = sum(await asyncio.gather(*players))
    figures = {
        "actions": actions,
        "stalled_closed_after_s": stalled_closed_s,
        "idle_closed_after_s": idle_closed_s,
        "sockets_connected": [
            sockets_start,
            sockets_open,
            await server.metric("tabletale_sockets_connected"),
        ],
        "sockets_dropped": {
            reason: count - dropped_start[reason]
            for reason, count in (await server.dropped()).items()
        },
        "fds": [fds_start, fds_peak, server.fds()],
        "rss_mb": [rss_start, rss_peak, server.rss_mb()],
    }
    for sock in (*stalled, *idlers):
        sock.close()
    return figures


async def measure(base: str, pid: int, args: argparse.Namespace) -> dict[str, Any]:
    port = int(base.rsplit(":", 1)[1])
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        server = Server(http, pid)
        campaigns = []
        for _ in range(max(1, -(-args.sockets // PER_CAMPAIGN))):
            reply = await http.post("/api/campaigns", json={"game": "gil-ennis"})
            reply.raise_for_status()
            campaigns.append(reply.json())
        readers = [Reader() for _ in campaigns]
        tasks = []
        for campaign, reader in zip(campaigns, readers, strict=True):
            opened = asyncio.Event()
            url = base.replace("http", "ws", 1) + f"/ws/campaigns/{campaign['id']}"
            tasks.append(asyncio.create_task(reader.run(url, opened)))
            await asyncio.wait_for(opened.wait(), 30)
        rss_start = server.rss_mb()
        waves = [await wave(server, port, campaigns, readers, args) for _ in range(args.waves)]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    lateness = sorted(x for r in readers for x in r.lateness)
    return {
        "sockets": args.sockets,
        "idle": args.idle,
        "stall_timeout_s": args.stall_timeout,
        "ping_interval_s": args.ping_interval,
        "send_buffer_kib": args.send_buffer_kib,
        "syncs": args.syncs,
        "rss_mb_before": rss_start,
        "waves": waves,
        "reader_updates": sum(r.updates for r in readers),
        "reader_lateness_ms_p50": round(lateness[len(lateness) // 2] * 1000, 1)
        if lateness
        else None,
        "reader_lateness_ms_max": round(lateness[-1] * 1000, 1) if lateness else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=2000)
    parser.add_argument("--idle", type=int, default=20)
    parser.add_argument("--stall-timeout", type=float, default=2.0)
    parser.add_argument("--ping-interval", type=float, default=10.0)
    parser.add_argument("--send-buffer-kib", type=int, default=64)
    parser.add_argument("--waves", type=int, default=3, help="rounds of stalled sockets")
    parser.add_argument(
        "--syncs", type=int, default=0, help="full views each stalled socket asks for, unread"
    )
    parser.add_argument("--deadline", type=float, default=40.0, help="give up a wave after (s)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    os.environ["TABLETALE_WS_STALL_TIMEOUT_S"] = str(args.stall_timeout)
    os.environ["TABLETALE_WS_PING_INTERVAL_S"] = str(args.ping_interval)
    os.environ["TABLETALE_WS_SEND_BUFFER_KIB"] = str(args.send_buffer_kib)
    with tabletale_server(workers=1, redis_url=args.redis_url) as (base, server, _log):
        figures = asyncio.run(measure(base, server.pid, args))
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
