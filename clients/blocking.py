"""A blocking client for one campaign's WebSocket, for threads and gevent (Locust's players).

The same protocol as :class:`clients.connection.Seat`, through the same
:class:`~clients.replica.Replica` and :class:`~clients.replica.Exchange`, on the ``websockets``
library's synchronous client.
"""

from __future__ import annotations

import itertools
import time
import uuid
from typing import Any

import msgspec
from websockets.sync.client import ClientConnection, connect

from clients.connection import PING_INTERVAL_S, socket_url
from clients.replica import Exchange, Message, ProtocolError, Replica

_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


class BlockingSeat:
    def __init__(self, connection: ClientConnection, *, timeout: float) -> None:
        self.connection = connection
        self.timeout = timeout
        self.replica = Replica()
        self._commands = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]

    @classmethod
    def connect(
        cls, base: str, campaign: str, *, token: str | None = None, timeout: float = 10.0
    ) -> BlockingSeat:
        """Open the socket, say hello and wait for the welcome; close it with :meth:`close`."""
        connection = connect(
            socket_url(base, campaign),
            open_timeout=timeout,
            compression=None,
            ping_interval=PING_INTERVAL_S,
        )
        seat = cls(connection, timeout=timeout)
        try:
            seat.send({"type": "hello", "token": token})
            welcome = seat.receive()
            if welcome["type"] != "welcome":
                raise ProtocolError(welcome)
            seat.replica.absorb(welcome)
        except BaseException:
            connection.close()
            raise
        return seat

    def send(self, message: Message) -> None:
        self.connection.send(_encode(message).decode())

    def receive(self) -> Message:
        message: Message = _decode(self.connection.recv(timeout=self.timeout))
        return message

    def act(self, action: str) -> Message:
        """Take ``action``; returns its ``accepted`` answer, or raises :class:`ProtocolError`."""
        exchange = Exchange(self.replica, action, f"{self._prefix}-{next(self._commands)}")
        self.send(exchange.request)
        while not exchange.done:
            reply = exchange.feed(self.receive())
            if pause := exchange.take_pause():
                time.sleep(pause)  # the server's own retry_after, not a guess
            if reply is not None:
                self.send(reply)
        assert exchange.answer is not None
        return exchange.answer

    @property
    def legal_actions(self) -> list[dict[str, Any]]:
        return self.replica.legal_actions

    @property
    def outcome(self) -> str:
        return self.replica.outcome

    def close(self) -> None:
        self.connection.close()
