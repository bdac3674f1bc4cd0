"""The export file: one campaign as JSON Lines that stand alone (``docs/export.md``).

Every line is a JSON object whose ``kind`` comes first and whose ``sum`` comes last: ``sum`` is
the BLAKE2b-128 of the line's bytes before ``,"sum":"``, so a changed byte is found in the line
it changed, and an event's damage is named by its version. The lines, in order: a ``header``
(the format's name and version, whether the file is complete or partial), the ``campaign``, one
``event`` per version from 1 to the head (a fork's parents' prefix included), and the ``end``,
which counts the lines and events before it and carries the BLAKE2b-256 of every byte before it:
a file without it was cut short.
"""

from __future__ import annotations

import re
from hashlib import blake2b
from typing import Any, Generic, TypeVar

import msgspec

FORMAT = "tabletale-export"
FORMAT_VERSION = 1
COMPLETE = "complete"
PARTIAL = "partial"
RAW = "raw"
"""Every event as stored, with its stored state hash, written by a server that does not play
the campaign's ruleset: nothing in it was verified by replay when it was written."""
UNKNOWN_OUTCOME = "unknown"
"""A raw file's outcome: only the rules the campaign was recorded under could tell it."""
MEDIA_TYPE = "application/jsonl"

E = TypeVar("E")


class Header(msgspec.Struct, frozen=True, tag="header", tag_field="kind"):
    format: str
    version: int
    scope: str
    """``complete`` (restorable), ``partial`` (taken for ``seat`` while the campaign ran) or
    ``raw`` (as stored, by a server that does not play its ruleset: not verified by replay)."""
    taken_ms: int
    seat: str | None = None


class Segment(msgspec.Struct, frozen=True):
    """Versions ``first..last`` of the history were recorded by ``campaign``."""

    campaign: str
    first: int
    last: int


class CampaignLine(msgspec.Struct, frozen=True, tag="campaign", tag_field="kind"):
    id: str
    game: str
    ruleset: str
    seats: tuple[str, ...]
    outcome: str
    head: int
    created_ms: int
    updated_ms: int
    listed: bool
    attrs: dict[str, str]
    parent: str | None = None
    fork_version: int = 0
    own_from: int = 1
    """The first version the campaign recorded itself (``fork_version + 1``)."""
    lineage: tuple[Segment, ...] = ()


class EventLine(msgspec.Struct, Generic[E], frozen=True, tag="event", tag_field="kind"):
    version: int
    event: E
    hash: str | None
    """The state hash after this event; None in a partial file."""
    seat: str | None = None
    command: str | None = None
    at_ms: int = 0
    settled: bool = True
    action: str | None = None
    """The id of the seat's action that caused the event (left out of a partial file for the
    other seats' events); absent from files written before the store kept it."""


class EndLine(msgspec.Struct, frozen=True, tag="end", tag_field="kind"):
    lines: int
    events: int
    digest: str


Line = Header | CampaignLine | EventLine[msgspec.Raw] | EndLine

_SUM_MARK = b',"sum":"'
_SUM_TAIL = re.compile(rb',"sum":"([0-9a-f]{32})"\}\n\Z')
_encoder = msgspec.json.Encoder()
_lines = msgspec.json.Decoder(Line)


def line_sum(body: bytes) -> str:
    return blake2b(body, digest_size=16).hexdigest()


def new_digest() -> Any:
    """The running digest of a file's lines before its end line."""
    return blake2b(digest_size=32)


def encode_line(line: Any) -> bytes:
    """``line`` (a Struct of this module) as one line of the file, its sum last, with its
    newline."""
    body = _encoder.encode(line)[:-1]  # without its closing brace
    return body + _SUM_MARK + line_sum(body).encode() + b'"}\n'


def summed(raw: bytes) -> bool:
    """Whether ``raw`` (a line with its newline) ends in the sum of what comes before it."""
    found = _SUM_TAIL.search(raw)
    if found is None:
        return False
    return line_sum(raw[: found.start()]) == found.group(1).decode()


def decode_line(raw: bytes) -> Line:
    """A summed line's contents; raises msgspec errors for a line that is not one of the kinds."""
    return _lines.decode(raw)
