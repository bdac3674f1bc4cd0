"""Heavy reads against one server process: memory held by long resumes, and /healthz while the
timeline of a long campaign is read.

    python loadtests/heavy_reads.py [--events 30000] [--resumes 5] [--timelines 4]
                                    [--redis-url URL]

One Gil & Ennis campaign is grown to ``--events`` events (random legal play, rewound to the
start whenever a game ends: the same stream as ``tabletale bench replay``) and copied into Redis
under a key prefix of its own, deleted afterwards. A ``tabletale serve`` process on loopback
then serves it while this script:

1. opens ``--resumes`` anonymous sockets at once that resume from version 1 (``hello`` with
   ``since: 1``) and reads everything they are sent up to the head, sampling the server's
   resident memory (RSS) every 10 ms;
2. sends ``--timelines`` concurrent ``GET /timeline`` requests while polling ``/healthz`` every
   20 ms, and reports how long the health checks took meanwhile.

Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cli.bench import seed_redis  # noqa: E402
from loadtests.server_under_test import tabletale_server  # noqa: E402

CAMPAIGN = "bench-000001"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"No VmRSS for process {pid}.")


async def sample_rss(pid: int, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak[0] = max(peak[0], rss_mb(pid))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.01)


async def resume(ws_base: str, head: int) -> dict[str, Any]:
    """Resume from version 1 and read until the head's events have all arrived."""
    started = time.monotonic()
    frames = events = 0
    largest = 0
    async with connect(
        f"{ws_base}/ws/campaigns/{CAMPAIGN}", max_size=None, open_timeout=30
    ) as socket:
        await socket.send(json.dumps({"type": "hello", "since": 1}))
        while True:
            raw = await asyncio.wait_for(socket.recv(), 120)
            frames += 1
            largest = max(largest, len(raw))
            message = json.loads(raw)
            if message["type"] == "welcome":
                events += len(message.get("missed", []))
                more = message.get("missed_more", False)
            elif message["type"] == "missed":
                events += len(message["events"])
                more = message.get("more", False)
            else:
                raise RuntimeError(f"Unexpected {message['type']} during a resume.")
            if not more:
                break
    return {
        "seconds": time.monotonic() - started,
        "frames": frames,
        "events": events,
        "largest_frame_bytes": largest,
        "complete": events == head - 1,
    }


async def timelines(base: str, count: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=300) as http:
        assert (await http.get("/healthz")).status_code == 200
        latencies: list[float] = []
        done = asyncio.Event()

        async def poll() -> None:
            while not done.is_set():
                started = time.monotonic()
                await http.get("/healthz")
                latencies.append(time.monotonic() - started)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), 0.02)

        async def read() -> float:
            started = time.monotonic()
            response = await http.get(f"/api/campaigns/{CAMPAIGN}/timeline")
            response.raise_for_status()
            return time.monotonic() - started

        poller = asyncio.create_task(poll())
        took = await asyncio.gather(*(read() for _ in range(count)))
        done.set()
        await poller
    return {
        "timeline_seconds": [round(t, 3) for t in took],
        "healthz_checks": len(latencies),
        "healthz_max_ms": round(max(latencies) * 1000, 1),
        "healthz_median_ms": round(statistics.median(latencies) * 1000, 1),
    }


async def measure(args: argparse.Namespace, base: str, pid: int) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        head = (await http.get(f"/api/campaigns/{CAMPAIGN}/state")).json()["version"]
    idle = rss_mb(pid)
    peak = [idle]
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample_rss(pid, peak, stop))
    resumes = await asyncio.gather(*(resume(ws_base, head) for _ in range(args.resumes)))
    stop.set()
    await sampler
    after = rss_mb(pid)
    reads = await timelines(base, args.timelines)
    return {
        "events": head,
        "rss_idle_mb": round(idle, 1),
        "rss_peak_during_resumes_mb": round(peak[0], 1),
        "rss_after_resumes_mb": round(after, 1),
        "resumes": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in r.items()} for r in resumes
        ],
        **reads,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=30_000)
    parser.add_argument("--resumes", type=int, default=5)
    parser.add_argument("--timelines", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    prefix = f"ttheavy-{int(time.time() * 1000) % 10**9}"
    asyncio.run(
        seed_redis(
            args.events, args.seed, redis_url=args.redis_url, prefix=prefix, campaign_id=CAMPAIGN
        )
    )
    with tabletale_server(workers=1, redis_url=args.redis_url, prefix=prefix) as served:
        base, process, _ = served
        figures = asyncio.run(measure(args, base, process.pid))
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
