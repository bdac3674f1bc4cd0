"""The replay socket ``/ws/campaigns/{id}/replay?from=N&speed=X``.

After the client's ``hello`` (a seat token or none), the server sends ``welcome`` at version
``from`` (default 1; past what the viewer may see, at its head or delayed version, saying so in
``asked_from``), then one ``update`` per later version up to the head at that moment (its
event and the patch from the previous view), ``speed`` updates per second (0: as fast as the socket
takes them), then ``end`` and a normal close.
"""

from __future__ import annotations

import asyncio

import msgspec
from starlette import status
from starlette.websockets import WebSocket, WebSocketDisconnect

from domain.core.engine import waits
from projections.log import seen
from projections.patch import diff
from projections.views import seat_view
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
        view = seat_view(game, state, seat)
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
        # A page of events at a time: a replay of a long campaign holds one page, not the
        # whole stream and every state along it.
        async for steps in service.heads.walk(cid, version, head.version, state):
            for recorded, after in steps:
                if pause:
                    await asyncio.sleep(pause)  # the replay's pace is the point here
                outcome = game.outcome(after)
                ended = outcome != "running"
                event = seen(game, recorded, seat, ended=ended, own_from=head.facts.own_from)
                new_view = seat_view(game, after, seat)
                update = Update(
                    recorded.version,
                    recorded.version,
                    [event],
                    diff(view, new_view),
                    [],
                    outcome,
                    # the definition of a decision point, from the fold the replay makes anyway
                    decision_point=recorded.version >= facts.origin
                    and recorded.settled
                    and waits(game, after),
                )
                view = new_view
                await websocket.send(frames.encode(update))
        await websocket.send(frames.encode(ReplayEnd(head.version)))
        await websocket.close(status.WS_1000_NORMAL_CLOSURE)
    except WebSocketDisconnect:
        return
    except Exception as error:
        body = classify(error)
        if body is None:
            raise
        await fail(body)
