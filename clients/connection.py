"""An asyncio client for one campaign's WebSocket, and creating a campaign (the other HTTP calls
are in :mod:`clients.http`).

``Seat`` keeps the latest version, view and legal actions as the server pushes them (see
:mod:`clients.replica`), so a caller only picks an action id::

    async with Seat.connect("ws://127.0.0.1:8000", campaign, token=token) as seat:
        while seat.outcome == "running":
            await seat.act(seat.legal_actions[0]["id"])
"""

from __future__ import annotations

import asyncio
import itertools
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect

from clients.http import Unreachable, post
from clients.replica import SYNC, Exchange, Message, ProtocolError, Replica

MSGPACK = "tabletale.msgpack"
PING_INTERVAL_S = 45.0
"""Keep-alive pings, as often as the server sends its own (its settings' default)."""

__all__ = [
    "MSGPACK",
    "Message",
    "ProtocolError",
    "Seat",
    "Unreachable",
    "create_campaign",
    "post",
    "socket_url",
]

_json_decode = msgspec.json.Decoder().decode
_msgpack_decode = msgspec.msgpack.Decoder().decode
_json_encode = msgspec.json.Encoder().encode
_msgpack_encode = msgspec.msgpack.Encoder().encode


def socket_url(base: str, campaign: str) -> str:
    """The play socket of ``campaign`` on the server at ``base`` (http(s) or ws(s))."""
    base = base.rstrip("/")
    if base.startswith("http"):
        base = "ws" + base.removeprefix("http")
    return f"{base}/ws/campaigns/{campaign}"


class Seat:
    """One connection to a campaign, as a seat (with a token) or as a spectator."""

    def __init__(self, connection: ClientConnection, *, binary: bool) -> None:
        self.connection = connection
        self._binary = binary
        self._commands = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self.replica = Replica()
        self.frames_received = 0
        self.bytes_received = 0

    @classmethod
    @asynccontextmanager
    async def connect(
        cls,
        base: str,
        campaign: str,
        *,
        token: str | None = None,
        since: int | None = None,
        name: str | None = None,
        presence: bool = False,
        msgpack: bool = False,
        timeout: float = 30.0,
    ) -> AsyncIterator[Seat]:
        """Open the socket, say hello and wait for the welcome. ``name`` is shown to the other
        sockets; ``presence`` asks to be told who is connected (see ``Replica.presence``). A
        server that does not answer raises :class:`~clients.http.Unreachable`."""
        protocols = [MSGPACK] if msgpack else None
        url = socket_url(base, campaign)
        try:
            connection = await connect(
                url,
                subprotocols=protocols,  # type: ignore[arg-type]
                open_timeout=timeout,
                compression=None,
                ping_interval=PING_INTERVAL_S,
            )
        except (OSError, TimeoutError) as error:
            raise Unreachable(url, error) from None
        async with connection:
            seat = cls(connection, binary=msgpack)
            hello: Message = {"type": "hello", "token": token, "since": since}
            if name is not None:
                hello["name"] = name
            if presence:
                hello["presence"] = True
            await seat.send(hello)
            welcome = await seat.receive(timeout)
            if welcome["type"] != "welcome":
                raise ProtocolError(welcome)
            seat.replica.absorb(welcome)
            yield seat

    # What the replica knows, for callers that read it directly.
    @property
    def version(self) -> int:
        return self.replica.version

    @property
    def view(self) -> Any:
        return self.replica.view

    @property
    def legal_actions(self) -> list[Message]:
        return self.replica.legal_actions

    @property
    def outcome(self) -> str:
        return self.replica.outcome

    @property
    def seat(self) -> str | None:
        return self.replica.seat

    @property
    def events(self) -> list[Message]:
        return self.replica.events

    def action_id(self, label_start: str) -> str:
        return self.replica.action_id(label_start)

    async def send(self, message: Message) -> None:
        if self._binary:
            await self.connection.send(_msgpack_encode(message))
        else:
            await self.connection.send(_json_encode(message).decode())

    async def receive(self, timeout: float = 30.0) -> Message:
        """The next message, decoded, as it came (nothing absorbed)."""
        raw = await asyncio.wait_for(self.connection.recv(), timeout)
        self.frames_received += 1
        self.bytes_received += len(raw)
        message: Message = _msgpack_decode(raw) if isinstance(raw, bytes) else _json_decode(raw)
        return message

    async def act(self, action: str, *, timeout: float = 30.0) -> Message:
        """Take ``action`` at the current version; return its ``accepted`` answer once the
        replica holds the version it made.

        Raises :class:`ProtocolError` when the server rejects it (nothing was appended).
        """
        exchange = Exchange(self.replica, action, f"{self._prefix}-{next(self._commands)}")
        await self.send(exchange.request)
        while not exchange.done:
            reply = exchange.feed(await self.receive(timeout))
            if pause := exchange.take_pause():
                await asyncio.sleep(pause)  # the server's own retry_after, not a guess
            if reply is not None:
                await self.send(reply)
        assert exchange.answer is not None
        return exchange.answer

    async def next_update(self, timeout: float = 30.0) -> Message:
        """Wait for the next pushed change (someone else's action, say) and absorb it."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == "error":
                raise ProtocolError(message)
            reply = self.replica.absorb(message)
            if reply is not None:
                await self.send(reply)
            if message["type"] in ("update", "sync") and not self.replica.lost:
                return message

    async def until(self, version: int, timeout: float = 30.0) -> None:
        """Absorb pushed changes until the replica holds ``version``."""
        while self.replica.version < version or self.replica.lost:
            await self.next_update(timeout)

    async def sync(self, timeout: float = 30.0) -> Message:
        """Ask for the full view at the head."""
        await self.send(SYNC)
        while True:
            message = await self.receive(timeout)
            if message["type"] == "error":
                raise ProtocolError(message)
            self.replica.absorb(message)
            if message["type"] == "sync":
                return message


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
    return await asyncio.to_thread(post, f"{base.rstrip('/')}/api/campaigns", body)
