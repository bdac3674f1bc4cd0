"""Frame formats: JSON text frames by default, MessagePack binary frames on request.

A client asks for MessagePack by offering the subprotocol ``tabletale.msgpack``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from server.protocol.messages import ClientMessage

MSGPACK = "tabletale.msgpack"
MAX_FRAME = 64 * 1024


class Frames:
    def __init__(self, *, binary: bool) -> None:
        self.binary = binary
        if binary:
            self._encode: Any = msgspec.msgpack.Encoder().encode
            self._decode: Any = msgspec.msgpack.Decoder(ClientMessage).decode
        else:
            self._encode = msgspec.json.Encoder().encode
            self._decode = msgspec.json.Decoder(ClientMessage).decode

    def encode(self, message: msgspec.Struct) -> dict[str, Any]:
        """The ASGI send event for ``message``."""
        data: bytes = self._encode(message)
        if self.binary:
            return {"type": "websocket.send", "bytes": data}
        return {"type": "websocket.send", "text": data.decode()}

    def decode(self, data: str | bytes) -> ClientMessage:
        """Raises msgspec.DecodeError (malformed, or a frame of the other kind: text on a
        MessagePack socket, binary on a JSON one) or msgspec.ValidationError (wrong shape)."""
        if isinstance(data, str) == self.binary:
            raise msgspec.DecodeError(
                "This socket speaks MessagePack in binary frames; a text frame cannot be read."
                if self.binary
                else "This socket speaks JSON in text frames; a binary frame cannot be read."
            )
        message: ClientMessage = self._decode(data)
        return message


JSON_FRAMES = Frames(binary=False)
MSGPACK_FRAMES = Frames(binary=True)


def frames_for(offered: list[str]) -> tuple[Frames, str | None]:
    """The frame format and the subprotocol to accept, from the client's offer."""
    if MSGPACK in offered:
        return MSGPACK_FRAMES, MSGPACK
    return JSON_FRAMES, None
