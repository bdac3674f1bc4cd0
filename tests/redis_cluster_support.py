"""A real Redis Cluster for the tests that need one.

``running_redis_cluster()`` yields a ``redis+cluster://`` URL: ``TABLETALE_TEST_REDIS_CLUSTER_URL``
(``tests/run.sh`` starts one), else a private three-master cluster of ``redis-server`` processes on
free loopback ports, made with ``redis-cli --cluster create`` and stopped afterwards. Tests that
change a cluster's layout (move slots, kill nodes) start one of their own with ``own_cluster()``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from redis.crc import key_slot

from server.store.redis_cluster import is_cluster_url, node_url, seed_url
from tests.redis_support import START_TIMEOUT_S, answers, free_ports

CLUSTER_URL_VARIABLE = "TABLETALE_TEST_REDIS_CLUSTER_URL"


class OwnCluster:
    """A Redis Cluster of a test's own: ``masters`` masters with ``replicas`` replicas each, on
    free loopback ports, no persistence, in ``workdir``; made the way ``tests/run.sh`` makes one,
    with ``redis-cli``. With replicas, a master that dies fails over to its replica within
    seconds."""

    def __init__(self, workdir: Path, masters: int = 3, replicas: int = 0) -> None:
        server, cli = shutil.which("redis-server"), shutil.which("redis-cli")
        if server is None or cli is None:
            pytest.fail("This test needs redis-server and redis-cli on the PATH.", False)
        self.server, self.cli = server, cli
        self.workdir = workdir
        self.replicas = replicas
        nodes = masters * (1 + replicas)
        # Each node's port and its cluster bus port, all distinct.
        picked = free_ports(2 * nodes)
        self.ports = picked[:nodes]
        self.bus_ports = dict(zip(self.ports, picked[nodes:], strict=True))
        self.processes: dict[int, subprocess.Popen[bytes]] = {}
        self.url = f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def node_url(self, port: int) -> str:
        return f"redis://127.0.0.1:{port}"

    def start(self) -> None:
        for port in self.ports:
            command = [self.server, "--port", str(port), "--bind", "127.0.0.1"]
            command += ["--cluster-enabled", "yes", "--cluster-port", str(self.bus_ports[port])]
            command += ["--cluster-config-file", f"nodes-{port}.conf"]
            command += ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)]
            if self.replicas:
                command += ["--cluster-node-timeout", "1000"]  # a quick failover
            self.processes[port] = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
        deadline = time.monotonic() + START_TIMEOUT_S
        for port in self.ports:
            while not answers(self.node_url(port)):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"redis-server on port {port} did not start.")
                threading.Event().wait(0.02)  # a poll interval, bounded by the deadline
        create = [self.cli, "--cluster", "create"]
        create += [f"127.0.0.1:{port}" for port in self.ports]
        create += ["--cluster-replicas", str(self.replicas), "--cluster-yes"]
        made = subprocess.run(create, capture_output=True, text=True, timeout=60, check=False)
        if made.returncode != 0:
            raise ChildProcessError(made.stdout + made.stderr)
        self.wait_settled(deadline)

    @property
    def alive(self) -> list[int]:
        return [port for port, process in self.processes.items() if process.poll() is None]

    def wait_settled(self, deadline: float) -> None:
        """Until every live node says the cluster is ok and all agree on who serves which slot
        (and, with replicas, on a replica for every slot)."""
        while True:
            maps = [self.ranges(port) for port in self.alive]
            covered = sum(last - first + 1 for first, last, *_ in maps[0])
            if (
                all(self.state(port) == "ok" for port in self.alive)
                and all(m == maps[0] for m in maps)
                and covered == 16384
                and all(len(nodes) == 1 + self.replicas for *_, nodes in maps[0])
            ):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"The cluster on {self.ports} did not settle: {maps[0]!r}.")
            threading.Event().wait(0.05)  # a poll interval, bounded by the deadline

    def state(self, port: int) -> str:
        client = redis.Redis.from_url(self.node_url(port), socket_timeout=2)
        try:
            info = client.execute_command("CLUSTER", "INFO").decode()
        finally:
            client.close()
        fields = dict(line.split(":", 1) for line in info.split() if ":" in line)
        return fields.get("cluster_state", "")

    def ranges(self, port: int) -> list[tuple[int, int, tuple[int, ...]]]:
        """(first slot, last slot, ports of its master then replicas), as ``port`` sees it."""
        client = redis.Redis.from_url(self.node_url(port), socket_timeout=2)
        try:
            found = client.execute_command("CLUSTER", "SLOTS")
        finally:
            client.close()
        return sorted((int(r[0]), int(r[1]), tuple(int(node[1]) for node in r[2:])) for r in found)

    def slot_map(self, port: int) -> dict[int, int]:
        """slot -> port of the master that serves it, as ``port`` sees it."""
        return {
            slot: nodes[0]
            for first, last, nodes in self.ranges(port)
            for slot in range(first, last + 1)
        }

    def node_id(self, port: int) -> str:
        client = redis.Redis.from_url(self.node_url(port), socket_timeout=2)
        try:
            return bytes(client.execute_command("CLUSTER", "MYID")).decode()
        finally:
            client.close()

    def wait_failed_over(self, dead: int, deadline: float) -> None:
        """Until every live node says the cluster is ok with no slot left on ``dead``."""
        while True:
            maps = [self.slot_map(port) for port in self.alive]
            if (
                all(self.state(port) == "ok" for port in self.alive)
                and all(len(m) == 16384 and dead not in m.values() for m in maps)
                and all(m == maps[0] for m in maps)
            ):
                return
            if time.monotonic() > deadline:
                raise TimeoutError(f"The cluster did not fail over from {dead}.")
            threading.Event().wait(0.05)  # a poll interval, bounded by the deadline

    def kill(self, port: int) -> None:
        """SIGKILL the node on ``port``: a crash, with no goodbye to the cluster."""
        process = self.processes[port]
        process.kill()
        process.wait(timeout=10)

    def _call(self, port: int, *command: object) -> object:
        client = redis.Redis.from_url(self.node_url(port), socket_timeout=10)
        try:
            return client.execute_command(*command)
        finally:
            client.close()

    def owner(self, key: str) -> int:
        """The port of the master that serves ``key``, as a live node sees it."""
        return self.slot_map(self.alive[0])[key_slot(key.encode())]

    @property
    def masters(self) -> list[int]:
        return sorted({nodes[0] for _, _, nodes in self.ranges(self.alive[0])})

    def replica_of(self, port: int) -> int:
        (nodes,) = {nodes for _, _, nodes in self.ranges(port) if nodes[0] == port}
        return nodes[1]

    def begin_move(self, slot: int, to: int) -> int:
        """Mark ``slot`` as migrating from its master to the master on port ``to`` (commands on
        keys not moved yet are redirected with ASK); returns the port it moves from."""
        source = self.slot_map(self.alive[0])[slot]
        self._call(to, "CLUSTER", "SETSLOT", slot, "IMPORTING", self.node_id(source))
        self._call(source, "CLUSTER", "SETSLOT", slot, "MIGRATING", self.node_id(to))
        return source

    def finish_move(self, slot: int, source: int, to: int) -> None:
        """Move the slot's keys and give the slot to ``to``; wait until every node agrees."""
        while True:
            keys = self._call(source, "CLUSTER", "GETKEYSINSLOT", slot, 100)
            assert isinstance(keys, list)
            if not keys:
                break
            self._call(source, "MIGRATE", "127.0.0.1", to, "", 0, 5000, "KEYS", *keys)
        target = self.node_id(to)
        masters = {nodes[0] for _, _, nodes in self.ranges(to)}
        for port in (to, source, *sorted(masters - {to, source})):
            self._call(port, "CLUSTER", "SETSLOT", slot, "NODE", target)
        self.wait_settled(time.monotonic() + START_TIMEOUT_S)

    def move(self, slot: int, to: int) -> None:
        self.finish_move(slot, self.begin_move(slot, to), to)

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes = {}


