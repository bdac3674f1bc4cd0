"""``tabletale play`` in a pseudo-terminal while its server restarts: the client says the connection
was lost, keeps the move typed meanwhile, reconnects to the new process (the same port and SQLite
data directory), resumes, sends the held move, takes the next one, and exits 0 on q; and a server
that never comes back makes it give up with a sentence and a non-zero status, never a traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

from tests.clients.test_terminal import SEED, number_of, spawn
from tests.server.conftest import free_port
from tests.support.serve_process import serving, stop

PROMPT = r"\r\n> "
REDRAWS = 5
"""At most this many screens are drawn while a held move is sent and answered."""


def test_the_client_resumes_after_a_server_restart_and_plays_on(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(port, tmp_path) as first:
        child = spawn("play", "--game", "gil-ennis", "--seed", str(SEED), "--server", base)
        try:
            child.expect(PROMPT)
            child.sendline(number_of(child.before, "Pack Gil's dice"))
            child.expect(PROMPT)
            before_restart = child.before
            ennis = number_of(before_restart, "Pack Ennis's dice")
            stop(first)
            child.expect(r"Connection lost: ([^\r\n]+)\. Reconnecting\.\.\.")
            lost = child.match.group(1)
            child.sendline(ennis)  # typed while the server is away: held, not lost
            # the client's lines wrap between words at the terminal's width
            child.expect(r"Not connected: '(Pack Ennis's dice[^']*)' will\s+be\s+sent")
            held = " ".join(child.match.group(1).split())
            offline = child.before
            with serving(port, tmp_path):
                child.expect(r"Reconnected: resumed at move (\d+)\.")
                resumed = int(child.match.group(1))
                child.expect(r"Sending your move now: ([\s\S]+?)\r\n(?!  )")
                assert " ".join(child.match.group(1).split()) == held
                # the screen may be drawn more than once as the answer and the update come in:
                # take the first one that shows the held move applied
                after_held = ""
                for _ in range(REDRAWS):
                    child.expect(PROMPT)
                    after_held = child.before
                    if "· move 2 ·" in after_held:
                        break
                child.sendline(number_of(after_held, "Hike to Hollow Creek"))
                child.expect(PROMPT)
                hiked = child.before
                child.sendline("q")
                child.expect(pexpect.EOF)
        finally:
            child.close(force=True)
    assert "· move 1 ·" in before_restart  # Gil's dice packed: the first move
    assert lost == "the server is restarting"
    assert "Traceback" not in offline
    assert resumed == 1
    assert "· move 2 ·" in after_held
    assert re.search(r"Ennis\s+HAND \[\d\]  BACKPACK (\[\d\]){3}  POCKET \[\d\]", after_held)
    assert "hiked to Hollow Creek" in hiked and "@Hollow Creek" in hiked
    assert "Traceback" not in hiked
    assert child.exitstatus == 0


def test_a_server_gone_for_good_ends_with_a_sentence_and_a_failing_status(
    tmp_path: Path,
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with serving(port, tmp_path) as server:
        child = spawn(
            "play", "--game", "eila", "--seed", str(SEED), "--server", base, "--patience", "2"
        )
        try:
            child.expect(PROMPT)
            stop(server)
            child.expect(r"Connection lost")
            child.expect(pexpect.EOF, timeout=30)
            said = child.before
        finally:
            child.close(force=True)
    assert re.search(r"Giving up: the server [^\r\n]+ for \d+ s\.", said), said
    back = r"To come back: tabletale play --campaign \w+ \\\r\n    --token \S+ --server \S+"
    assert re.search(back, said), said
    assert "Traceback" not in said
    assert child.exitstatus == 2


@pytest.fixture(autouse=True)
def _no_redis(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server processes use their SQLite store, whatever the environment says."""
    monkeypatch.delenv("TABLETALE_REDIS_URL", raising=False)
