"""The replay socket ``/ws/campaigns/{id}/replay?from=N&speed=X``.

After the client's ``hello`` (a seat token or none), the server sends ``welcome`` at version
``from`` (default 1; past what the viewer may see, at its head or delayed version, saying so in
``asked_from``), then one ``update`` per later version up to the head at that moment (its
event and the patch from the previous view), ``speed`` updates per second (0: as fast as the socket
takes them), then ``end`` and a normal close.

A version whose view the game fails to render (a fault in its rules code) is answered with an
``error`` frame, ``view_unavailable``, and the replay goes on: the next update carries that
version's event too, with the patch from the last view sent. Without a first view to patch from,
the replay cannot begin: ``error``, then close 1011.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import msgspec
from starlette import status
from starlette.websockets import WebSocket, WebSocketDisconnect

from domain.core.engine import waits
from domain.core.game import Game
from projections.log import SeenEvent, seen
from projections.patch import diff
from projections.views import ViewUnavailable, view_at
from server.campaigns.codec import Recorded
from server.campaigns.delay import delay_of
from server.context import Context, authenticate, context
from server.errors import ErrorBody, classify
from server.live.frames import Frames, frames_for
from server.ops import logs
from server.protocol.messages import (
    ClientMessage,
    ErrorMessage,
    Hello,
    ReplayEnd,
    ReplayQuery,
    ServerMessage,
    Speed,
    Update,
    Version,
    Welcome,
)
from server.protocol.openapi import operation
from server.throttle import client_of
from server.ws.session import admitted, frame_data

log = logging.getLogger("tabletale.ws")


@operation(
    "A campaign replayed version by version.",
    ServerMessage,
    request=ClientMessage,
    query={"from": Version, "speed": Speed},
)
async def replay_socket(websocket: WebSocket) -> None:
    ctx = context(websocket)
    frames, subprotocol = frames_for(list(websocket.scope.get("subprotocols", [])))
    await websocket.accept(subprotocol=subprotocol)
    if not await admitted(websocket, ctx, frames):
        return
    try:
        await _replay(websocket, ctx, frames)
    finally:
        await ctx.throttle.socket_closed(client_of(websocket))


async def _replay(websocket: WebSocket, ctx: Context, frames: Frames) -> None:
    cid: str = websocket.path_params["id"]
    logs.campaign_id.set(cid)  # for whatever this socket's task logs
    service = ctx.service

    async def fail(body: ErrorBody) -> None:
        await websocket.send(frames.encode(ErrorMessage(body.code, body.message)))
        await websocket.close(status.WS_1008_POLICY_VIOLATION, body.message[:120])

    async def unrendered(error: ViewUnavailable) -> None:
        log.error("%s", error, exc_info=error.__cause__)
        await websocket.send(frames.encode(ErrorMessage(error.code, str(error))))

    try:
        asked = msgspec.convert(dict(websocket.query_params), ReplayQuery, strict=False)
    except msgspec.ValidationError as error:
        await fail(ErrorBody("bad_request", f"A query parameter is not valid: {error}."))
        return
    start, speed = asked.start, asked.speed
    try:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        hello = frames.decode(frame_data(message))
        if not isinstance(hello, Hello):
            await fail(ErrorBody("bad_request", "A replay starts with 'hello'."))
            return
        seat = await authenticate(ctx, client_of(websocket), cid, hello.token)
        # A delayed campaign's spectator replays it up to the version it may see.
        live = await service.head(cid)
        head = await ctx.spectators.head_for(live, seat)
        facts = head.facts
        game = facts.game
        version = min(start, head.version)
        state = await service.heads.state_at(cid, version)
        try:
            view = view_at(game, state, seat, version)
        except ViewUnavailable as error:
            await unrendered(error)
            await websocket.close(status.WS_1011_INTERNAL_ERROR, str(error)[:120])
            return
        welcome = Welcome(
            cid,
            game.info.name,
            seat,
            list(facts.seats),
            version,
            view,
            [],
            game.outcome(state),
            decision_point=await service.decision_points.contains(head, version),
            spectator_delay=None if head is live else delay_of(facts.attrs),
            asked_from=start if start > version else None,
        )
        await websocket.send(frames.encode(welcome))
        pause = 0.0 if speed == 0 else 1.0 / speed
        held: list[SeenEvent] = []  # the events of versions whose view could not be rendered
        # A page of events at a time: a replay of a long campaign holds one page, not the
        # whole stream and every state along it.
        async for steps in service.heads.walk(cid, version, head.version, state):
            for recorded, after in steps:
                if pause:
                    await asyncio.sleep(pause)  # the replay's pace is the point here
                outcome = game.outcome(after)
                ended = outcome != "running"
                held.append(seen(game, recorded, seat, ended=ended, own_from=head.facts.own_from))
                try:
                    new_view, point = _shown(game, recorded, after, seat, facts.origin)
                except ViewUnavailable as error:
                    await unrendered(error)
                    continue
                update = Update(
                    held[0].version,
                    recorded.version,
                    held,
                    diff(view, new_view),
                    [],
                    outcome,
                    decision_point=point,
                )
                view, held = new_view, []
                await websocket.send(frames.encode(update))
        await websocket.send(frames.encode(ReplayEnd(head.version)))
        await websocket.close(status.WS_1000_NORMAL_CLOSURE)
    except WebSocketDisconnect:
        return
    except Exception as error:
        body = classify(error)
        if body is not None:
            await fail(body)
            return
        # A fault here: the client is told and the socket closed, not left to die unclosed.
        log.exception("The replay of campaign %s failed.", cid)
        await websocket.send(frames.encode(ErrorMessage("internal", "The replay failed.")))
        await websocket.close(status.WS_1011_INTERNAL_ERROR, "The replay failed.")


def _shown(
    game: Game, recorded: Recorded[Any], state: Any, seat: str | None, origin: int
) -> tuple[Any, bool]:
    """The view of ``state`` and whether its version is a decision point (the definition, from
    the fold the replay makes anyway), or :class:`ViewUnavailable`."""
    view = view_at(game, state, seat, recorded.version)
    try:
        return view, recorded.version >= origin and recorded.settled and waits(game, state)
    except Exception as error:  # the listing of legal actions failed: the turn cannot be told
        raise ViewUnavailable(recorded.version, seat) from error
