"""An asyncio client for one campaign's WebSocket, and the few HTTP calls a player needs.

``Seat`` keeps the latest version, view and legal actions as the server pushes them, so a caller
only picks an action id::

    async with Seat.connect("ws://127.0.0.1:8000", campaign, token=token) as seat:
        while seat.outcome == "running":
            await seat.act(seat.legal_actions[0]["id"])
"""

from __future__ import annotations

import asyncio
import itertools
import json
import urllib.error
import urllib.request
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

MSGPACK = "tabletale.msgpack"
Message = dict[str, Any]


class ProtocolError(Exception):
    """The server answered with an ``error`` or ``rejected`` message."""

    def __init__(self, message: Message) -> None:
        self.code: str = message.get("code", "")
        self.reply = message
        super().__init__(f"{self.code}: {message.get('message', '')}")


class Seat:
    """One connection to a campaign, as a seat (with a token) or as a spectator."""

    def __init__(self, connection: ClientConnection, *, binary: bool) -> None:
        self._connection = connection
        self._binary = binary
        self._commands = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self.version = 0
        self.view: Any = None
        self.legal_actions: list[Message] = []
        self.outcome = "running"
        self.seat: str | None = None
        self.events: list[Message] = []
        """Every ``event`` message received, in order."""

    @classmethod
    @asynccontextmanager
    async def connect(
        cls,
        base: str,
        campaign: str,
        *,
        token: str | None = None,
        since: int | None = None,
        msgpack: bool = False,
    ) -> AsyncIterator[Seat]:
        """Open the socket, say hello and wait for the welcome."""
        protocols = [MSGPACK] if msgpack else None
        url = f"{base.rstrip('/')}/ws/campaigns/{campaign}"
        async with connect(url, subprotocols=protocols) as connection:  # type: ignore[arg-type]
            seat = cls(connection, binary=msgpack)
            await seat.send({"type": "hello", "token": token, "since": since})
            welcome = await seat.receive()
            if welcome["type"] != "welcome":
                raise ProtocolError(welcome)
            seat._absorb(welcome)
            seat.seat = welcome.get("seat")
            yield seat

    async def send(self, message: Message) -> None:
        if self._binary:
            await self._connection.send(msgspec.msgpack.encode(message))
        else:
            await self._connection.send(json.dumps(message))

    async def receive(self, timeout: float = 30.0) -> Message:
        raw = await asyncio.wait_for(self._connection.recv(), timeout)
        message: Message = (
            msgspec.msgpack.decode(raw) if isinstance(raw, bytes) else json.loads(raw)
        )
        return message

    def _absorb(self, message: Message) -> None:
        self.version = message["version"]
        self.view = message["view"]
        self.legal_actions = message.get("legal_actions", [])
        self.outcome = message.get("outcome", self.outcome)

    async def act(self, action: str, *, timeout: float = 30.0) -> Message:
        """Take ``action`` at the current version; return once its events have arrived.

        Raises :class:`ProtocolError` when the server rejects it (nothing was appended).
        """
        command_id = f"{self._prefix}-{next(self._commands)}"
        await self.send(
            {
                "type": "act",
                "action": action,
                "command_id": command_id,
                "expected_version": self.version,
            }
        )
        accepted: Message | None = None
        while accepted is None or self.version < accepted["version"]:
            message = await self.receive(timeout)
            if message["type"] == "event":
                self.events.append(message)
                self._absorb(message)
            elif message.get("command_id") == command_id:
                if message["type"] != "accepted":
                    raise ProtocolError(message)
                accepted = message
            elif message["type"] in ("error", "rejected"):
                raise ProtocolError(message)
        return accepted

    async def next_event(self, timeout: float = 30.0) -> Message:
        """Wait for the next pushed ``event`` (someone else's action, say)."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == "event":
                self.events.append(message)
                self._absorb(message)
                return message
            if message["type"] == "error":
                raise ProtocolError(message)

    def action_id(self, label_start: str) -> str:
        """The id of the legal action whose label starts with ``label_start``."""
        for legal in self.legal_actions:
            if str(legal["label"]).startswith(label_start):
                return str(legal["id"])
        labels = "; ".join(str(a["label"]) for a in self.legal_actions)
        raise LookupError(f"No legal action starts with {label_start!r}; there are: {labels}.")


async def create_campaign(
    base: str,
    game: str,
    *,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    seats: list[str] | None = None,
) -> Message:
    """``POST /api/campaigns``; returns ``{"id", "game", "seats": {seat: token}, ...}``."""
    body: Message = {"game": game}
    if seed is not None:
        body["seed"] = seed
    if options:
        body["options"] = options
    if seats:
        body["seats"] = seats
    return await asyncio.to_thread(_post, f"{base.rstrip('/')}/api/campaigns", body)


def _post(url: str, body: Message) -> Message:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            answer: Message = json.loads(response.read())
            return answer
    except urllib.error.HTTPError as error:
        raise ProtocolError(json.loads(error.read()).get("error", {})) from None
