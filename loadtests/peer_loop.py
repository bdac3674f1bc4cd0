"""The peer's loop shape against tabletale, and the peer itself in the same run.

    python loadtests/peer_loop.py --sessions 1,50,200 --duration 15 [--workers 2]
        [--paced 2.0] [--churn [--new-over socket|http]] [--bot-partners 100] [--idle 10000]
        [--pin 0/1] [--peer DIR] [--redis-url URL]

For each configuration a tabletale server is started on a free loopback port (on Redis, under a
key prefix of its own that is deleted afterwards), ``S`` sessions are set up (a campaign and a
player socket each), then all of them loop together for ``D`` seconds: act, wait for the server's
authoritative answer, record the round trip, act again. With ``--paced R`` each session acts ``R``
times a second instead of as fast as it can; with ``--churn`` a session whose campaign ends
creates the next one and plays on (Gil & Ennis games end after about 45 actions), and the time
until the next campaign is playable (its welcome in) is reported apart: by default the session
sends ``create`` on the socket it has; ``--new-over http`` creates it with ``POST /api/campaigns``
and opens a new socket to it. With ``--bot-partners N``, N sessions more play Gil &
Ennis in co-op with a search bot as Ennis (thinking in the server's bot processes, at its bot
pace), waiting for the bot's moves as a person would and starting a new journey when one ends;
the ``S`` sessions' round trips are reported apart from theirs, so that what the bots cost the
people beside them shows. ``--pin 0/1`` puts the server's processes on core 0 and the load
generator and a local Redis on core 1 for the run (Redis is put back afterwards), so that the
tail measured is the server's own; the CPU of each of the three is reported. ``--idle N`` opens
``N`` player sockets that never act and measures what they cost the server. When Node and the
boardgame.io harness (``--peer``) are present, the harness runs with the same ``S`` and ``D``
right after, so the ratios come from one sitting on one machine.

Prints one JSON line per configuration: moves, moves/s, p50/p95/p99 round trip (ms), errors,
server CPU per accepted action (ms), server peak RSS, the Redis connections each server process
holds, the garbage collector's pauses in the window, and where the server's time per action
went, phase by phase (``action_phases``: the lock, the rules, the store, the delivery, the
collector and the rest; each phase's mean and the bound its 99th percentile lies under).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from clients.connection import Seat, create_campaign  # noqa: E402
from clients.replica import ProtocolError  # noqa: E402
from loadtests.server_under_test import (  # noqa: E402
    cpu_seconds,
    memory_kib,
    pin_cores,
    pinned,
    process_tree,
    redis_connections,
    redis_pids,
    tabletale_server,
)

DEFAULT_PEER = ROOT.parent / "shared" / "peers" / "boardgameio"
DRIVERS = 2  # driver processes, so the load generator is not the bottleneck on two cores
GIVING_UP = ("abandon", "confirm_abandon")
"""Action ids the players never pick (Eila's way of ending a campaign for good)."""
BOT_SEATS = ["gil", "ennis"]


# -- the driver: one process runs a share of the sessions ------------------------------------


async def _session(
    base: str,
    game: str,
    index: int,
    start: asyncio.Event,
    window: list[float],
    pace: float,
    out: dict[str, Any],
) -> None:
    rng = random.Random(index)
    ws = "ws" + base.removeprefix("http")
    seed = index + 1
    partnered = index >= out["sessions"]  # the --bot-partners sessions come after the others

    async def new_campaign() -> dict[str, Any]:
        if not partnered:
            return await create_campaign(base, game, seed=seed)
        # Gil & Ennis in co-op: this session plays Gil, a search bot plays Ennis.
        bots = {"ennis": {"bot": "search", "level": out["bot_level"]}}
        created = await create_campaign(base, "gil-ennis", seed=seed, seats=BOT_SEATS, bots=bots)
        created["seats"].pop("ennis")
        return created

    try:
        created = await new_campaign()
        first = True
        restarted: float | None = None  # when the next campaign was asked for, by HTTP
        while True:
            token = next(iter(created["seats"].values()))
            async with Seat.connect(ws, created["id"], token=token) as seat:
                if restarted is not None:  # playable now: its welcome is in
                    out["restarts"].append((time.perf_counter() - restarted) * 1000)
                    restarted = None
                if first:
                    out["ready"] += 1
                    await start.wait()
                    begin, end = window
                    next_at = begin + rng.random() / pace if pace else begin
                    first = False
                while True:
                    due = await _play(seat, rng, next_at, end, pace, partnered, out)
                    if due is None:
                        return
                    # Churn: the campaign ended; the same player starts the next one at once,
                    # on the socket it has (or, with --new-over http, by HTTP and a new socket).
                    next_at = due
                    seed += 1 << 20
                    if partnered or out["new_over"] == "http":
                        break
                    sent = time.perf_counter()
                    await seat.play_new({"game": game, "seed": str(seed)})
                    out["restarts"].append((time.perf_counter() - sent) * 1000)
            asked = time.perf_counter()
            created = await new_campaign()
            if not partnered:
                restarted = asked
    except Exception as error:  # every failure of a session counts as an error
        out["errors"] += 1
        kinds: dict[str, int] = out["error_kinds"]
        kind = type(error).__name__
        kinds[kind] = kinds.get(kind, 0) + 1
        if kinds[kind] <= 2:
            print(f"driver: {kind}: {str(error)[:200]}", file=sys.stderr)


async def _play(
    seat: Seat,
    rng: random.Random,
    next_at: float,
    end: float,
    pace: float,
    partnered: bool,
    out: dict[str, Any],
) -> float | None:
    """Act until the window ends (None) or, with ``--churn`` or beside a bot, until the campaign
    ends (the time the next action is due, for the next campaign)."""
    latencies: list[float] = out["partner_latencies" if partnered else "latencies"]
    frames_before, bytes_before = seat.frames_received, seat.bytes_received
    while True:
        if pace:
            delay = next_at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)  # the paced load's schedule, not a race
            next_at += 1.0 / pace
        now = time.time()
        if now >= end:
            return None
        if seat.outcome == "running" and not seat.legal_actions:
            # A bot partner's turn: its move comes as an update (at the server's bot pace).
            await seat.next_update(timeout=30.0)
            continue
        if seat.outcome != "running" or not seat.legal_actions:
            out["ended"] += 1
            return next_at if out["churn"] or partnered else None
        # A player at the table plays on: giving the campaign up is not a move.
        moves = [a for a in seat.legal_actions if not a["id"].startswith(GIVING_UP)]
        action = rng.choice(moves or seat.legal_actions)["id"]
        sent = time.perf_counter()
        version = seat.version
        try:
            await seat.act(action, timeout=10.0)
        except ProtocolError as refused:
            if refused.code != "stale_version" or not partnered:
                raise
            # The bot partner moved first, as a person's partner may: take its move, go on.
            out["stale"] += 1
            if seat.version == version:
                await seat.next_update(timeout=10.0)
            continue
        took = time.perf_counter() - sent
        if time.time() <= end:
            latencies.append(took * 1000)
            out["frames"] += seat.frames_received - frames_before
            out["bytes"] += seat.bytes_received - bytes_before
        frames_before, bytes_before = seat.frames_received, seat.bytes_received


