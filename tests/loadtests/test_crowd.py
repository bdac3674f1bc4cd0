"""The crowd benchmark, briefly: a small crowd on two processes gets every update, and the
figures it prints are there and plausible."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Measures time and load: run alone (tests/run.sh runs it after the parallel phase).
pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.serial]


def test_every_spectator_of_a_small_crowd_gets_every_update(redis_url: str) -> None:
    # Enough frames (60 x 30) that the server's CPU over them is several of the kernel's clock
    # ticks (10 ms), the resolution of the CPU times read: six actions' 360 frames took less than
    # one tick on a quiet machine, and the figure read 0.
    small = ["--spectators", "60", "--processes", "2", "--actions", "30", "--pace", "20"]
    cores = sorted(os.sched_getaffinity(0))
    pin = f"{cores[0]}/{cores[-1]}"  # the servers on one core, the rest on another (or the same)
    small += ["--pin", pin]
    run = subprocess.run(
        [sys.executable, str(ROOT / "loadtests" / "crowd.py"), *small, "--drivers", "2"],
        env={"TABLETALE_REDIS_URL": redis_url, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(run.stdout)
    assert figures["spectators"] == 60 and figures["processes"] == 2
    assert figures["pinned"] == {"server": [cores[0]], "rest": [cores[-1]]}
    assert figures["actions"] == 30
    assert figures["last_update_ms"]["missing_updates"] == 0
    assert 0 < figures["last_update_ms"]["p50"] <= figures["last_update_ms"]["max"]
    assert figures["player_round_trip_ms"]["p50"] > 0
    assert figures["server_cpu_us_per_frame"] > 0
