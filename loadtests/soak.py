"""A soak: mixed clients on two server processes and one Redis, then every stream verified.

    python loadtests/soak.py --duration 60 [--redis-url URL] [--players 12]

Two ``tabletale serve`` processes share one Redis (or a Redis Cluster: ``--redis-url
redis+cluster://host:port``) under a key prefix of their own (deleted afterwards). For
``--duration`` seconds, on loopback only:

- socket players act with random legal actions, some seats of one campaign on each process;
- spectators watch campaigns through the other process;
- HTTP players act on the same campaigns (so stale versions happen), readers fetch states, events,
  timelines and the catalog;
- forkers fork and rewinders rewind at the listed points (and now and then anywhere), reconnectors
  drop their socket and resume.

Then every campaign's stream is replayed and every stored state hash checked, each spectator's
patched view is compared with the server's, and both servers' logs are searched for errors.
Prints one JSON object; exits 1 on any divergence, disagreement or internal error.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import time
import traceback
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cli.verify import verify_campaigns  # noqa: E402
from clients.connection import ProtocolError, Seat  # noqa: E402
from loadtests.server_under_test import tabletale_server  # noqa: E402

ERROR_MARKERS = ("Traceback", "ERROR", "Unexpected error")


def versions_in(runs: list[list[int]]) -> list[int]:
    """The versions of the runs of points a state answer lists (``[first, last]`` each)."""
    return [version for first, last in runs for version in range(first, last + 1)]


class Soak:
    def __init__(self, bases: list[str], deadline: float, seed: int) -> None:
        self.bases = bases
        self.deadline = deadline
        self.rng = random.Random(seed)
        self.counts: Counter[str] = Counter()
        self.campaigns: dict[str, dict[str, str]] = {}  # id -> seat tokens
        self.quiet: list[str] = []
        """Forks only the branchers act on (by rewinding), so their rewinds rarely meet a stale
        version; every other client leaves them alone."""
        self.spectators: list[Seat] = []

    def running(self) -> bool:
        return time.monotonic() < self.deadline

    async def create(self, http: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
        game, seats = self.rng.choice(
            [("eila", None), ("gil-ennis", None), ("gil-ennis", ["gil", "ennis"])]
        )
        body: dict[str, Any] = {"game": game}
        if seats:
            body["seats"] = seats
        created = (
            await http.post(f"{self.rng.choice(self.bases)}/api/campaigns", json=body)
        ).json()
        self.campaigns[created["id"]] = created["seats"]
        self.counts["created"] += 1
        return created["id"], created["seats"]

    async def player(self, http: httpx.AsyncClient) -> None:
        """Each seat of a campaign on its own socket, seats spread over both processes."""
        while self.running():
            campaign, tokens = await self.create(http)
            async with AsyncExitStack() as stack:
                seats = [
                    await stack.enter_async_context(
                        Seat.connect(self.bases[n % 2], campaign, token=token, timeout=10)
                    )
                    for n, token in enumerate(tokens.values())
                ]
                while self.running():
                    movers = [s for s in seats if s.legal_actions]
                    if not movers:
                        if seats[0].outcome != "running":
                            break
                        await seats[0].next_update(timeout=10)
                        continue
                    seat = self.rng.choice(movers)
                    try:
                        await seat.act(self.rng.choice(seat.legal_actions)["id"], timeout=10)
                        self.counts["socket acts accepted"] += 1
                    except ProtocolError as refused:
                        self.counts[f"socket acts {refused.code}"] += 1
                    for other in seats:
                        if other is not seat:
                            await other.until(seat.version, timeout=10)

    async def http_player(self, http: httpx.AsyncClient) -> None:
        while self.running():
            await asyncio.sleep(0.02)  # a person's pace between requests
            if not self.campaigns:
                continue
            campaign = self.rng.choice(self._busy())
            token = self.rng.choice(list(self.campaigns[campaign].values()))
            headers = {"Authorization": f"Bearer {token}"}
            base = self.rng.choice(self.bases)
            state = (
                await http.get(f"{base}/api/campaigns/{campaign}/state", headers=headers)
            ).json()
            self.counts["http reads"] += 1
            if not state.get("legal_actions"):
                continue
            reply = await http.post(
                f"{self.rng.choice(self.bases)}/api/campaigns/{campaign}/actions",
                json={
                    "action": self.rng.choice(state["legal_actions"])["id"],
                    "expected_version": state["version"],
                },
                headers=headers,
            )
            code = "accepted" if reply.status_code == 200 else reply.json()["error"]["code"]
            self.counts[f"http acts {code}"] += 1

    async def reader(self, http: httpx.AsyncClient) -> None:
        while self.running():
            await asyncio.sleep(0.05)  # a reader's pace
            base = self.rng.choice(self.bases)
            if not self.campaigns:
                continue
            campaign = self.rng.choice(list(self.campaigns))
            path = self.rng.choice(["events", "timeline", "state", ""])
            url = f"{base}/api/campaigns/{campaign}/{path}".rstrip("/")
            status = (await http.get(url)).status_code
            listed = (await http.get(f"{base}/api/campaigns?limit=20")).status_code
            self.counts[f"reads {status} {listed}"] += 1

    def _busy(self) -> list[str]:
        """The campaigns every client may use (all but the quiet forks)."""
        quiet = set(self.quiet)
        return [c for c in self.campaigns if c not in quiet] or list(self.campaigns)

    async def brancher(self, http: httpx.AsyncClient) -> None:
        """Forks and rewinds at the points the state lists, and now and then at any version
        (which the server may refuse: not every version is a fork or rewind point)."""
        while self.running():
            await asyncio.sleep(0.1)  # a person's pace
            if not self.campaigns:
                continue
            rewinding = self.rng.random() >= 0.5
            if rewinding and self.quiet and self.rng.random() < 0.7:
                campaign = self.rng.choice(self.quiet)
            else:
                campaign = self.rng.choice(list(self.campaigns))
            token = next(iter(self.campaigns[campaign].values()))
            headers = {"Authorization": f"Bearer {token}"}
            base = self.rng.choice(self.bases)
            state = (
                await http.get(f"{base}/api/campaigns/{campaign}/state", headers=headers)
            ).json()
            version = state["version"]
            anywhere = self.rng.random() < 0.2
            if not rewinding:
                points = versions_in(state["points"]["fork"])
                at = self.rng.randint(1, version) if anywhere or not points else None
                reply = await http.post(
                    f"{base}/api/campaigns/{campaign}/fork",
                    json={
                        "at": self.rng.choice(points) if at is None else at,
                        "reseed": self.rng.random() < 0.3,
                    },
                    headers=headers,
                )
                if reply.status_code == 201:
                    self.campaigns[reply.json()["id"]] = reply.json()["seats"]
                    if self.rng.random() < 0.5:
                        self.quiet.append(reply.json()["id"])
                self.counts[f"forks {reply.status_code}"] += 1
            else:
                if state["outcome"] != "running" and not anywhere:
                    continue  # a finished campaign is not rewound (fork it with new luck)
                for _attempt in range(3):  # as a person would: look again after a stale answer
                    points = versions_in(state["points"]["rewind"])
                    if not points and not anywhere:
                        break  # nothing offered to rewind to: look at another campaign
                    to = self.rng.randint(1, version) if anywhere else None
                    reply = await http.post(
                        f"{base}/api/campaigns/{campaign}/rewind",
                        json={
                            "to": self.rng.choice(points) if to is None else to,
                            "expected_version": version,
                        },
                        headers=headers,
                    )
                    self.counts[f"rewinds {reply.status_code}"] += 1
                    if reply.status_code != 409:
                        break
                    state = (
                        await http.get(f"{base}/api/campaigns/{campaign}/state", headers=headers)
                    ).json()
                    version = state["version"]

    async def reconnector(self) -> None:
        """A socket that leaves and comes back with the last version it saw."""
        while self.running():
            if not self.campaigns:
                await asyncio.sleep(0.05)  # waiting for the first campaign
                continue
            campaign = self.rng.choice(list(self.campaigns))
            token = next(iter(self.campaigns[campaign].values()))
            async with Seat.connect(self.rng.choice(self.bases), campaign, token=token) as seat:
                seen = seat.version
            await asyncio.sleep(0.05)  # away for a moment
            base = self.rng.choice(self.bases)
            async with Seat.connect(base, campaign, token=token, since=seen) as seat:
                missed = [e["version"] for e in seat.events]
                if missed != list(range(seen + 1, seat.version + 1)):
                    self.counts["resume gaps"] += 1
                self.counts["reconnects"] += 1

    async def spectate(self) -> None:
        """Spectators that stay to the end, to compare their patched views with the server's."""
        while self.running() and len(self.spectators) < 6:
            if not self.campaigns:
                await asyncio.sleep(0.05)  # waiting for the first campaign
                continue
            campaign = self.rng.choice(list(self.campaigns))
            seat = await self._stack.enter_async_context(
                Seat.connect(self.rng.choice(self.bases), campaign, timeout=10)
            )
            self.spectators.append(seat)
            await asyncio.sleep(0.5)  # spread the spectators over the run

    async def run(self, players: int) -> None:
        # Idle connections close on this side well before the server's keep-alive ends.
        limits = httpx.Limits(max_connections=200, keepalive_expiry=2.0)
        async with AsyncExitStack() as stack, httpx.AsyncClient(timeout=30, limits=limits) as http:
            self._stack = stack
            jobs = [self.player(http) for _ in range(players)]
            jobs += [self.http_player(http) for _ in range(3)]
            jobs += [self.reader(http) for _ in range(2)]
            jobs += [self.brancher(http), self.brancher(http)]
            jobs += [self.reconnector(), self.reconnector(), self.spectate()]
            spectating = asyncio.create_task(self._follow_spectators())
            results = await asyncio.gather(*jobs, return_exceptions=True)
            for job, result in zip(jobs, results, strict=True):
                if isinstance(result, BaseException):
                    self.counts[f"client failures {type(result).__name__}"] += 1
                    # Where it failed: a bare TimeoutError says nothing by itself.
                    where = traceback.format_exception(result)[-3:]
                    name = job.__qualname__
                    print(f"soak: {name}: {''.join(where)}", file=sys.stderr)
            await self.settle_spectators(http)
            spectating.cancel()
            await asyncio.gather(spectating, return_exceptions=True)

    async def _follow_spectators(self) -> None:
        following: dict[int, asyncio.Task[None]] = {}
        try:
            while True:
                for seat in self.spectators:
                    if id(seat) not in following:
                        following[id(seat)] = asyncio.create_task(self._keep_reading(seat))
                await asyncio.sleep(0.05)  # picks up spectators as they join
        finally:
            for task in following.values():
                task.cancel()
            await asyncio.gather(*following.values(), return_exceptions=True)

    @staticmethod
    async def _keep_reading(seat: Seat) -> None:
        while True:
            await seat.next_update(timeout=3600)

    async def settle_spectators(self, http: httpx.AsyncClient) -> None:
        for seat in self.spectators:
            campaign = seat.replica.campaign
            state = (await http.get(f"{self.bases[0]}/api/campaigns/{campaign}/state")).json()
            deadline = time.monotonic() + 10
            while seat.version < state["version"] and time.monotonic() < deadline:
                await asyncio.sleep(0.05)  # the spectator's reader task is catching up
            if seat.version != state["version"] or seat.view != state["view"]:
                self.counts["spectator disagreements"] += 1
            else:
                self.counts["spectators in agreement"] += 1


