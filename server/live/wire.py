"""Frames written straight to a socket: framed once, shared by every socket that sends them.

A frame fanned out to thousands of spectators would otherwise be framed again for each of them by
the socket library, each time behind a task and an ASGI call. Two pieces avoid that:

- :func:`wire`: a frame's bytes as RFC 6455 (section 5.2) puts them on the wire from a server:
  FIN and the opcode in one byte, the payload's length in 1, 3 or 9 bytes (unmasked), then the
  payload. With no extension negotiated (compression is off by default) every socket sends the
  same bytes for the same message, so they are built once and kept in the frame itself.
- :data:`WRITE_NOW`: the name of the ASGI extension by which the server's socket protocol
  (:mod:`server.ws.socket_protocol`) offers a ``write_now(frame) -> bool`` callable: it writes the
  frame at once when the socket can take it without waiting, and says False otherwise (not open,
  or its writing paused behind a slow reader), when the frame goes the ordinary way.
"""

from __future__ import annotations

import struct
from typing import Any

WRITE_NOW = "tabletale.write_now"
"""The ASGI scope extension: ``scope["extensions"][WRITE_NOW]["write_now"]``."""

TEXT = 0x1
BINARY = 0x2
_FIN = 0x80
_WIRE = "tabletale.wire"
"""Where a frame keeps its framed bytes once built."""


def header(opcode: int, length: int) -> bytes:
    """An unmasked final frame's header for a payload of ``length`` bytes."""
    if length < 126:
        return struct.pack("!BB", _FIN | opcode, length)
    if length < 1 << 16:
        return struct.pack("!BBH", _FIN | opcode, 126, length)
    return struct.pack("!BBQ", _FIN | opcode, 127, length)


def wire(frame: dict[str, Any]) -> bytes:
    """The bytes of an ASGI ``websocket.send`` event on a socket with no extension."""
    framed: bytes | None = frame.get(_WIRE)
    if framed is None:
        text: str | None = frame.get("text")
        if text is not None:
            payload = text.encode()
            framed = header(TEXT, len(payload)) + payload
        else:
            data: bytes = frame["bytes"]
            framed = header(BINARY, len(data)) + data
        frame[_WIRE] = framed
    return framed
