"""Campaign-level events, shared by every game's stream.

Tags never change once stored (new fields get defaults); each game's own events live in its
package and carry tags of the form ``"<game>/<what happened>"``.
"""

from __future__ import annotations

import msgspec

Options = dict[str, str | int | bool]


class CampaignCreated(msgspec.Struct, frozen=True, tag="campaign/created"):
    """Version 1 of every campaign: which game, which ruleset, its seed and seats."""

    game: str
    ruleset: str
    seed: int
    salt: str
    seats: tuple[str, ...]
    options: Options = {}


class Reseeded(msgspec.Struct, frozen=True, tag="campaign/reseeded", gc=False):
    """A fork that asked for new luck: the generator restarts from this seed."""

    seed: int
    salt: str


class Rewound(msgspec.Struct, frozen=True, tag="campaign/rewound", gc=False):
    """The campaign returns to the state it had at version ``to``; later history stays readable."""

    to: int


CoreEvent = CampaignCreated | Reseeded | Rewound