def log_errors(paths: list[str]) -> list[str]:
    found: list[str] = []
    for path in paths:
        for line in Path(path).read_text(errors="replace").splitlines():
            if any(marker in line for marker in ERROR_MARKERS):
                found.append(line[:300])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--redis-url", default=os.environ.get("TABLETALE_REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args()
    prefix = f"ttsoak-{os.getpid()}-{int(time.time())}"
    with (
        tabletale_server(workers=1, redis_url=args.redis_url, prefix=prefix) as (a, _, log_a),
        tabletale_server(workers=1, redis_url=args.redis_url, prefix=prefix) as (b, _, log_b),
    ):
        soak = Soak([a, b], time.monotonic() + args.duration, args.seed)
        started = time.monotonic()
        asyncio.run(soak.run(args.players))
        elapsed = time.monotonic() - started
        verified = asyncio.run(verify_campaigns(args.redis_url, prefix, sorted(soak.campaigns)))
        errors = log_errors([log_a, log_b])
    summary = {
        "duration_s": round(elapsed, 1),
        "counts": dict(sorted(soak.counts.items())),
        **verified,
        "server_log_errors": errors[:20],
    }
    print(json.dumps(summary, indent=1))
    bad = (
        verified["divergences"]
        or errors
        or soak.counts["spectator disagreements"]
        or soak.counts["resume gaps"]
        or any(k.startswith("client failures") for k in soak.counts)
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
