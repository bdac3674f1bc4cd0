"""The promises a game makes to the server, and how a broken one is reported.

The server relies on each of these without looking: it stores a stream once and replays it
forever, shows each seat only its view, offers the listed actions and nothing else, and lets any
decision point be forked. A game that breaks one fails quietly in play, so the kit names the
promise, the seed and the version where it broke.
"""

from __future__ import annotations

import msgspec

PROMISES: dict[str, str] = {
    "deterministic": "the same seed and actions give the same stream",
    "replay": "replaying the events gives the same state and hashes",
    "legal-actions-apply": "every listed legal action applies",
    "nothing-else-applies": "nothing but the listed legal actions applies",
    "someone-acts": "some seat can always act until the game ends",
    "every-state-shows": (
        "every state in the stream can be shown, and its legal actions go to exactly the seats "
        "to act"
    ),
    "views-hide": (
        "no seat's view, nor the spectator's, changes when what its viewer cannot see is permuted"
    ),
    "forkable": "every decision point can be forked",
    "content": "content passes its checks",
    "releases": (
        "every older ruleset the game lists builds a game of that name and ruleset, which plays "
        "a campaign of it from its creation"
    ),
}
"""Each promise by its short name, then in a sentence."""


class Broken(msgspec.Struct, frozen=True, gc=False):
    """One promise broken in one playthrough."""

    promise: str
    detail: str
    seed: int | None = None
    """The playthrough's seed (None: not found in play, as a content error)."""
    version: int | None = None
    """The campaign version where it broke (None: not tied to one)."""
    seats: tuple[str, ...] = ()
    ruleset: str = ""
    """The ruleset of the game that broke it (rules and content version)."""

    def __str__(self) -> str:
        where = [self.ruleset] if self.ruleset else []
        if self.seed is not None:
            where.append(f"seed {self.seed}")
        if self.seats:
            where.append("seats " + ", ".join(self.seats))
        if self.version is not None:
            where.append(f"version {self.version}")
        at = f" ({', '.join(where)})" if where else ""
        return f"Broken promise {self.promise!r}{at}: {PROMISES[self.promise]}. {self.detail}"
