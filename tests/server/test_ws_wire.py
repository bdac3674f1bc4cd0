"""A frame framed once for every socket is the frame the socket library would have sent."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from websockets.frames import Frame, Opcode

from server.ws.wire import wire

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
