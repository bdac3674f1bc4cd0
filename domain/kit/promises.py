"""The promises a game makes to the server, and how a broken one is reported.

The server relies on each of these without looking: it stores a stream once and replays it
forever, shows each seat only its view, offers the listed actions and nothing else, and lets any
decision point be forked. A game that breaks one fails quietly in play, so the kit names the
promise, the seed and the version where it broke.

What a viewer receives goes out on several channels, and each must hide the same things: its view
and its legal actions (whose labels are also the words of its hints), its copy of every event
(``redact``) and the timeline's lines (``describe``, which every viewer reads).
"""

from __future__ import annotations

import msgspec

PROMISES: dict[str, str] = {
    "deterministic": "the same seed and actions give the same stream",
    "same-in-every-process": (
        "the same seed and actions give the same stream in another process, whatever its hash "
        "seed and the order the playthroughs run in"
    ),
    "chance-from-the-generator": (
        "chance comes from the campaign's generator: a reseeded one can deal differently"
    ),
    "replay": "replaying the events gives the same state and hashes",
    "snapshot": (
        "every state survives a snapshot: read back from MessagePack it equals the state, field "
        "by field, and plays on"
    ),
    "no-mutation": "decide, play and evolve never change the state they are given",
    "legal-actions-apply": "every listed legal action applies",
    "nothing-else-applies": "nothing but the listed legal actions applies",
    "someone-acts": "some seat can always act until the game ends",
    "ends": "every campaign ends within the longest the game declares",
    "every-state-shows": (
        "every state in the stream can be shown, and its legal actions go to exactly the seats "
        "to act"
    ),
    "views-hide": (
        "no seat's view or legal actions, nor the spectator's view, change when what its viewer "
        "cannot see is permuted"
    ),
    "events-hide": (
        "no event, as redacted for a seat or the spectator, changes when what its viewer cannot "
        "see is permuted"
    ),
    "timeline-hides": (
        "no timeline line changes when what a seat or the spectator cannot see is permuted"
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
