"""The socket whose action made a change, as the change travels to the repository's listeners.

A socket's action goes down through the service and the repository with an :class:`Acting`; the
fan-out (:mod:`server.live.hub`) finds that socket among the change's watchers by its number and
sends it the change as its ``accepted`` answer. Changes read from the store or the feed, and those
made over HTTP or by a bot, carry none.
"""

from __future__ import annotations

import itertools
from typing import Final

_numbers = itertools.count(1)


def socket_number() -> int:
    """A number no other socket of this process has (given once per watching socket)."""
    return next(_numbers)


class Acting:
    """The acting socket's number (:func:`socket_number`) and the id of the command it sent."""

    __slots__ = ("command_id", "socket")

    def __init__(self, socket: int, command_id: str) -> None:
        self.socket: Final = socket
        self.command_id: Final = command_id

    def __repr__(self) -> str:
        return f"Acting(socket={self.socket}, command_id={self.command_id!r})"
