"""Locust load: players that create Gil & Ennis campaigns and play them with random legal actions,
over HTTP (``Player``) or on a WebSocket session each (``SocketPlayer``).

Each user sticks to one server from ``TABLETALE_HOSTS`` (comma-separated; default: Locust's
``--host``), so with two servers on one Redis the load spreads over both.
"""

from __future__ import annotations

import os
import random
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from locust import HttpUser, User, between, task

# Locust loads this file by path; the client library lives beside it in the repository.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from clients.blocking import BlockingSeat
from clients.http import post
from clients.replica import ProtocolError


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
    """A player on a WebSocket session (the project's blocking client): act, wait for the answer.

    Each ``act`` round trip is reported to Locust as a ``WS act`` request; a rejection counts as a
    failure. A finished campaign is replaced by a new one.
    """

    wait_time = between(0.05, 0.5)

    def on_start(self) -> None:
        hosts = [h for h in os.environ.get("TABLETALE_HOSTS", "").split(",") if h]
        self.base = random.choice(hosts) if hosts else str(self.host)
        self.seat: BlockingSeat | None = None

    def on_stop(self) -> None:
        if self.seat is not None:
            self.seat.close()

    def _join(self) -> None:
        created = post(self.base + "/api/campaigns", {"game": "gil-ennis"})
        self.seat = BlockingSeat.connect(
            self.base, created["id"], token=created["seats"]["player"], timeout=10
        )

    @task
    def act(self) -> None:
        seat = self.seat
        if seat is None or seat.outcome != "running" or not seat.legal_actions:
            if seat is not None:
                seat.close()
            self._join()
            return
        choice = random.choice(seat.legal_actions)["id"]
        started = time.perf_counter()
        try:
            seat.act(choice)
        except ProtocolError as error:
            self._report(started, error)
            self.seat = None
            seat.close()
            return
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
