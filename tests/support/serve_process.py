"""``tabletale serve`` in a process of its own on a chosen port, over the SQLite store in a data
directory: for tests that stop a server and start it again where clients expect it (a restart)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.server.conftest import wait_ready

ROOT = Path(__file__).resolve().parents[2]


@contextlib.contextmanager
def serving(port: int, data_dir: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The server on ``port`` with the SQLite store in ``data_dir``, until the block ends (or the
    test stops it sooner with :func:`stop`). Its log goes to ``data_dir``."""
    env = {k: v for k, v in os.environ.items() if k != "TABLETALE_REDIS_URL"}
    command = [sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--data-dir", str(data_dir)]
    with (data_dir / f"server-{port}.log").open("ab") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log
        )
    try:
        wait_ready(f"http://127.0.0.1:{port}")
        yield process
    finally:
        stop(process)


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop the server as a person or a restart does (SIGTERM: it closes its sockets with 1012)."""
    if process.poll() is None:
        process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
