"""A campaign read as stored, without its game's rules: for one whose ruleset this server does
not play (:mod:`server.campaigns.played`).

Its events are plain data, each as its envelope holds it (the event a dict with its ``type``
first, the state hash, the seat, the command, the time); nothing is replayed, so no state, view
or legal action is known, and the timeline's lines name each event by its type instead of the
game's words. A check (:func:`check_stored`) says what reading alone can: every version from 1
to the head is there, in order, and decodes; not that the states hash as stored.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.core.events import CampaignCreated, Reseeded, Rewound
from projections.catalog import StoredRuleset
from projections.log import SeenEvent, acted_by
from projections.timeline import Line, MoveCount
from server.campaigns.codec import Recorded
from server.campaigns.played import plain_envelope
from server.store.base import StoredEvent
from server.store.contract import EventStore

PAGE = 1_000
"""Events read at a time."""

_SECRET = ("seed", "salt")
_CREATED = CampaignCreated.__struct_config__.tag
_RESEEDED = Reseeded.__struct_config__.tag
_REWOUND = Rewound.__struct_config__.tag


class StoredCheck(msgspec.Struct, frozen=True):
    """What reading a campaign's stream as stored found."""

    events: int
    problem: str | None = None
    """The first thing wrong, in a sentence (None: every version is there and decodes)."""


def recorded_of(stored: StoredEvent) -> Recorded[Any]:
    """A stored event with its event as plain data."""
    env = plain_envelope(stored.data)
    return Recorded(
        stored.version, env.event, env.hash, env.seat, env.command, env.at_ms, env.settled
    )


def rewind_of(recorded: Recorded[Any]) -> Recorded[Any]:
    """``recorded`` (plain data) with a stored rewind as the core event :class:`Rewound`, which
    every game shares: what reading a stream's rewinds needs, whatever its game."""
    event = recorded.event
    if (
        isinstance(event, dict)
        and event.get("type") == _REWOUND
        and isinstance(event.get("to"), int)
    ):
        return msgspec.structs.replace(recorded, event=Rewound(event["to"]))
    return recorded


async def read_stored(
    store: EventStore, campaign_id: str, after: int = 0, until: int | None = None, limit: int = PAGE
) -> list[Recorded[Any]]:
    """Events ``after < version <= until`` as stored, as plain data, oldest first."""
    return [recorded_of(e) for e in await store.read(campaign_id, after, until, limit)]


def seen_stored(recorded: Recorded[Any], *, whole: bool) -> SeenEvent:
    """A stored event as a reader gets it: ``whole`` (a seat's holder) as stored, seeds and
    hidden cards included; else its type alone, which shows nothing a seat may not see (the
    seat that caused it and when are public)."""
    event = recorded.event
    data: Any = {"type": _type_of(event)}
    if whole:
        data = dict(event) if isinstance(event, dict) else event
        if isinstance(data, dict) and data.get("type") in (_CREATED, _RESEEDED):
            for key in _SECRET:
                if isinstance(data.get(key), int):
                    data[key] = str(data[key])  # past what a JavaScript number holds exactly
    return SeenEvent(recorded.version, data, recorded.seat, recorded.at_ms, acted_by(recorded))


def _type_of(event: Any) -> str:
    if isinstance(event, dict) and isinstance(event.get("type"), str):
        return str(event["type"])
    return "unknown"


def stored_lines(
    ruleset: StoredRuleset, recorded: list[Recorded[Any]], moves: MoveCount
) -> list[Line]:
    """The timeline's lines of ``recorded`` (the next events of the stream, ``moves`` counting
    them), built without the game's rules: each says what kind of event is stored."""
    lines: list[Line] = []
    for each in recorded:
        kind = _type_of(each.event)
        counted = rewind_of(each)
        rewound_to = counted.event.to if isinstance(counted.event, Rewound) else None
        move = moves.see(counted)  # it reads the seat, the settling and a rewind's target
        if kind == _CREATED:
            text = (
                f"A campaign of {ruleset.game} began under the ruleset {ruleset.ruleset!r}, "
                "which this server does not play: these lines name each stored event by its "
                "kind, without the game's own words."
            )
        elif rewound_to is not None:
            text = f"The campaign was rewound to version {rewound_to}."
        else:
            by = "" if each.seat is None else f", by seat {each.seat}"
            text = f"Stored event {kind}{by}."
        lines.append(Line(each.version, text, each.at_ms, rewound_to, acted_by(each), move))
    return lines


async def check_stored(store: EventStore, campaign_id: str, head: int) -> StoredCheck:
    """Read every event of the campaign as stored: each version from 1 to ``head`` must be
    there, in order, and decode as an envelope."""
    after = 0
    while after < head:
        page = await store.read(campaign_id, after, head, PAGE)
        if not page:
            return StoredCheck(after, f"versions {after + 1} to {head} are missing")
        for stored in page:
            if stored.version != after + 1:
                return StoredCheck(after, f"version {after + 1} is missing")
            try:
                plain_envelope(stored.data)
            except (msgspec.DecodeError, msgspec.ValidationError) as error:
                return StoredCheck(after, f"version {stored.version} does not decode: {error}")
            after = stored.version
    return StoredCheck(after)
