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
import contextlib
import itertools
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from clients import http_async
from clients.http import Unreachable, seed_field
from clients.replica import SYNC, Exchange, Message, ProtocolError, Replica

MSGPACK = "tabletale.msgpack"
PING_INTERVAL_S = 45.0
"""Keep-alive pings, as often as the server sends its own (its settings' default)."""

__all__ = [
    "MSGPACK",
    "Gone",
    "Link",
    "Message",
    "Offline",
    "ProtocolError",
    "Seat",
    "Unreachable",
    "create_campaign",
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


async def _open(url: str, *, msgpack: bool, timeout: float) -> ClientConnection:
    """A play socket at ``url`` (MessagePack frames when asked); Unreachable when nobody
    answers there."""
    try:
        return await connect(
            url,
            subprotocols=[MSGPACK] if msgpack else None,  # type: ignore[list-item]
            open_timeout=timeout,
            compression=None,
            ping_interval=PING_INTERVAL_S,
        )
    except (OSError, TimeoutError) as error:
        raise Unreachable(url, error) from None


class Seat:
    """One connection to a campaign, as a seat (with a token) or as a spectator."""

    def __init__(
        self, connection: ClientConnection, *, binary: bool, replica: Replica | None = None
    ) -> None:
        self.connection = connection
        self._binary = binary
        self._commands = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self.replica = replica or Replica()
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
        replica: Replica | None = None,
    ) -> AsyncIterator[Seat]:
        """Open the socket, say hello and wait for the welcome. ``name`` is shown to the other
        sockets; ``presence`` asks to be told who is connected (see ``Replica.presence``). A
        server that does not answer raises :class:`~clients.http.Unreachable`. A ``replica``
        kept from an earlier socket goes on from there (with ``since``, its version)."""
        connection = await _open(socket_url(base, campaign), msgpack=msgpack, timeout=timeout)
        async with connection:
            seat = cls(connection, binary=msgpack, replica=replica)
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

    @classmethod
    @asynccontextmanager
    async def create(
        cls,
        base: str,
        campaign: Message,
        *,
        seat: str | None = None,
        name: str | None = None,
        presence: bool = False,
        msgpack: bool = False,
        timeout: float = 30.0,
    ) -> AsyncIterator[Seat]:
        """Open a socket that creates ``campaign`` (the body ``POST /api/campaigns`` takes) and
        plays it as ``seat`` (None: the first seat a person plays); the seats' tokens are in
        :attr:`created`."""
        url = f"{base.rstrip('/')}/ws/play"
        connection = await _open(url, msgpack=msgpack, timeout=timeout)
        async with connection:
            opened = cls(connection, binary=msgpack)
            await opened.play_new(
                campaign, seat=seat, name=name, presence=presence, timeout=timeout
            )
            yield opened

    async def play_new(
        self,
        campaign: Message,
        *,
        seat: str | None = None,
        name: str | None = None,
        presence: bool = False,
        timeout: float = 30.0,
    ) -> Message:
        """Create ``campaign`` and move this socket to it, as ``seat``; returns the ``created``
        answer (every seat's token). What the campaign before still sends is read past."""
        asked: Message = {"type": "create", "campaign": campaign}
        if seat is not None:
            asked["seat"] = seat
        if name is not None:
            asked["name"] = name
        if presence:
            asked["presence"] = True
        await self.send(asked)
        while (message := await self.receive(timeout))["type"] != "created":
            if message["type"] == "error":
                raise ProtocolError(message)
        self.replica.absorb(message)
        welcome = await self.receive(timeout)
        if welcome["type"] != "welcome":
            raise ProtocolError(welcome)
        self.replica.absorb(welcome)
        return message

    @property
    def created(self) -> Message | None:
        """The ``created`` answer of the campaign this socket created last, if it did."""
        return self.replica.created

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

    async def receive(self, timeout: float | None = 30.0) -> Message:
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
    seed: int | str | None = None,
    options: dict[str, Any] | None = None,
    seats: list[str] | None = None,
    bots: dict[str, dict[str, Any]] | None = None,
) -> Message:
    """``POST /api/campaigns``; returns ``{"id", "game", "seats": {seat: token}, ...}``. The
    seed, if chosen, goes as a decimal string; ``bots``: the seats bots play, as
    ``{seat: {"bot": policy, "level": n}}``."""
    body: Message = {"game": game}
    if seed is not None:
        body["seed"] = seed_field(seed)
    if options:
        body["options"] = options
    if seats:
        body["seats"] = seats
    if bots:
        body["bots"] = bots
    created: Message = await http_async.post(f"{base.rstrip('/')}/api/campaigns", body)
    return created


FIRST_DELAY_S = 0.5
MAX_DELAY_S = 10.0
"""After a drop, the first try to reconnect waits this long, each next one twice as long, up to
:data:`MAX_DELAY_S` (as the browser does)."""
FINAL_CODES = frozenset({"not_found", "unauthorized", "forbidden", "bad_request"})
"""A ``hello`` refused with one of these will be refused again: no use reconnecting."""
CHANGES = frozenset({"welcome", "sync", "update", "accepted"})
SERVICE_RESTART = 1012


class Gone(Exception):
    """The link gave up: the server stayed away too long, or refused the seat on return."""


class Offline(Exception):
    """There is no socket open right now (the link is reconnecting)."""


Notice = tuple[str, str]
"""What happened to a :class:`Link`: ``("change", type)``, ``("down", why)``, ``("back", "")``,
``("gone", why)`` or ``("problem", message)``."""