@contextlib.contextmanager
def own_cluster(workdir: Path | None = None, *, replicas: int = 0) -> Iterator[OwnCluster]:
    with contextlib.ExitStack() as stack:
        if workdir is None:
            workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="tt-cluster-")))
        cluster = OwnCluster(workdir, replicas=replicas)
        stack.callback(cluster.stop)
        try:
            cluster.start()
        except (TimeoutError, ChildProcessError) as failure:
            pytest.fail(f"The private Redis Cluster did not start:\n{failure}", False)
        yield cluster


@contextlib.contextmanager
def running_redis_cluster() -> Iterator[str]:
    configured = os.environ.get(CLUSTER_URL_VARIABLE)
    if configured:
        if not answers(seed_url(configured)):
            pytest.fail(
                f"{CLUSTER_URL_VARIABLE} is {configured}, but nothing answers there.", False
            )
        yield configured
    else:
        with own_cluster() as cluster:
            yield cluster.url


def node_serving(url: str, key: str) -> str:
    """The plain URL of the node that serves ``key`` (``url`` itself on a single Redis)."""
    if not is_cluster_url(url):
        return url
    client = redis.Redis.from_url(seed_url(url), socket_timeout=2)
    try:
        ranges = client.execute_command("CLUSTER", "SLOTS")
    finally:
        client.close()
    slot = key_slot(key.encode())
    for first, last, primary, *_ in ranges:
        if first <= slot <= last:
            return node_url(url, bytes(primary[0]).decode(), int(primary[1]))
    raise LookupError(f"No node of {url} serves {key!r}.")
