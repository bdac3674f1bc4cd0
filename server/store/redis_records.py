"""How the Redis store writes campaign facts and events down, and reads them back.

A campaign's meta hash holds game, head, created_ms, updated_ms, parent, fork_version, listed
(``1`` or ``0``) and one ``attr:<name>`` field per attribute; its stream's entry
``"<version>-0"`` holds the payload in field ``e``; its commands hash maps a command id to
``"first:last"``.
"""

from __future__ import annotations

from server.store.base import CampaignInfo, StoredEvent, listed_by_default

Fields = dict[bytes, bytes]
Entries = list[tuple[bytes, Fields]]

_ATTR = b"attr:"


def parse_info(campaign_id: str, fields: Fields) -> CampaignInfo:
    """A meta hash as read by ``HGETALL``."""
    parent = fields.get(b"parent")
    attrs = {
        name[len(_ATTR) :].decode(): value.decode()
        for name, value in fields.items()
        if name.startswith(_ATTR)
    }
    return CampaignInfo(
        id=campaign_id,
        game=fields[b"game"].decode(),
        head=int(fields[b"head"]),
        created_ms=int(fields[b"created_ms"]),
        updated_ms=int(fields[b"updated_ms"]),
        parent=None if parent is None else parent.decode(),
        fork_version=int(fields.get(b"fork_version", 0)),
        attrs=attrs,
        listed=is_listed(fields.get(b"listed"), attrs),
    )


def is_listed(listed: bytes | None, attrs: dict[str, str]) -> bool:
    """A meta hash's ``listed`` field; a hash written before it was kept has none, and reads as
    listed unless the campaign is private (:func:`~server.store.base.listed_by_default`)."""
    return listed_by_default(attrs) if listed is None else listed == b"1"


def attr_fields(attrs: dict[str, str]) -> list[str]:
    """The meta hash's field/value words for ``attrs``."""
    return [part for name, value in attrs.items() for part in (f"attr:{name}", value)]


def stored_events(entries: Entries) -> list[StoredEvent]:
    """Stream entries as stored events."""
    # The hot loop of every replay: entry id "<version>-0" gives the version directly.
    return [
        StoredEvent(int(entry_id.split(b"-", 1)[0]), fields[b"e"]) for entry_id, fields in entries
    ]


def parse_range(text: bytes) -> tuple[int, int]:
    """A commands hash value, ``first:last``."""
    first, last = text.split(b":")
    return int(first), int(last)
