"""Whether a reducer left the state it was given as it was.

States are frozen Structs, but a field may still hold something mutable (a list, a dict, a plain
object): a ``play`` or ``evolve`` that appends to it changes the state before it, which the
server keeps cached and forks from. Each field is encoded before the call and compared after it,
so the report names the fields that moved.
"""

from __future__ import annotations

from typing import Any

import msgspec

_encoder = msgspec.msgpack.Encoder()


def fields_of(state: Any) -> dict[str, bytes]:
    """Each field of ``state`` as MessagePack (a field that cannot be encoded is left out: the
    snapshot promise names it)."""
    if not isinstance(state, msgspec.Struct):
        return {}
    encoded: dict[str, bytes] = {}
    for name in state.__struct_fields__:
        try:
            encoded[name] = _encoder.encode(getattr(state, name))
        except (TypeError, ValueError, OverflowError):
            continue
    return encoded


def changed_fields(state: Any, before: dict[str, bytes]) -> list[str]:
    """The fields of ``state`` whose encoding is no longer what ``before`` holds."""
    now = fields_of(state)
    return [name for name, encoded in before.items() if now.get(name) != encoded]