def _why(error: BaseException) -> str:
    if isinstance(error, ConnectionClosed):
        code = error.rcvd.code if error.rcvd else None
        if code == SERVICE_RESTART:
            return "the server is restarting"
        return "the connection closed" + (f" (code {code})" if code else "")
    if isinstance(error, TimeoutError):
        return "the server stopped answering"
    return "the server cannot be reached"


def _settle(answer: asyncio.Future[Message], outcome: Message | BaseException) -> None:
    if answer.done():  # its caller stopped waiting (the player quit)
        return
    if isinstance(outcome, BaseException):
        answer.set_exception(outcome)
    else:
        answer.set_result(outcome)


class Link:
    """One campaign's socket that comes back: after a drop it reconnects with backoff and resumes
    from the last version seen (``hello`` with ``since``), keeping one replica throughout. It
    gives up when the server has stayed away for ``patience`` seconds.

    :meth:`run` owns the socket and reads every frame; :attr:`notices` tells the caller what
    happened; :meth:`act` takes an action through the socket open at the time."""

    def __init__(
        self, base: str, campaign: str, *, token: str | None, patience: float, timeout: float = 10.0
    ) -> None:
        self.base, self.campaign, self.token = base, campaign, token
        self.patience = patience
        self.timeout = timeout
        self.replica = Replica()
        self.notices: asyncio.Queue[Notice] = asyncio.Queue()
        self.seat: Seat | None = None
        self.reconnects = 0
        self._prefix = uuid.uuid4().hex[:8]
        self._commands = itertools.count(1)
        self._pending: tuple[Exchange, asyncio.Future[Message]] | None = None

    @property
    def online(self) -> bool:
        return self.seat is not None

    async def run(self, opened: asyncio.Future[None]) -> None:
        """Connect, read, reconnect, until cancelled or gone. ``opened`` gets the first welcome,
        or the first connection's error (a server that is not there at the start is an error,
        not an outage)."""
        attempts = 0
        down_since: float | None = None
        loop = asyncio.get_running_loop()
        while True:
            try:
                since = self.replica.version or None
                async with Seat.connect(
                    self.base,
                    self.campaign,
                    token=self.token,
                    since=since,
                    timeout=self.timeout,
                    replica=self.replica,
                ) as seat:
                    self.seat = seat
                    attempts, down_since = 0, None
                    if not opened.done():
                        opened.set_result(None)
                    else:
                        self.reconnects += 1
                        self.notices.put_nowait(("back", ""))
                    await self._resend(seat)
                    while True:
                        await self._absorb(seat, await seat.receive(timeout=None))
            except ProtocolError as refused:
                self.seat = None
                if not opened.done():
                    opened.set_exception(refused)
                    return
                if refused.code in FINAL_CODES:
                    self._give_up(f"the server refused the seat on return: {refused}")
                    return
                why = str(refused)
            except (OSError, TimeoutError, WebSocketException) as error:
                self.seat = None
                if not opened.done():
                    url = socket_url(self.base, self.campaign)
                    opened.set_exception(
                        error if isinstance(error, OSError) else Unreachable(url, error)
                    )
                    return
                why = _why(error)
            if down_since is None:
                down_since = loop.time()
                self.notices.put_nowait(("down", why))
            elif loop.time() - down_since >= self.patience:
                self._give_up(f"{why}, for {loop.time() - down_since:.0f} s")
                return
            delay = min(MAX_DELAY_S, FIRST_DELAY_S * 2**attempts)
            attempts += 1
            await asyncio.sleep(delay)  # the backoff itself: the next try is due then

    def _give_up(self, why: str) -> None:
        if self._pending is not None:
            _settle(self._pending[1], Gone(why))
            self._pending = None
        self.notices.put_nowait(("gone", why))

    async def act(self, action: str) -> Message:
        """Take ``action`` at the replica's version; its ``accepted`` answer. Raises
        :class:`ProtocolError` when it is refused, :class:`Offline` when no socket is open, and
        :class:`Gone` when the link gives up before the answer. A drop before the answer sends
        it again on the next socket, under the same command id: the server applies it once."""
        seat = self.seat
        if seat is None:
            raise Offline("The connection is down.")
        if self._pending is not None:
            raise RuntimeError("One action at a time.")
        exchange = Exchange(self.replica, action, f"{self._prefix}-{next(self._commands)}")
        answer: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._pending = (exchange, answer)
        with contextlib.suppress(ConnectionClosed):  # the reader sees the drop and resends
            await seat.send(exchange.request)
        return await answer

    async def _resend(self, seat: Seat) -> None:
        if self._pending is not None:
            await seat.send(self._pending[0].request)

    async def _absorb(self, seat: Seat, message: Message) -> None:
        reply = None
        if self._pending is not None:
            exchange, answer = self._pending
            try:
                reply = exchange.feed(message)
            except ProtocolError as refused:
                self._pending = None
                _settle(answer, refused)
            else:
                if pause := exchange.take_pause():
                    await asyncio.sleep(pause)  # the server's own retry_after
                if exchange.done:
                    self._pending = None
                    _settle(answer, exchange.answer or message)
        else:
            if message.get("type") in ("error", "rejected"):
                self.notices.put_nowait(("problem", str(message.get("message", ""))))
            reply = self.replica.absorb(message)
        if reply is not None:
            await seat.send(reply)
        kind = str(message.get("type"))
        if kind in CHANGES and not self.replica.lost:
            self.notices.put_nowait(("change", kind))
