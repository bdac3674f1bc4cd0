"""A campaign as an older server wrote it: its ``campaign/created`` names another ruleset."""

from __future__ import annotations

import msgspec

from server.store.memory import MemoryStore


def retire(store: MemoryStore, campaign_id: str, ruleset: str) -> None:
    """Rewrite the stored first event of ``campaign_id`` to name ``ruleset``."""
    events = store._campaigns[campaign_id].events
    envelope = msgspec.msgpack.decode(events[0])
    envelope[0]["ruleset"] = ruleset
    events[0] = msgspec.msgpack.encode(envelope)
