"""Spectators that stop reading are closed on time and never delay the others."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

SOCKETS = 300
"""The issue held 2,000 stalled sockets; ``loadtests/stalled_sockets.py`` does so by default (about
a minute on two cores shared with other work). 300 make the same point within the suite's time."""
STALL_S = 1.0
PING_S = 8.0
"""Long enough that a spectator's backlog fills and stays full for ``STALL_S`` before its pong is
missed, so the stall deadline, not the ping, is what closes most of them."""
SEND_BUFFER_KIB = 4
"""The kernel's send buffer per socket: small, so the backlog fills from a few seconds of play."""
MARGIN_S = 4.0


@pytest.fixture(scope="module")
def figures(redis_url: str) -> dict[str, Any]:
    script = str(ROOT / "loadtests" / "stalled_sockets.py")
    command = [sys.executable, script, "--sockets", str(SOCKETS), "--idle", "10"]
    command += ["--stall-timeout", str(STALL_S), "--ping-interval", str(PING_S)]
    command += ["--send-buffer-kib", str(SEND_BUFFER_KIB), "--deadline", "30"]
    command += ["--redis-url", redis_url]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.redis
@pytest.mark.slow
def test_spectators_that_stop_reading_are_aborted_and_counted_by_their_deadlines(
    figures: dict[str, Any],
) -> None:
    # A full backlog is aborted after STALL_S, and a ping unanswered for as long again closes a
    # socket, so by 2 x ping interval (plus a margin) every one is gone.
    closed_by = 2 * PING_S + MARGIN_S
    assert figures["stalled_closed_after_s"] is not None, figures
    assert figures["stalled_closed_after_s"] <= closed_by, figures
    assert figures["idle_closed_after_s"] is not None, figures
    assert figures["idle_closed_after_s"] <= closed_by, figures
    before, during, after = figures["sockets_connected"]
    assert during >= before + SOCKETS, figures
    assert after == before, figures
    fds_before, fds_peak, fds_after = figures["fds"]
    assert fds_peak >= fds_before + SOCKETS, figures
    assert fds_after <= fds_before + 5, figures
    dropped = figures["sockets_dropped"]
    assert dropped["stalled"] + dropped["missed_pong"] == SOCKETS, figures
    assert dropped["stalled"] > 0, figures


@pytest.mark.redis
@pytest.mark.slow
def test_a_stalled_spectator_does_not_delay_the_others(figures: dict[str, Any]) -> None:
    assert figures["actions"] > 0 and figures["reader_updates"] >= figures["actions"], figures
    assert figures["reader_lateness_ms_max"] < 1000, figures
