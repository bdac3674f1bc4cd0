from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from server.ops.metrics import MULTIPROC_DIR, Metrics

ROOT = Path(__file__).resolve().parents[3]

# A worker: counts one accepted action and one socket, then waits for its stdin to close if asked.
WORKER = (
    "import sys; from server.ops.metrics import Metrics; m = Metrics(); "
    "m.accepted.inc(); m.append_seconds.observe(0.002); m.sockets.inc(); "
    "print('counted', flush=True); "
    "sys.stdin.read() if sys.argv[1] == 'stay' else None"
)


def samples(text: bytes) -> dict[str, float]:
    """Every sample as ``name{label="value",...}`` -> value."""
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text.decode()):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


def test_an_apps_metrics_count_what_it_did_and_nothing_else() -> None:
    metrics, other = Metrics(directory=None), Metrics(directory=None)
    cached = [3]
    metrics.sample(metrics.campaigns_cached, lambda: cached[0])
    metrics.accepted.inc()
    metrics.accepted.inc()
    metrics.rejected.labels("stale_version").inc()
    metrics.append_seconds.observe(0.0007)
    metrics.updates_pushed.inc(4)
    metrics.sockets.inc()
    other.accepted.inc()
    cached[0] = 5
    seen = samples(metrics.render())
    assert seen["tabletale_actions_accepted_total"] == 2
    assert seen['tabletale_actions_rejected_total{code="stale_version"}'] == 1
    assert seen["tabletale_append_seconds_count"] == 1
    assert seen['tabletale_append_seconds_bucket{le="0.0005"}'] == 0
    assert seen['tabletale_append_seconds_bucket{le="0.001"}'] == 1
    assert seen["tabletale_updates_pushed_total"] == 4
    assert seen["tabletale_sockets_connected"] == 1
    assert seen["tabletale_campaigns_cached"] == 5  # sampled when scraped
    assert seen["tabletale_redis_commands_in_flight"] == 0
    assert not any(name.endswith("_created") for name in seen)


def test_collector_pauses_are_timed_by_generation_until_closed() -> None:
    metrics = Metrics(directory=None)
    metrics.time_collections()
    try:
        gc.collect(2)
        gc.collect(0)
        seen = samples(metrics.render())
        assert seen['tabletale_gc_pause_seconds_count{generation="2"}'] >= 1
        assert seen['tabletale_gc_pause_seconds_count{generation="0"}'] >= 1
        assert seen['tabletale_gc_pause_seconds_sum{generation="2"}'] > 0
    finally:
        metrics.close()
    counted = seen['tabletale_gc_pause_seconds_count{generation="2"}']
    gc.collect(2)
    after = samples(metrics.render())
    assert after['tabletale_gc_pause_seconds_count{generation="2"}'] == counted


def worker(directory: Path, *, stay: bool) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER, "stay" if stay else "go"],
        cwd=ROOT,
        env={**os.environ, MULTIPROC_DIR: str(directory)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None
    assert process.stdout.readline() == "counted\n"
    return process


def test_with_several_workers_counts_add_up_and_gauges_keep_only_the_living(
    tmp_path: Path,
) -> None:
    running = worker(tmp_path, stay=True)
    gone = worker(tmp_path, stay=False)
    try:
        gone.communicate(timeout=30)
        assert gone.returncode == 0
        # Read as a third worker would: whichever answers the scrape sees all of them.
        seen = samples(Metrics(directory=str(tmp_path)).render())
        assert seen["tabletale_actions_accepted_total"] == 2
        assert seen["tabletale_append_seconds_count"] == 2
        assert seen["tabletale_sockets_connected"] == 1  # the exited worker's socket is gone
    finally:
        running.communicate(timeout=30)
    seen = samples(Metrics(directory=str(tmp_path)).render())
    assert seen["tabletale_actions_accepted_total"] == 2
    # No living worker holds the gauge (a real scrape comes from a living one, which does).
    assert seen.get("tabletale_sockets_connected", 0) == 0
