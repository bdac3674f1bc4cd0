"""Paging a family's branches: the opaque cursor a page's ``next`` holds."""

from __future__ import annotations

import base64
import binascii

import msgspec

from server.errors import ApiError
from server.lineage.family import Seen
from server.lineage.tree import Node


class Cursor(msgspec.Struct, frozen=True, array_like=True):
    root: str
    """The family's root: a cursor serves that family only."""
    last: str
    """The id of the last branch handed out."""
    index: int
    """Its place in the order then: where to go on should that branch no longer be there."""


_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(Cursor).decode
_REFUSED = "The cursor is not one this server handed out."


def page(
    seen: Seen, cursor: Cursor | None, limit: int
) -> tuple[list[tuple[Node, bool]], str | None]:
    """The branches after ``cursor`` (None: from the first), at most ``limit``, and the cursor
    of the next page (None: this is the last)."""
    start = 0
    if cursor is not None:
        if cursor.root != seen.root:
            raise ApiError("bad_request", "The cursor belongs to another family of campaigns.")
        ids = [node.id for node, _ in seen.branches]
        start = ids.index(cursor.last) + 1 if cursor.last in ids else cursor.index + 1
    chosen = seen.branches[start : start + limit]
    if start + limit >= len(seen.branches):
        return chosen, None
    token = _encode(Cursor(seen.root, chosen[-1][0].id, start + len(chosen) - 1))
    return chosen, base64.urlsafe_b64encode(token).decode().rstrip("=")


def read_cursor(text: str) -> Cursor:
    """The cursor a page's ``next`` holds; raises a ``bad_request`` ApiError for any other."""
    try:
        cursor = _decode(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    except (binascii.Error, ValueError, msgspec.DecodeError):
        raise ApiError("bad_request", _REFUSED) from None
    if cursor.index < 0:
        raise ApiError("bad_request", _REFUSED)
    return cursor
