"""The play socket ``/ws/campaigns/{id}``: hello, welcome, actions, and live events.

A session starts with the client's ``hello`` (a seat token or none, and optionally ``since``, the
last version it saw). The server answers ``welcome`` (at the head, or at ``since`` followed by one
``event`` per missed version), then pushes every new event. Actions are answered ``accepted`` or
``rejected``; the pushed ``event`` for an accepted action may arrive before or after its answer.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import MutableMapping
from typing import Any

import msgspec
from starlette import status
from starlette.websockets import WebSocket

from projections.views import choices, seat_view
from server.auth import seat_for
from server.errors import ErrorBody, classify
from server.fanout import LAGGING, Subscriber, missed
from server.http.commands import perform
from server.http.context import Context, context
from server.messages import (
    Accepted,
    Act,
    ErrorMessage,
    EventMessage,
    Hello,
    Rejected,
    Welcome,
)
from server.ws.frames import MAX_FRAME, Frames, frames_for

log = logging.getLogger("tabletale.ws")

MAX_BAD_FRAMES = 8
"""Consecutive unreadable frames after which the client is taken to be broken."""


class Closed(Exception):
    """The session ends with this close code."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


def _error(error: Exception) -> ErrorBody:
    known = classify(error)
    if known is None:
        log.exception("Unexpected error in a WebSocket session", exc_info=error)
        return ErrorBody("internal", "The server failed to handle this message.")
    return known


def frame_data(message: MutableMapping[str, Any]) -> str | bytes:
    """The payload of an ASGI receive event, refusing frames over the size limit."""
    data: str | bytes | None = message.get("text")
    if data is None:
        data = message.get("bytes") or b""
    if len(data) > MAX_FRAME:
        raise Closed(status.WS_1009_MESSAGE_TOO_BIG, f"Frames are limited to {MAX_FRAME} bytes.")
    return data


class Session:
    def __init__(self, websocket: WebSocket, ctx: Context, campaign_id: str, frames: Frames):
        self.ws = websocket
        self.ctx = ctx
        self.campaign_id = campaign_id
        self.frames = frames
        self.seat: str | None = None
        self.subscriber: Subscriber | None = None
        self.last = 0
        self._bad = 0
        self._lock = asyncio.Lock()
        self._pump: asyncio.Task[None] | None = None

    async def send(self, message: msgspec.Struct) -> None:
        async with self._lock:
            await self.ws.send(self.frames.encode(message))

    async def run(self) -> None:
        try:
            await self.ctx.service.store.info(self.campaign_id)
        except Exception as error:
            body = _error(error)
            await self.send(ErrorMessage(body.code, body.message))
            raise Closed(status.WS_1008_POLICY_VIOLATION, body.message) from None
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                return
            await self.handle(frame_data(message))

    async def handle(self, data: str | bytes) -> None:
        try:
            decoded = self.frames.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            self._bad += 1
            if self._bad >= MAX_BAD_FRAMES:
                raise Closed(
                    status.WS_1008_POLICY_VIOLATION, "Too many unreadable frames in a row."
                ) from None
            await self.send(ErrorMessage("bad_request", f"The message could not be read: {error}."))
            return
        self._bad = 0
        match decoded:
            case Hello():
                await self.hello(decoded)
            case Act():
                await self.act(decoded)

    async def hello(self, hello: Hello) -> None:
        if self.subscriber is not None:
            await self.send(ErrorMessage("bad_request", "This session has already said hello."))
            return
        try:
            await self._join(hello)
        except Exception as error:
            body = _error(error)
            await self.send(ErrorMessage(body.code, body.message))

    async def _join(self, hello: Hello) -> None:
        service = self.ctx.service
        info = await service.store.info(self.campaign_id)
        seat = seat_for(info.attrs, hello.token)
        if hello.since is not None and not 1 <= hello.since <= info.head:
            await self.send(
                ErrorMessage(
                    "bad_request",
                    f"'since' must be a version from 1 to {info.head}, not {hello.since}.",
                )
            )
            return
        subscriber = await self.ctx.hub.subscribe(self.campaign_id, seat)
        try:
            game = await service.game_of(self.campaign_id)
            seats = list(await service.seats_of(self.campaign_id))
            if hello.since is None:
                version, state = await service.state_at(self.campaign_id)
                catch_up: list[EventMessage] = []
            else:
                version = hello.since
                state, catch_up = await missed(service, self.campaign_id, seat, hello.since)
        except BaseException:
            self.ctx.hub.unsubscribe(self.campaign_id, subscriber)
            raise
        self.seat, self.subscriber = seat, subscriber
        await self.send(
            Welcome(
                campaign=self.campaign_id,
                game=game.name,
                seat=seat,
                seats=seats,
                version=version,
                view=seat_view(game, state, seat),
                legal_actions=[] if catch_up else choices(game, state, seat),
                outcome=game.outcome(state),
            )
        )
        self.last = version
        for message in catch_up:
            await self.send(message)
            self.last = message.version
        self._pump = asyncio.create_task(self._forward(subscriber))

    async def _forward(self, subscriber: Subscriber) -> None:
        while True:
            message = await subscriber.queue.get()
            if message is LAGGING:
                await self.ws.close(
                    status.WS_1013_TRY_AGAIN_LATER,
                    "This session fell too far behind; reconnect with 'since'.",
                )
                return
            if message.version <= self.last:
                continue
            await self.send(message)
            self.last = message.version

    async def act(self, act: Act) -> None:
        if self.subscriber is None:
            await self.send(Rejected(act.command_id, "bad_request", "Say hello before acting."))
            return
        try:
            acted = await perform(
                self.ctx,
                self.campaign_id,
                self.seat,
                act.action,
                expected_version=act.expected_version,
                command_id=act.command_id,
            )
        except Exception as error:
            body = _error(error)
            await self.send(Rejected(act.command_id, body.code, body.message))
            return
        await self.send(Accepted(act.command_id, acted.first, acted.last, acted.duplicate))

    async def close(self) -> None:
        if self._pump is not None:
            self._pump.cancel()
            await asyncio.gather(self._pump, return_exceptions=True)
        if self.subscriber is not None:
            self.ctx.hub.unsubscribe(self.campaign_id, self.subscriber)


async def campaign_socket(websocket: WebSocket) -> None:
    ctx = context(websocket)
    frames, subprotocol = frames_for(list(websocket.scope.get("subprotocols", [])))
    await websocket.accept(subprotocol=subprotocol)
    session = Session(websocket, ctx, websocket.path_params["id"], frames)
    ctx.metrics.sockets += 1
    try:
        await session.run()
    except Closed as closed:
        await websocket.close(closed.code, closed.reason)
    except OSError:
        pass  # the peer went away mid-send
    finally:
        ctx.metrics.sockets -= 1
        await session.close()
