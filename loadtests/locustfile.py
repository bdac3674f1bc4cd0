"""Locust load: players that create Gil & Ennis campaigns and play them with random legal actions.

Each user sticks to one server from ``TABLETALE_HOSTS`` (comma-separated; default: Locust's
``--host``), so with two servers on one Redis the load spreads over both.
"""

from __future__ import annotations

import os
import random
import uuid
from typing import Any

from locust import HttpUser, between, task


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
