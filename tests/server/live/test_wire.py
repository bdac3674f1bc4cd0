"""A frame framed once for every socket is the frame the socket library would have sent."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from server.app import create_app
from server.campaigns.service import CampaignService
from server.live.wire import wire
from server.settings import Settings
from server.store.memory import MemoryStore
from server.ws.socket_protocol import GivingUpSocket
from tests.server.conftest import Reproducible, running, socket_to

# Around the two length boundaries of RFC 6455's header (126 and 65,536 bytes) and well past them.
LENGTHS = st.one_of(
    st.integers(0, 300), st.integers(65_400, 65_700), st.sampled_from([125, 126, 65_535, 65_536])
)


@given(st.text(max_size=200), LENGTHS)
def test_a_text_frame_is_what_the_socket_library_frames(text: str, padding: int) -> None:
    message = text + "x" * padding
    framed = wire({"type": "websocket.send", "text": message})
    assert framed == Frame(Opcode.TEXT, message.encode()).serialize(mask=False)


@given(st.binary(max_size=200), LENGTHS)
def test_a_binary_frame_is_what_the_socket_library_frames(data: bytes, padding: int) -> None:
    payload = data + b"\0" * padding
    framed = wire({"type": "websocket.send", "bytes": payload})
    assert framed == Frame(Opcode.BINARY, payload).serialize(mask=False)


def test_a_shared_frame_is_framed_once() -> None:
    frame = {"type": "websocket.send", "text": "update"}
    first = wire(frame)
    assert wire(frame) is first


@pytest.mark.parametrize("compression", [False, True], ids=["plain", "compressed"])
async def test_spectators_get_every_update_written_straight_to_their_sockets(
    compression: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through a real socket: frames written at once (shared bytes without an extension, the
    socket library's own framing with compression) arrive whole, in order, to every spectator."""
    written: list[int] = []
    original = GivingUpSocket.write_now

    def counting(self: GivingUpSocket, frame: dict[str, Any]) -> bool:
        took = original(self, frame)
        written.append(int(took))
        return took

    monkeypatch.setattr(GivingUpSocket, "write_now", counting)
    app = create_app(CampaignService(MemoryStore(), fresh=Reproducible()), web_root=None)
    with running(app, Settings(ws_compression=compression)) as live:
        async with httpx.AsyncClient(base_url=live.http) as api:
            reply = await api.post(
                "/api/campaigns", json={"game": "dice-race", "options": {"target": 500}}
            )
            created = reply.json()
        async with (
            socket_to(live, created["id"]) as player,
            socket_to(live, created["id"]) as first,
            socket_to(live, created["id"]) as second,
        ):
            negotiated = [s.connection.protocol.extensions for s in (player, first, second)]
            assert all(bool(extensions) == compression for extensions in negotiated)
            await player.hello(created["seats"]["player"])
            await first.hello()
            await second.hello()
            version = created["version"]
            for n in range(5):
                action = player.replica.legal_actions[0]["id"]
                answer = await player.act(action, version, f"c{n}")
                assert answer["type"] == "accepted"
                version = answer["version"]
                for spectator in (first, second):
                    (update,) = await spectator.updates_until(version)
                    # As the player saw them, save the action's id (the player's alone).
                    unnamed = [{**e, "action": None} for e in answer["events"]]
                    assert update["events"] == unnamed
            assert first.replica.view == second.replica.view
    assert sum(written) >= 15  # five answers and ten updates, at least, went straight out