async def _idle(base: str, game: str, index: int, hold: asyncio.Event, out: dict[str, Any]) -> None:
    try:
        created = await create_campaign(base, game, seed=index + 1)
        token = next(iter(created["seats"].values()))
        ws = "ws" + base.removeprefix("http")
        async with Seat.connect(ws, created["id"], token=token):
            out["ready"] += 1
            await hold.wait()
    except Exception as error:
        out["errors"] += 1
        if out["errors"] <= 2:
            print(f"driver: {type(error).__name__}: {error}", file=sys.stderr)


async def drive(args: argparse.Namespace) -> None:
    """A driver process: set up, say ready, wait for 'go <t0> <t1>' on stdin, run, report."""
    out: dict[str, Any] = {
        "latencies": [],
        "errors": 0,
        "ready": 0,
        "ended": 0,
        "churn": args.churn,
        "new_over": args.new_over,
        "sessions": args.sessions_total or math.inf,  # beyond it, sessions play beside a bot
        "stale": 0,
        "partner_latencies": [],
        "bot_level": args.bot_level,
        "restarts": [],
        "error_kinds": {},
        "frames": 0,
        "bytes": 0,
    }
    start, hold = asyncio.Event(), asyncio.Event()
    window = [0.0, 0.0]
    setup = asyncio.Semaphore(16)

    async def one(index: int) -> None:
        async with setup:
            pass  # staggers the first connections a little
        if args.idle:
            await _idle(args.base, args.game, index, hold, out)
        else:
            await _session(args.base, args.game, index, start, window, args.pace, out)

    tasks = [asyncio.create_task(one(args.first + i)) for i in range(args.count)]
    deadline = time.monotonic() + 120
    while out["ready"] + out["errors"] < args.count and time.monotonic() < deadline:
        await asyncio.sleep(0.05)  # setup progress, polled with a deadline
    print(json.dumps({"ready": out["ready"]}), flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    _, begin, end = line.split()
    window[:] = [float(begin), float(end)]
    delay = window[0] - time.time()
    if delay > 0:
        await asyncio.sleep(delay)  # the common start time of every driver
    start.set()
    if args.idle:
        await asyncio.sleep(max(0.0, window[1] - time.time()))  # idle sockets held for D s
        hold.set()
    await asyncio.wait(tasks, timeout=window[1] - time.time() + 15)
    for task in tasks:
        task.cancel()
    print(json.dumps(out), flush=True)


# -- one configuration -----------------------------------------------------------------------


def percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return round(ordered[min(rank, len(ordered)) - 1], 3)


def collector_pauses(base: str) -> dict[str, dict[str, float]]:
    """The server's garbage-collector pauses so far, per generation: count, total seconds and how
    many lasted over 10 ms (``tabletale_gc_pause_seconds``)."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(base + "/metrics", timeout=10) as reply:
        text = reply.read().decode()
    out: dict[str, dict[str, float]] = {}
    for family in text_string_to_metric_families(text):
        if family.name != "tabletale_gc_pause_seconds":
            continue
        for sample in family.samples:
            seen = out.setdefault(sample.labels["generation"], {"count": 0, "sum": 0, "le10": 0})
            if sample.name.endswith("_count"):
                seen["count"] = sample.value
            elif sample.name.endswith("_sum"):
                seen["sum"] = sample.value
            elif sample.name.endswith("_bucket") and sample.labels["le"] == "0.01":
                seen["le10"] = sample.value
    return out


def action_phases(base: str) -> dict[str, dict[str, Any]]:
    """The server's accepted actions so far, phase by phase (``tabletale_action_phase_seconds``):
    count, total seconds and the cumulative bucket counts."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(base + "/metrics", timeout=10) as reply:
        text = reply.read().decode()
    out: dict[str, dict[str, Any]] = {}
    for family in text_string_to_metric_families(text):
        if family.name != "tabletale_action_phase_seconds":
            continue
        for sample in family.samples:
            seen = out.setdefault(sample.labels["phase"], {"count": 0, "sum": 0, "buckets": {}})
            if sample.name.endswith("_count"):
                seen["count"] = sample.value
            elif sample.name.endswith("_sum"):
                seen["sum"] = sample.value
            elif sample.name.endswith("_bucket"):
                seen["buckets"][float(sample.labels["le"])] = sample.value
    return out


def phases_between(
    before: dict[str, dict[str, Any]], after: dict[str, dict[str, Any]]
) -> dict[str, dict[str, float | None]]:
    """Per phase over the window: its mean in ms, and the bucket bound its 99th percentile lies
    under (None past the last bound): which phase a slow move's time went to."""
    out: dict[str, dict[str, float | None]] = {}
    for phase, now in sorted(after.items()):
        was = before.get(phase, {"count": 0, "sum": 0, "buckets": {}})
        count = now["count"] - was["count"]
        if not count:
            continue
        p99: float | None = None
        for bound in sorted(now["buckets"]):
            if now["buckets"][bound] - was["buckets"].get(bound, 0) >= 0.99 * count:
                p99 = None if bound == math.inf else round(bound * 1000, 1)
                break
        out[phase] = {
            "mean_ms": round((now["sum"] - was["sum"]) * 1000 / count, 3),
            "p99_ms_at_most": p99,
        }
    return out


def pauses_between(
    before: dict[str, dict[str, float]], after: dict[str, dict[str, float]]
) -> dict[str, dict[str, float]]:
    out = {}
    for generation, now in sorted(after.items()):
        was = before.get(generation, {"count": 0, "sum": 0, "le10": 0})
        count = now["count"] - was["count"]
        out[generation] = {
            "collections": int(count),
            "total_ms": round((now["sum"] - was["sum"]) * 1000, 1),
            "over_10ms": int(count - (now["le10"] - was["le10"])),
        }
    return out


def run_tabletale(args: argparse.Namespace, sessions: int) -> dict[str, Any]:
    with tabletale_server(workers=args.workers, redis_url=args.redis_url) as (base, server, log):
        pids = process_tree(server.pid)
        rss_started = memory_kib(pids, "VmRSS")
        drivers = []
        everyone = sessions + args.bot_partners
        share = math.ceil(everyone / DRIVERS)
        for first in range(0, everyone, share):
            count = min(share, everyone - first)
            command = [sys.executable, __file__, "--driver", "--base", base, "--game", args.game]
            command += ["--first", str(first), "--count", str(count), "--pace", str(args.paced)]
            if args.idle:
                command += ["--idle"]
            if args.churn:
                command += ["--churn", "--new-over", args.new_over]
            # The sessions after the first S (by global index) play beside a bot.
            command += ["--sessions-total", str(sessions), "--bot-level", str(args.bot_level)]
            drivers.append(
                subprocess.Popen(
                    command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
                )
            )
        redis = redis_pids(args.redis_url)
        placement: dict[int, set[int]] = {}
        if args.pin is not None:
            # The server alone on its cores; the load generator and Redis on the others, so the
            # tail measured is the server's own.
            server_cores, other_cores = args.pin
            placement = {pid: server_cores for pid in process_tree(server.pid)}
            placement |= {pid: other_cores for pid in [*redis, *(d.pid for d in drivers)]}
        with pinned(placement):
            line = _measure(args, sessions, base, server, pids, drivers, redis, rss_started, log)
    return line


def _measure(
    args: argparse.Namespace,
    sessions: int,
    base: str,
    server: subprocess.Popen[bytes],
    pids: list[int],
    drivers: list[subprocess.Popen[str]],
    redis: list[int],
    rss_started: int,
    log: str,
) -> dict[str, Any]:
    """The measured window of one configuration, its drivers started: the JSON line."""
    for driver in drivers:
        assert driver.stdout is not None
        driver.stdout.readline()  # {"ready": n}
    begin = time.time() + 0.5
    end = begin + args.duration
    for driver in drivers:
        assert driver.stdin is not None
        driver.stdin.write(f"go {begin} {end}\n")
        driver.stdin.flush()
    time.sleep(max(0.0, begin - time.time()))  # the window's start, shared with the drivers
    cpu_before = cpu_seconds(pids)
    redis_cpu = -cpu_seconds(redis)
    driver_pids = [driver.pid for driver in drivers]
    driver_cpu = -cpu_seconds(driver_pids)
    thinkers = [p for p in process_tree(server.pid) if p not in pids]  # bot workers
    thinking_cpu = -cpu_seconds(thinkers)
    bot_moves_before = _bot_moves(base, args)
    pauses_before = collector_pauses(base) if args.workers == 1 else None
    phases_before = action_phases(base) if args.workers == 1 else None
    profiler = _profile(args, pids)
    time.sleep(max(0.0, end - time.time()))  # the measured window itself
    cpu_after = cpu_seconds(pids)
    redis_cpu += cpu_seconds(redis)
    driver_cpu += cpu_seconds(driver_pids)
    thinking_cpu += cpu_seconds(thinkers)
    bot_moves = _bot_moves(base, args) - bot_moves_before
    pauses = {}
    if pauses_before is not None:
        pauses = pauses_between(pauses_before, collector_pauses(base))
    phases = {}
    if phases_before is not None:
        phases = phases_between(phases_before, action_phases(base))
    rss_after = memory_kib(pids, "VmRSS")
    if profiler is not None:
        profiler.wait(timeout=args.duration + 30)
    connections = redis_connections(args.redis_url, pids)
    results = []
    for driver in drivers:
        stdout, _ = driver.communicate(timeout=60)
        results.append(json.loads(stdout.strip().splitlines()[-1]))
    peak = memory_kib(pids, "VmHWM")
    latencies = [x for r in results for x in r["latencies"]]
    errors = sum(r["errors"] for r in results)
    moves = len(latencies)
    cpu = cpu_after - cpu_before
    pin: tuple[set[int], set[int]] = args.pin or (set(), set())
    line: dict[str, Any] = {
        "server": "tabletale",
        "game": args.game,
        "workers": args.workers,
        "sessions": sessions,
        "duration_s": args.duration,
        "paced_per_s": args.paced or None,
        "moves": moves,
        "moves_per_s": round(moves / args.duration, 1),
        "p50_ms": percentile(latencies, 50),
        "p95_ms": percentile(latencies, 95),
        "p99_ms": percentile(latencies, 99),
        "errors": errors,
        "campaigns_ended": sum(r["ended"] for r in results),
        "server_cpu_pct_of_one_core": round(100 * cpu / args.duration, 1),
        "server_cpu_ms_per_action": round(1000 * cpu / moves, 3) if moves else None,
        "drivers_cpu_pct_of_one_core": round(100 * driver_cpu / args.duration, 1),
        "redis_cpu_pct_of_one_core": round(100 * redis_cpu / args.duration, 1) if redis else None,
        "pinned": {"server": sorted(pin[0]), "rest": sorted(pin[1])} if args.pin else None,
        "frames_per_action": round(sum(r["frames"] for r in results) / moves, 2) if moves else None,
        "bytes_per_action": round(sum(r["bytes"] for r in results) / moves) if moves else None,
        "server_peak_rss_mb": round(peak / 1024, 1),
        "redis_connections_per_process": connections,
        "collector_pauses": pauses,
        "action_phases": phases,
    }
    if args.bot_partners:
        partners = [x for r in results for x in r["partner_latencies"]]
        line["bot_partners"] = {
            "sessions": args.bot_partners,
            "level": args.bot_level,
            "their_moves": len(partners),
            "their_p50_ms": percentile(partners, 50),
            "their_p99_ms": percentile(partners, 99),
            "bot_moves": bot_moves,
            "bot_workers_cpu_pct_of_one_core": round(100 * thinking_cpu / args.duration, 1),
            "stale_answers": sum(r["stale"] for r in results),
        }
    if args.churn:
        restarts = [x for r in results for x in r["restarts"]]
        line["churn"] = {
            "campaigns_started": len(restarts),
            "create_p50_ms": percentile(restarts, 50),
            "create_p99_ms": percentile(restarts, 99),
        }
    if args.idle:
        sockets = sum(r["ready"] for r in results)
        line["idle_sockets"] = sockets
        line["rss_started_mb"] = round(rss_started / 1024, 1)
        line["rss_with_sockets_mb"] = round(rss_after / 1024, 1)
        if sockets:
            line["rss_kib_per_idle_socket"] = round((rss_after - rss_started) / sockets, 1)
    line["server_log"] = log
    return line


def _bot_moves(base: str, args: argparse.Namespace) -> int:
    """The moves the server's bots have made so far (one process's count)."""
    if not args.bot_partners:
        return 0
    with urllib.request.urlopen(base + "/api/bots", timeout=10) as reply:
        moves: int = json.loads(reply.read())["moves"]
        return moves


def _profile(args: argparse.Namespace, pids: list[int]) -> subprocess.Popen[bytes] | None:
    """py-spy sampling the (first worker) server process over the window, when asked."""
    if not args.profile:
        return None
    target = pids[-1]  # with workers, a worker rather than the supervisor
    beside = Path(sys.executable).with_name("py-spy")  # a venv's, when not on the PATH
    spy = shutil.which("py-spy") or str(beside)
    command = [spy, "record", "--pid", str(target), "--duration", str(args.duration)]
    command += ["--format", "raw" if args.profile.endswith(".txt") else "flamegraph"]
    command += ["--output", args.profile, "--rate", "250", "--nonblocking"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def run_peer(args: argparse.Namespace, sessions: int) -> dict[str, Any] | None:
    peer = Path(args.peer)
    if shutil.which("node") is None or not (peer / "run.sh").exists():
        return None
    work = Path(tempfile.gettempdir()) / "tabletale-peer-boardgameio"
    if not (work / "node_modules" / "boardgame.io").exists():
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(peer, work, ignore=shutil.ignore_patterns("node_modules", "results"))
        for path in work.rglob("*"):
            path.chmod(path.stat().st_mode | 0o200)
        work.chmod(work.stat().st_mode | 0o200)
        subprocess.run(["npm", "ci", "--silent"], cwd=work, check=True, timeout=600)
    run = subprocess.run(
        ["bash", "run.sh", str(sessions), str(args.duration)],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=args.duration + 120,
        check=False,
    )
    lines = run.stdout.strip().splitlines()
    if not lines:
        print(run.stderr, file=sys.stderr)
        return None
    line: dict[str, Any] = {"server": "boardgame.io", **json.loads(lines[-1])}
    for extra in run.stderr.splitlines():
        if extra.startswith("driver-stats "):
            stats = json.loads(extra.removeprefix("driver-stats "))
            cpu = stats.get("server_cpu_s_in_window")
            if cpu is not None and line["moves"]:
                line["server_cpu_pct_of_one_core"] = stats.get("server_cpu_pct_of_one_core")
                line["server_cpu_ms_per_action"] = round(1000 * cpu / line["moves"], 3)
        if extra.startswith("server-stats "):
            stats = json.loads(extra.removeprefix("server-stats "))
            line["server_peak_rss_mb"] = stats.get("server_peak_rss_mb")
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", default="1,50,200")
    parser.add_argument("--duration", type=int, default=15)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--game", default="eila")
    parser.add_argument("--paced", type=float, default=0.0, help="actions per second per session")
    parser.add_argument("--idle", action="store_true", help="sockets that never act")
    parser.add_argument(
        "--bot-partners",
        type=int,
        default=0,
        help="sessions more, each playing Gil & Ennis in co-op with a search bot as Ennis",
    )
    parser.add_argument("--bot-level", type=int, default=1, help="the bot partners' level")
    parser.add_argument(
        "--churn",
        action="store_true",
        help="a session whose campaign ends creates the next one and plays on (Gil & Ennis)",
    )
    parser.add_argument(
        "--new-over",
        choices=("socket", "http"),
        default="socket",
        help="with --churn, how the next campaign is made: a 'create' on the session's socket, "
        "or POST /api/campaigns and a new socket (as before the socket could create)",
    )
    parser.add_argument(
        "--pin",
        type=pin_cores,
        help="SERVER/REST: the server's processes on the cores SERVER, the load generator and "
        "a local Redis on REST (e.g. 0/1), so the tail measured is the server's own; Redis is "
        "put back where it was afterwards",
    )
    parser.add_argument("--peer", default=str(DEFAULT_PEER))
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--profile", help="write a py-spy profile of the server here (.svg, .txt)")
    parser.add_argument(
        "--redis-url",
        default=os.environ.get("TABLETALE_REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="redis://host:port/db, or redis+cluster://host:port for a Redis Cluster",
    )
    # driver mode (internal)
    parser.add_argument("--driver", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--base", help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--pace", type=float, default=0.0, help=argparse.SUPPRESS)
    parser.add_argument("--sessions-total", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.driver:
        try:
            import uvloop

            uvloop.run(drive(args))
        except ImportError:
            asyncio.run(drive(args))
        return
    for sessions in (int(s) for s in args.sessions.split(",")):
        print(json.dumps(run_tabletale(args, sessions)), flush=True)
        if not args.no_peer and not args.paced and not args.idle:
            peer = run_peer(args, sessions)
            if peer is not None:
                print(json.dumps(peer), flush=True)


if __name__ == "__main__":
    main()
