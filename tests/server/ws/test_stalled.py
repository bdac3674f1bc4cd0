"""Spectators that stop reading are dropped on time, hold bounded memory, and never delay the
others (``loadtests/stalled_sockets.py`` against a server process of its own)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Hundreds of sockets, deadlines and the server's memory measured: alone (tests/run.sh runs it
# after the parallel phase).
pytestmark = pytest.mark.serial

SOCKETS = 300
"""The issue held 2,000 stalled sockets; ``loadtests/stalled_sockets.py`` does so by default (a
minute or more on two cores shared with other work). 300 make the same point within the suite's
time, three times over (waves on the same campaigns)."""
IDLE = 10
STALL_S = 1.0
PING_S = 4.0
SEND_BUFFER_KIB = 4
SYNCS = 40
"""The kernel's send buffer per socket, small, and full views each stalled spectator asks for
before it stops reading: its backlog is full from the start, however fast the campaigns are
played (on loopback the kernel's own buffer grows to megabytes)."""
WAVES = 3
KEPT_PER_SOCKET_KIB = 12
"""What a wave of stalled sockets may leave behind in the server's RSS, per socket, once a first
wave has grown the allocators' pools: the memory the sockets held is freed and used again. (While
closed sessions were a reference cycle, each wave left ~18 KiB per socket.) Measured on this
host, three runs each: 6.1-7.9 KiB at 2bd5b3f, 7.5-9.1 KiB after the hub's tables, the kept
rulesets and the co-op proposals; the bound sits between those and the leak it guards against."""
PER_SOCKET_KIB = 160
"""At most what one stalled socket may add to the server's memory: the transport's 16 KiB, an
outbox of at most 128 KiB (of frames it mostly shares with the other spectators), and the ~25 KiB
an open socket costs."""


@pytest.fixture(scope="module")
def figures(redis_url: str) -> dict[str, Any]:
    script = str(ROOT / "loadtests" / "stalled_sockets.py")
    command = [sys.executable, script, "--sockets", str(SOCKETS), "--idle", str(IDLE)]
    command += ["--stall-timeout", str(STALL_S), "--ping-interval", str(PING_S)]
    command += ["--send-buffer-kib", str(SEND_BUFFER_KIB), "--syncs", str(SYNCS)]
    command += ["--waves", str(WAVES), "--deadline", "120"]
    command += ["--redis-url", redis_url]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.mark.redis
@pytest.mark.slow
def test_spectators_whose_backlog_stays_full_are_dropped_before_their_pong_is_due(
    figures: dict[str, Any],
) -> None:
    for wave in figures["waves"]:
        # A backlog full for STALL_S ends a socket before its pong is due: every one was open
        # (the first are dropped while the last still open) and dropped as stalled, none for
        # a missed pong. The reason is counted by the server, so no clock is held to a bound.
        assert wave["stalled_closed_after_s"] is not None, figures
        assert wave["sockets_dropped"] == {"stalled": SOCKETS, "missed_pong": 0}, figures
        before, _, after = wave["sockets_connected"]
        assert after == before, figures
        fds_before, _, fds_after = wave["fds"]
        assert fds_after <= fds_before + 5, figures


@pytest.mark.redis
@pytest.mark.slow
def test_idle_sockets_that_never_read_are_closed_by_the_ping_deadline(
    figures: dict[str, Any],
) -> None:
    for wave in figures["waves"]:
        # Closed, and not before their first ping was due: by the deadline, not by the backlog.
        assert wave["idle_closed_after_s"] is not None, figures
        assert wave["idle_closed_after_s"] >= PING_S, figures


@pytest.mark.redis
@pytest.mark.slow
def test_a_stalled_socket_holds_bounded_memory(figures: dict[str, Any]) -> None:
    for wave in figures["waves"]:
        start, peak, _after = wave["rss_mb"]
        assert (peak - start) * 1024 / SOCKETS <= PER_SOCKET_KIB, figures


@pytest.mark.redis
@pytest.mark.slow
def test_the_memory_of_stalled_sockets_is_used_again_by_the_next_ones(
    figures: dict[str, Any],
) -> None:
    first, last = figures["waves"][0]["rss_mb"][2], figures["waves"][-1]["rss_mb"][2]
    kept_kib = (last - first) * 1024 / (SOCKETS * (WAVES - 1))
    assert kept_kib <= KEPT_PER_SOCKET_KIB, figures


@pytest.mark.redis
@pytest.mark.slow
def test_a_stalled_spectator_does_not_delay_the_others(figures: dict[str, Any]) -> None:
    actions = sum(wave["actions"] for wave in figures["waves"])
    assert actions > 0 and figures["reader_updates"] >= actions, figures
    # Measured in the same run: no reader's update waited as long as the stalled sockets were
    # kept, which it would have if a stalled socket held the fan-out until it was dropped.
    kept_s = min(wave["stalled_closed_after_s"] for wave in figures["waves"])
    assert figures["reader_lateness_ms_max"] / 1000 < kept_s, figures
