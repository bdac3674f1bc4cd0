"""A real Redis for the tests that need one (``tests/redis_cluster_support.py``: a cluster).

``running_redis()`` yields a URL, trying in order: ``TABLETALE_TEST_REDIS_URL``, a Redis on
``127.0.0.1:6379`` that answers PING, and a private ``redis-server`` started on a free port (no
persistence, in a temporary directory) and stopped afterwards. Without any of them the tests fail:
the Redis adapter is only tested against the real thing.

The Redis may be shared with everything else on the machine, so tests keep to their own key prefix
and remove it with ``delete_prefix``; nothing here flushes a database.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import selectors
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
import redis.asyncio

from server.store.redis_cluster import primary_urls
from server.store.redis_connect import RedisSettings

URL_VARIABLE = "TABLETALE_TEST_REDIS_URL"
LOCAL_URL = "redis://127.0.0.1:6379/0"
_READY = b"Ready to accept connections"
START_TIMEOUT_S = 60.0


def answers(url: str) -> bool:
    client = redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=2)
    try:
        return bool(client.ping())
    except (redis.exceptions.RedisError, OSError):
        return False
    finally:
        client.close()


@contextlib.contextmanager
def running_redis() -> Iterator[str]:
    configured = os.environ.get(URL_VARIABLE)
    if configured:
        if not answers(configured):
            pytest.fail(f"{URL_VARIABLE} is {configured}, but nothing answers there.", False)
        yield configured
    elif answers(LOCAL_URL):
        yield LOCAL_URL
    else:
        with _private_redis() as url:
            yield url


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def free_ports(count: int) -> list[int]:
    """``count`` distinct free ports: every probe stays bound until all are picked (one at a
    time, the kernel may hand the same port out twice)."""
    probes = [socket.socket() for _ in range(count)]
    try:
        for probe in probes:
            probe.bind(("127.0.0.1", 0))
        return [int(probe.getsockname()[1]) for probe in probes]
    finally:
        for probe in probes:
            probe.close()


def _await_ready(server: subprocess.Popen[bytes]) -> bytes:
    """Read the server's log until it says it is ready; returns what it printed."""
    assert server.stdout is not None
    output = b""
    deadline = time.monotonic() + START_TIMEOUT_S
    with selectors.DefaultSelector() as selector:
        selector.register(server.stdout, selectors.EVENT_READ)
        while _READY not in output:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not selector.select(remaining):
                raise TimeoutError(output.decode(errors="replace"))
            chunk = os.read(server.stdout.fileno(), 65536)
            if not chunk:
                raise ChildProcessError(output.decode(errors="replace"))
            output += chunk
    return output


@contextlib.contextmanager
def _private_redis() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        pytest.fail(
            f"The Redis tests need a Redis: set {URL_VARIABLE}, run one on 127.0.0.1:6379, "
            "or install redis-server so the tests can start their own.",
            False,
        )
    with tempfile.TemporaryDirectory(prefix="tabletale-redis-") as workdir:
        port = free_port()
        command = [binary, "--port", str(port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", workdir]
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert server.stdout is not None
        # Keeps draining the log once the server is up, so it never blocks on a full pipe.
        drain = threading.Thread(target=server.stdout.read, daemon=True)
        try:
            try:
                _await_ready(server)
            except (TimeoutError, ChildProcessError) as failure:
                pytest.fail(f"redis-server on port {port} did not start:\n{failure}", False)
            drain.start()
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
            if drain.is_alive():
                drain.join(timeout=10)
            server.stdout.close()


def _glob_escape(text: str) -> str:
    return "".join(f"\\{char}" if char in "*?[]\\" else char for char in text)


async def delete_prefix(url: str, prefix: str) -> int:
    """Delete every key that starts with ``<prefix>:``, on every primary of a cluster; returns
    how many there were."""
    deleted = 0
    for node in await asyncio.to_thread(primary_urls, url):
        client = redis.asyncio.Redis.from_url(node)
        try:
            keys = [
                k async for k in client.scan_iter(match=f"{_glob_escape(prefix)}:*", count=1000)
            ]
            # One key per command: on a cluster node, keys of one command must share a slot.
            for start in range(0, len(keys), 500):
                pipe = client.pipeline(transaction=False)
                for key in keys[start : start + 500]:
                    pipe.unlink(key)
                deleted += sum(await pipe.execute())
        finally:
            await client.aclose()
    return deleted


class OwnRedis:
    """A ``redis-server`` of a test's own on a free port, with an append-only file in
    ``workdir`` (so data outlives a restart): start, stop, pause and resume it at will."""

    def __init__(self, workdir: Path) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.fail("This test needs redis-server on the PATH.", False)
        self.binary = binary
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, *, appendfsync: str = "always") -> None:
        command = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", ""]
        command += ["--appendonly", "yes", "--appendfsync", appendfsync]
        command += ["--dir", str(self.workdir)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while not answers(self.url):
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise TimeoutError(f"redis-server on port {self.port} did not start.")

    def pause(self) -> None:
        """Freeze the server (SIGSTOP): connections stay open and nothing answers."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def resume(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """End the server at once (SIGKILL), as a crash would: no shutdown, no final flush."""
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)
        self.process.kill()
        self.process.wait(timeout=15)
        self.process = None

    def copy_aof(self, to: Path) -> None:
        """Copy the append-only files as they are now (what a host crash would leave on disk,
        taken at this moment)."""
        shutil.copytree(self.workdir / "appendonlydir", to)

    def restore_aof(self, copy: Path) -> None:
        """Put a copy from :meth:`copy_aof` back, for the next :meth:`start` (server stopped)."""
        assert self.process is None, "stop or kill the server first"
        shutil.rmtree(self.workdir / "appendonlydir")
        shutil.copytree(copy, self.workdir / "appendonlydir")

    def stop(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            self.process.wait(timeout=15)
            self.process = None


@contextlib.contextmanager
def own_redis(workdir: Path) -> Iterator[OwnRedis]:
    server = OwnRedis(workdir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def patient_settings() -> RedisSettings:
    """Store settings for tests that write or read long campaigns in one go: a command may take
    seconds on a machine whose other work fills every core, and these tests are not about the
    store's timeout (its own tests are, ``tests/server/test_redis_pause.py``)."""
    return RedisSettings(socket_timeout_s=60.0, pool_timeout_s=60.0, connect_timeout_s=30.0)
