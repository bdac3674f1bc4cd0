"""The play sockets: ``/ws/campaigns/{id}`` (hello, welcome, actions, and live updates) and
``/ws/play``, which starts with no campaign and creates one (``create``).

A session starts with the client's ``hello`` (a seat token or none, and optionally ``since``, the
last version it saw). The server answers ``welcome`` with the full view at the head (and, after a
``since``, the events the client missed), then pushes one ``update`` per change. An action is
answered ``accepted`` (carrying that change's update, so the acting socket gets one frame per
action) or ``rejected`` (nothing was appended). ``sync`` asks for the full view again. A ``hello``
with ``presence`` also gets ``presence`` (who is connected) after its welcome and whenever a socket
joins or leaves. ``create`` makes a new campaign and moves the socket to it, on either path: the
answer is ``created`` (the seats' tokens), then the new campaign's ``welcome``; the campaign it
watched before sends nothing after ``created``. Every frame leaves through the session's
:class:`~server.live.outbox.Outbox`, in order.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any

import msgspec
from starlette import status
from starlette.websockets import WebSocket, WebSocketDisconnect

from projections.log import SeenEvent
from server.campaigns.acting import Acting
from server.campaigns.delay import delay_of
from server.campaigns.head import Head
from server.context import Context, authenticate, context, make_campaign, perform, plan_campaign
from server.errors import ApiError, ErrorBody, classify
from server.live.builders import accepted, retold, seen_events, sync_message
from server.live.frames import MAX_FRAME, Frames, frames_for
from server.live.outbox import Frame, Outbox
from server.live.watcher import Watcher
from server.live.wire import WRITE_NOW
from server.ops import logs
from server.protocol.messages import (
    Act,
    ClientMessage,
    Create,
    Created,
    CreatedOut,
    ErrorMessage,
    Hello,
    Missed,
    Rejected,
    ServerMessage,
    SyncRequest,
    Welcome,
)
from server.protocol.openapi import operation
from server.store.base import StoreError
from server.throttle import client_of

log = logging.getLogger("tabletale.ws")

MAX_BAD_FRAMES = 8
"""Consecutive unreadable frames after which the client is taken to be broken."""

OUTBOX_LIMIT = 256
"""Frames a socket may leave unread before it is sent one fresh sync instead."""

OUTBOX_BYTES = 128 * 1024
"""Bytes of frames a socket may leave unread before it is sent one fresh sync instead: with the
transport's own buffer (64 KiB above which nothing more is written to it) the most one socket
that stopped reading holds until it is dropped (``ws_stall_timeout_s``)."""

STALLED = "stalled"
"""The reason of a disconnect the server made itself: the socket's backlog stayed full past
``ws_stall_timeout_s`` (the peer stopped reading)..."""

MISSED_PONG = "missed_pong"
"""...or it missed its pong with a backlog it was not reading (``ws_ping_interval_s``)."""

MISSED_PAGE = 256
"""Missed events per frame of a resume: the welcome carries the first page, ``missed`` frames
the rest."""

MAX_REFUSED = 256
"""Messages over the rate limit in a row after which the client is taken to be flooding."""

MAX_NAME = 40
"""The longest player name a ``hello`` may give (characters)."""


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


def _name(given: str | None) -> str | None:
    """The player's name as a ``hello`` or ``create`` gives it, trimmed; refused past the
    longest."""
    name = (given or "").strip() or None
    if name is not None and len(name) > MAX_NAME:
        raise ApiError("bad_request", f"A name has at most {MAX_NAME} characters.")
    return name


class Session:
    __slots__ = (
        "_bad",
        "_bucket",
        "_refused",
        "campaign_id",
        "client",
        "ctx",
        "frames",
        "outbox",
        "seat",
        "watcher",
        "ws",
    )

    def __init__(
        self, websocket: WebSocket, ctx: Context, campaign_id: str | None, frames: Frames
    ) -> None:
        self.ws = websocket
        self.ctx = ctx
        self.campaign_id = campaign_id
        self.frames = frames
        self.client = client_of(websocket)
        self.seat: str | None = None
        self.watcher: Watcher | None = None
        direct = websocket.scope.get("extensions", {}).get(WRITE_NOW)
        self.outbox = Outbox(
            websocket.send,
            limit=OUTBOX_LIMIT,
            max_bytes=OUTBOX_BYTES,
            on_lagging=self._lagging,
            write_now=direct["write_now"] if direct else None,
            drain=ctx.drain,
        )
        self._bad = 0
        self._bucket = ctx.throttle.bucket()
        self._refused = 0

    def send(self, message: msgspec.Struct) -> None:
        self.outbox.put(self.frames.encode(message))

    async def run(self) -> str | None:
        """Serve the client until it goes; the reason of its disconnect event, if any."""
        try:
            if self.campaign_id is not None:
                await self.ctx.service.facts(self.campaign_id)
        except Exception as error:
            body = _error(error)
            self.send(ErrorMessage(body.code, body.message))
            await self.outbox.drained()
            raise Closed(status.WS_1008_POLICY_VIOLATION, body.message[:120]) from None
        bucket = self._bucket
        while True:
            message = await self.ws.receive()
            if message["type"] == "websocket.disconnect":
                reason: str | None = message.get("reason")
                return reason
            data = frame_data(message)
            if bucket is not None:
                wait = bucket.take()
                if wait:
                    self._limited(data, wait)
                    continue
                self._refused = 0
            await self.handle(data)

    def _limited(self, data: str | bytes, wait: float) -> None:
        """A message over the socket's rate: refused unread, and a flood ends the socket."""
        self._refused += 1
        if self._refused > MAX_REFUSED:
            raise Closed(status.WS_1008_POLICY_VIOLATION, "Too many messages over the limit.")
        text = (
            f"This socket sent more than {self.ctx.throttle.settings.messages_per_second:g} "
            f"messages a second; the next may follow in {wait:.2f} s."
        )
        try:
            decoded = self.frames.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            decoded = None
        after = round(wait, 3)
        if isinstance(decoded, Act):
            self.send(Rejected(decoded.command_id, "rate_limited", text, after))
        else:
            self.send(ErrorMessage("rate_limited", text, after))

    async def handle(self, data: str | bytes) -> None:
        try:
            decoded = self.frames.decode(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            self._bad += 1
            if self._bad >= MAX_BAD_FRAMES:
                raise Closed(
                    status.WS_1008_POLICY_VIOLATION, "Too many unreadable frames in a row."
                ) from None
            self.send(ErrorMessage("bad_request", f"The message could not be read: {error}."))
            return
        self._bad = 0
        match decoded:
            case Act():
                await self.act(decoded)
            case Hello():
                await self.hello(decoded)
            case SyncRequest():
                self.sync()
            case Create():
                await self.create(decoded)

    async def hello(self, hello: Hello) -> None:
        if self.watcher is not None:
            self.send(ErrorMessage("bad_request", "This session has already said hello."))
            return
        try:
            await self._join(hello)
        except Exception as error:
            body = _error(error)
            self.send(ErrorMessage(body.code, body.message))

    async def create(self, asked: Create) -> None:
        """Create a campaign and move this socket to it (see the module's docstring): the
        campaign is stored while its feed is watched, then ``created`` and its welcome go out,
        after anything still queued of the campaign the socket leaves."""
        hub = self.ctx.hub
        try:
            name = _name(asked.name)
            plan = await plan_campaign(self.ctx, self.client, asked.campaign)
            bots = plan.specs
            people = [seat for seat in plan.seats if seat not in bots]
            seat = asked.seat or people[0]
            if seat not in people:
                raise ApiError(
                    "bad_request",
                    f"This socket plays a seat a person plays: one of {', '.join(people)}.",
                )
        except Exception as error:
            body = _error(error)
            self.send(ErrorMessage(body.code, body.message))
            return
        if self.watcher is not None:
            # Nothing more of the campaign it leaves is queued once it is dropped, and what is
            # queued already goes out before ``created``. Its feed is let go of in the
            # background, not on the way to the new welcome.
            hub.drop(self.watcher)
            self.watcher, self.seat = None, None
            await self.outbox.drained()
        campaign_id = self.ctx.service.new_campaign_id()
        self.campaign_id = campaign_id
        logs.campaign_id.set(campaign_id)
        made: list[CreatedOut] = []

        async def creating() -> None:
            made.append(await make_campaign(self.ctx, plan, campaign_id=campaign_id))

        try:
            watcher, head = await hub.join(
                campaign_id,
                seat,
                self.frames,
                self.outbox,
                name=name,
                presence=asked.presence,
                creating=creating(),
            )
        except Exception as error:
            self.campaign_id = None
            body = _error(error)
            self.send(ErrorMessage(body.code, body.message))
            return
        out = made[0]
        created = Created(out.id, out.game, out.seats, out.seed_hash, out.version, seat)
        await self._welcome(watcher, head, seat, None, first=self.frames.encode(created))

    async def _join(self, hello: Hello) -> None:
        if self.campaign_id is None:
            self.send(
                ErrorMessage(
                    "bad_request",
                    "This socket has no campaign yet: send 'create', or open "
                    "/ws/campaigns/{id} to join one.",
                )
            )
            return
        try:
            name = _name(hello.name)
        except ApiError as error:
            self.send(ErrorMessage(error.code, error.message))
            return
        seat = await authenticate(self.ctx, self.client, self.campaign_id, hello.token)
        watcher, head = await self.ctx.hub.join(
            self.campaign_id, seat, self.frames, self.outbox, name=name, presence=hello.presence
        )
        await self._welcome(watcher, head, seat, hello.since)

    async def _welcome(
        self,
        watcher: Watcher,
        head: Head,
        seat: str | None,
        since: int | None,
        *,
        first: Frame | None = None,
    ) -> None:
        """Welcome the socket that joined as ``watcher`` at ``head`` (its outbox held), with
        the events after ``since`` it missed; ``first`` goes out before the welcome."""
        facts = head.facts
        # A delayed campaign's spectator is welcomed behind the table, where it stays.
        delay = delay_of(facts.attrs) if seat is None else None
        try:
            missed: list[SeenEvent] = []
            after = head.version
            if since is not None:
                if not 1 <= since <= head.version:
                    raise ValueError(
                        f"'since' must be a version from 1 to {head.version}, not {since}."
                    )
                if since < head.version:
                    recorded = await self.ctx.service.events(
                        facts.id, since, head.version, MISSED_PAGE
                    )
                    missed = seen_events(head, recorded, seat)
                    after = recorded[-1].version
        except BaseException as error:
            await self.ctx.hub.leave(watcher)
            self.outbox.release()
            if isinstance(error, ValueError):
                self.send(ErrorMessage("bad_request", str(error)))
                return
            raise
        self.seat, self.watcher = seat, watcher
        welcome = Welcome(
            campaign=facts.id,
            game=facts.game.info.name,
            seat=seat,
            seats=list(facts.seats),
            version=head.version,
            view=head.view(seat, keep=False),
            legal_actions=head.choices(seat),
            outcome=head.outcome,
            missed=missed,
            missed_more=after < head.version,
            spectator_delay=delay if head.outcome == "running" else None,
        )
        firsts = () if first is None else (first,)
        if after == head.version:
            self.outbox.release(*firsts, self.frames.encode(welcome))
        else:
            assert first is None  # only a creation sends one, and it has nothing to resume
            await self._resume_in_pages(welcome, head, seat, after)
        self.ctx.hub.announce(facts.id)

    async def _resume_in_pages(
        self, welcome: Welcome, head: Head, seat: str | None, after: int
    ) -> None:
        """A long resume: the rest of the missed events follow page by page, sent from here
        while live updates wait in the held outbox, so a socket holds one page at a time."""
        service = self.ctx.service
        try:
            await self.outbox.settled()
            await self.ws.send(self.frames.encode(welcome))
            while after < head.version:
                recorded = await service.events(head.facts.id, after, head.version, MISSED_PAGE)
                after = recorded[-1].version
                page = Missed(seen_events(head, recorded, seat), after < head.version)
                await self.ws.send(self.frames.encode(page))
        except StoreError as error:
            message = f"The rest of the missed events could not be read: {error}"
            self.outbox.release(self.frames.encode(ErrorMessage(error.code, message)))
            return
        except (OSError, RuntimeError, WebSocketDisconnect):
            pass  # the peer went away mid-resume; the session's reader sees it and ends
        self.outbox.release()

    async def act(self, act: Act) -> None:
        watcher = self.watcher
        if watcher is None:
            self.send(Rejected(act.command_id, "bad_request", "Say hello before acting."))
            return
        # The answer is sent from this task rather than by a pump task of its own.
        self.outbox.defer()
        command = logs.command_id.set(act.command_id)
        try:
            acted = await perform(
                self.ctx,
                watcher.campaign_id,
                self.seat,
                act.action,
                expected_version=act.expected_version,
                command_id=act.command_id,
                origin=Acting(watcher.number, act.command_id),
            )
        except Exception as error:
            body = _error(error)
            self.send(Rejected(act.command_id, body.code, body.message))
        else:
            if acted.duplicate:
                head = self.ctx.service.heads.cached(watcher.campaign_id)
                change = retold(head, acted, self.seat)
                self.send(accepted(act.command_id, change, duplicate=True))
            # Otherwise the fan-out has queued the answer with the update it caused.
        finally:
            await self.outbox.flush()
            logs.command_id.reset(command)

    def _shown(self) -> Head | None:
        """The head this socket sees: a delayed campaign's spectators see it behind the table."""
        if self.watcher is None:
            return None
        return self.ctx.hub.showing(self.watcher)

    def sync(self) -> None:
        head = self._shown()
        if self.watcher is None or head is None:
            self.send(ErrorMessage("bad_request", "Say hello before asking for a sync."))
            return
        self.send(sync_message(head, self.seat))

    async def _lagging(self) -> None:
        head = self._shown()
        if head is not None:
            reason = "This socket fell behind the live updates; here is the latest view."
            self.send(sync_message(head, self.seat, reason))

    async def close(self) -> None:
        if self.watcher is not None:
            await self.ctx.hub.leave(self.watcher)
            self.watcher = None
        await self.outbox.close()


async def admitted(websocket: WebSocket, ctx: Context, frames: Frames) -> bool:
    """Count a new socket against its client's limit; past it, say so and close."""
    if await ctx.throttle.socket_opened(client_of(websocket)):
        return True
    most = ctx.throttle.settings.sockets_per_client
    text = f"This client holds {most} sockets already; close one before opening another."
    await websocket.send(frames.encode(ErrorMessage("rate_limited", text)))
    await websocket.close(status.WS_1013_TRY_AGAIN_LATER, "Too many sockets from this client.")
    return False


@operation(
    "A play session: hello, welcome, actions, live updates.", ServerMessage, request=ClientMessage
)
async def campaign_socket(websocket: WebSocket) -> None:
    await _serve(websocket, websocket.path_params["id"])


@operation(
    "A play session that starts by creating its campaign (create, created, welcome, ...).",
    ServerMessage,
    request=ClientMessage,
)
async def play_socket(websocket: WebSocket) -> None:
    await _serve(websocket, None)


async def _serve(websocket: WebSocket, campaign_id: str | None) -> None:
    ctx = context(websocket)
    frames, subprotocol = frames_for(list(websocket.scope.get("subprotocols", [])))
    await websocket.accept(subprotocol=subprotocol)
    if not await admitted(websocket, ctx, frames):
        return
    session = Session(websocket, ctx, campaign_id, frames)
    # The session's own task: whatever it logs, it logs for its campaign.
    logs.campaign_id.set(campaign_id)
    ctx.metrics.sockets.inc()
    try:
        reason = await session.run()
        if reason in (STALLED, MISSED_PONG):
            ctx.metrics.sockets_dropped.labels(reason).inc()
    except Closed as closed:
        await session.outbox.drained()
        await websocket.close(closed.code, closed.reason)
    except OSError:
        pass  # the peer went away mid-send
    finally:
        ctx.metrics.sockets.dec()
        await session.close()
        await ctx.throttle.socket_closed(session.client)
