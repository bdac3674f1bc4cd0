"""Locust load: players that create Gil & Ennis campaigns and play them with random legal actions,
over HTTP (``Player``) or on a WebSocket session each (``SocketPlayer``).

Each user sticks to one server from ``TABLETALE_HOSTS`` (comma-separated; default: Locust's
``--host``), so with two servers on one Redis the load spreads over both.
"""

from __future__ import annotations

import json
import os
import random
import time
import urllib.request
import uuid
from typing import Any

from locust import HttpUser, User, between, task
from websockets.sync.client import ClientConnection, connect


class Player(HttpUser):
    wait_time = between(0.05, 0.5)

    def on_start(self) -> None:
        hosts = [h for h in os.environ.get("TABLETALE_HOSTS", "").split(",") if h]
        if hosts:
            self.client.base_url = random.choice(hosts)
        self.campaign: dict[str, Any] | None = None

    def _new_campaign(self) -> None:
        reply = self.client.post("/api/campaigns", json={"game": "gil-ennis"})
        self.campaign = reply.json() if reply.status_code == 201 else None

    @task(10)
    def play(self) -> None:
        if self.campaign is None:
            self._new_campaign()
            return
        cid = self.campaign["id"]
        token = self.campaign["seats"]["player"]
        headers = {"Authorization": f"Bearer {token}"}
        state = self.client.get(
            f"/api/campaigns/{cid}/state", headers=headers, name="/api/campaigns/[id]/state"
        ).json()
        if state.get("outcome") != "running" or not state.get("legal_actions"):
            self.campaign = None
            return
        action = random.choice(state["legal_actions"])["id"]
        self.client.post(
            f"/api/campaigns/{cid}/actions",
            json={
                "action": action,
                "expected_version": state["version"],
                "command_id": uuid.uuid4().hex,
            },
            headers=headers,
            name="/api/campaigns/[id]/actions",
        )

    @task(1)
    def browse(self) -> None:
        self.client.get("/api/campaigns?limit=20", name="/api/campaigns")


class SocketPlayer(User):
    """A player on a WebSocket session: hello, then act and wait for the accepted answer.

    Each ``act`` round trip is reported to Locust as a ``WS act`` request; a rejection counts as a
    failure. A finished campaign is replaced by a new one.
    """

    wait_time = between(0.05, 0.5)

    def on_start(self) -> None:
        hosts = [h for h in os.environ.get("TABLETALE_HOSTS", "").split(",") if h]
        self.base = random.choice(hosts) if hosts else str(self.host)
        self.socket: ClientConnection | None = None
        self.latest: dict[str, Any] = {}

    def on_stop(self) -> None:
        if self.socket is not None:
            self.socket.close()

    def _join(self) -> None:
        body = json.dumps({"game": "gil-ennis"}).encode()
        request = urllib.request.Request(
            self.base + "/api/campaigns",
            data=body,
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            created = json.loads(reply.read())
        url = "ws" + self.base.removeprefix("http") + f"/ws/campaigns/{created['id']}"
        self.socket = connect(url, open_timeout=10)
        token = created["seats"]["player"]
        self.socket.send(json.dumps({"type": "hello", "token": token}))
        self.latest = json.loads(self.socket.recv(timeout=10))

    @task
    def act(self) -> None:
        if self.socket is None or self.latest.get("outcome") != "running":
            if self.socket is not None:
                self.socket.close()
            self._join()
            return
        assert self.socket is not None
        choice = random.choice(self.latest["legal_actions"])["id"]
        command = uuid.uuid4().hex
        started = time.perf_counter()
        self.socket.send(
            json.dumps(
                {
                    "type": "act",
                    "action": choice,
                    "command_id": command,
                    "expected_version": self.latest["version"],
                }
            )
        )
        answer: dict[str, Any] | None = None
        while answer is None or self.latest["version"] < answer["version"]:
            message = json.loads(self.socket.recv(timeout=10))
            if message["type"] == "event":
                self.latest = message
            elif message.get("command_id") == command:
                if message["type"] != "accepted":
                    self._report(started, RuntimeError(message.get("message")))
                    self.latest = {}
                    return
                answer = message
        self._report(started, None)

    def _report(self, started: float, error: Exception | None) -> None:
        self.environment.events.request.fire(
            request_type="WS",
            name="act",
            response_time=(time.perf_counter() - started) * 1000,
            response_length=0,
            exception=error,
            context={},
        )
