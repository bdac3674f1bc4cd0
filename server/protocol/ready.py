"""``GET /readyz``'s answer: the store answers, and what the server found stored."""

from __future__ import annotations

import msgspec


class ReadyOut(msgspec.Struct, frozen=True):
    """The server is ready; how many stored campaigns it cannot play, and which rulesets."""

    ready: bool
    counted: bool
    """Whether the stored campaigns' rulesets have been counted yet (after startup's first pass
    over the catalog); the figures below are zero until then."""
    campaigns: int
    unplayed_campaigns: int
    """Stored campaigns on a ruleset this server does not play: listed and readable as stored,
    not playable here. The server is ready all the same."""
    unplayed_rulesets: dict[str, int]
    """Those per ruleset, by name."""
    played_rulesets: list[str]
    """The rulesets this server plays."""
    words: str
    """The same in a sentence."""
