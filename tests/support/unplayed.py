"""Campaigns this server cannot play, written through the store API as another server would
have written them: a ``campaign/created`` naming a ruleset it does not implement (newer,
retired), or a game it does not have, and a few events after it."""

from __future__ import annotations

from typing import Any

import msgspec

from server.store.base import CampaignInfo
from server.store.contract import EventStore

NEWER = ("gil-ennis", "gil-ennis/99+content.9")
"""A ruleset of an installed game that this server does not implement."""
ABSENT = ("lantern-keep", "lantern-keep/1")
"""A game this server does not have."""


def payload(event: dict[str, Any], *, hash: str, seat: str | None = None, at_ms: int = 0) -> bytes:
    """A stored envelope (``server.campaigns.codec.Envelope``, as MessagePack)."""
    return msgspec.msgpack.encode([event, hash, seat, None, at_ms, True])


def stream(game: str, ruleset: str, *, moves: int = 3, rewind_to: int | None = None) -> list[bytes]:
    """Its creation, ``moves`` events by the seats in turn, and a rewind to ``rewind_to``."""
    created = {
        "type": "campaign/created",
        "game": game,
        "ruleset": ruleset,
        "seed": 2**63 + 7,
        "salt": "s" * 16,
        "seats": ["gil", "ennis"],
        "options": {},
    }
    events = [payload(created, hash="0" * 32, at_ms=1_000)]
    for move in range(moves):
        seat = ("gil", "ennis")[move % 2]
        event = {"type": f"{game}/moved", "to": move, "hidden_card": f"card-{move}"}
        events.append(payload(event, hash=f"{move + 1:032x}", seat=seat, at_ms=2_000 + move))
    if rewind_to is not None:
        rewound = {"type": "campaign/rewound", "to": rewind_to}
        events.append(payload(rewound, hash=f"{rewind_to:032x}", seat="gil", at_ms=3_000))
    return events


async def store_unplayed(
    store: EventStore,
    campaign_id: str,
    game: str,
    ruleset: str,
    *,
    moves: int = 3,
    rewind_to: int | None = None,
    attrs: dict[str, str] | None = None,
    listed: bool = True,
) -> CampaignInfo:
    """Store a campaign of ``game`` by ``ruleset`` with ``moves`` events after its creation."""
    return await store.create(
        campaign_id,
        game,
        now_ms=5_000,
        attrs=attrs or {"seed_hash": "c" * 32},
        events=stream(game, ruleset, moves=moves, rewind_to=rewind_to),
        listed=listed,
    )
