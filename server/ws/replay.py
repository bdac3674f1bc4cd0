"""The replay socket ``/ws/campaigns/{id}/replay?from=N&speed=X``.

After the client's ``hello`` (a seat token or none), the server sends ``welcome`` at version
``from`` (default 1), then one ``event`` per later version up to the head at that moment, ``speed``
events per second (0: as fast as the socket takes them), then ``end`` and a normal close.
"""

from __future__ import annotations

import asyncio
import math

import msgspec
from starlette import status
from starlette.websockets import WebSocket, WebSocketDisconnect

from projections.views import seat_view
from server.auth import seat_for
from server.errors import ErrorBody, classify
from server.fanout import advance as advance_state
from server.fanout import event_message
from server.http.context import context
from server.messages import ErrorMessage, Hello, ReplayEnd, Welcome
from server.ws.frames import frames_for
from server.ws.session import frame_data


def _float(raw: str | None, default: float) -> float:
    try:
        value = default if raw is None else float(raw)
    except ValueError:
        return -1.0
    return value if math.isfinite(value) else -1.0


async def replay_socket(websocket: WebSocket) -> None:
    ctx = context(websocket)
    frames, subprotocol = frames_for(list(websocket.scope.get("subprotocols", [])))
    await websocket.accept(subprotocol=subprotocol)
    cid: str = websocket.path_params["id"]
    service = ctx.service

    async def fail(body: ErrorBody) -> None:
        await websocket.send(frames.encode(ErrorMessage(body.code, body.message)))
        await websocket.close(status.WS_1008_POLICY_VIOLATION, body.message[:120])

    start = _float(websocket.query_params.get("from"), 1.0)
    speed = _float(websocket.query_params.get("speed"), 10.0)
    if start < 1 or start != int(start) or speed < 0:
        await fail(ErrorBody("bad_request", "'from' is a version from 1, 'speed' at least 0."))
        return
    try:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        hello = frames.decode(frame_data(message))
        if not isinstance(hello, Hello):
            await fail(ErrorBody("bad_request", "A replay starts with 'hello'."))
            return
        info = await service.store.info(cid)
        seat = seat_for(info.attrs, hello.token)
        game = await service.game_of(cid)
        version, state = await service.state_at(cid, min(int(start), info.head))
        head = info.head
        await websocket.send(
            frames.encode(
                Welcome(
                    cid,
                    game.name,
                    seat,
                    list(await service.seats_of(cid)),
                    version,
                    seat_view(game, state, seat),
                    [],
                    game.outcome(state),
                )
            )
        )
        pause = 0.0 if speed == 0 else 1.0 / speed
        for recorded in await service.events(cid, version, head):
            if pause:
                await asyncio.sleep(pause)  # the replay's pace is the point here
            state = await advance_state(service, cid, game, state, recorded)
            step = event_message(game, recorded, state, seat)
            await websocket.send(frames.encode(msgspec.structs.replace(step, legal_actions=[])))
        await websocket.send(frames.encode(ReplayEnd(head)))
        await websocket.close(status.WS_1000_NORMAL_CLOSURE)
    except WebSocketDisconnect:
        return
    except Exception as error:
        body = classify(error)
        if body is None:
            raise
        await fail(body)
