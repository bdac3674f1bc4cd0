"""The channels besides the view that reach a viewer: its copy of each event and the timeline.

The server sends every seat and spectator each new event as ``redact(event, viewer)`` gives it,
and the timeline's line ``describe(event, state)`` to everyone. Each must hide what the view
hides. After every event of a playthrough the kit asks the game's sampler for a world the viewer
cannot tell from the real one, reads from it which hidden words it renamed
(:mod:`domain.kit.renaming`), and renames them in the event: the viewer's copy of the event and
the line must come out the same. A copy that differs names a word the viewer may not know (the
card another seat drew); so does a line. A word the viewer could see before the event (a tile that
leaves the board face up for a hidden pile) is not renamed: the event tells it nothing new.

(The view and the legal actions, whose labels are also the words of a seat's hints, are checked
at each decision point with the same sampler: :class:`domain.kit.checks.Decisions`.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from domain.core.events import CampaignCreated, Reseeded, Rewound
from domain.core.game import Game, Sampled
from domain.core.rng import Chance, Rng
from domain.kit.playthrough import Played
from domain.kit.promises import Broken
from domain.kit.renaming import Places, kept, renamed, renaming
from domain.kit.words import difference, short, who

CHANNELS_SALT = "kit-channels"

_CORE = (CampaignCreated, Reseeded, Rewound)


def channels_broken(game: Game, played: Played) -> Iterator[Broken]:
    """The first event whose redacted copy, and the first whose line, tells a viewer what its
    view hides, if any."""
    if not game.info.hidden_information or not isinstance(game, Sampled):
        return
    viewers: tuple[str | None, ...] = (*played.seats, None)
    events_found = timeline_found = False
    places = Places()
    points = set(played.points)
    seen_before: dict[str | None, frozenset[str]] = {}
    """For each viewer, the words in its sight in the state before the event."""
    for version, (event, state) in enumerate(zip(played.events, played.states, strict=True), 1):
        for index, viewer in enumerate(viewers):
            chance = Chance(Rng(played.seed, version * len(viewers) + index, CHANNELS_SALT))
            try:
                world = game.sample(state, viewer, chance)
            except Exception as error:  # the sampler is the game's: whatever it raises is named
                if version not in points:
                    # A search samples only where a seat decides; between, a sampler may
                    # refuse: the event goes unchecked, and what was in sight before stands.
                    continue
                detail = (
                    f"Sampling a world for {who(viewer)} raised {type(error).__name__}: {error}"
                )
                yield _broken(played, "events-hide", version, detail)
                return
            seen = places.of(state, world)
            before = seen_before.get(viewer, frozenset())
            seen_before[viewer] = kept(seen)
            if isinstance(event, _CORE):
                continue
            names = {word: other for word, other in renaming(seen).items() if word not in before}
            if not names:
                continue
            other = renamed(event, names)
            if not events_found:
                found = _event_differs(game, event, other, viewer)
                if found is not None:
                    events_found = True
                    yield _broken(played, "events-hide", version, found)
            if not timeline_found:
                found = _line_differs(game, event, state, other, world, viewer)
                if found is not None:
                    timeline_found = True
                    yield _broken(played, "timeline-hides", version, found)
            if events_found and timeline_found:
                return


def _event_differs(game: Game, event: Any, other: Any, viewer: str | None) -> str | None:
    sent = game.redact(event, viewer)
    try:
        would = game.redact(other, viewer)
    except Exception:  # a renamed event the game cannot redact says nothing about hiding
        return None
    if _same(sent, would):
        return None
    return (
        f"The event channel: {who(viewer)} receives {type(event).__name__} as {short(sent)}; "
        f"with what it cannot see permuted it would receive {short(would)} "
        f"({difference(sent, would)} differs), so its copy of the log tells it what its view "
        "hides."
    )


def _line_differs(
    game: Game, event: Any, state: Any, other: Any, world: Any, viewer: str | None
) -> str | None:
    line = game.describe(event, state)
    try:
        would = game.describe(other, world)
    except Exception:  # a line the game cannot write for a renamed world says nothing either
        return None
    if line == would:
        return None
    return (
        f"The timeline channel: the line for {type(event).__name__} reads {line!r}; with what "
        f"{who(viewer)} cannot see permuted it reads {would!r}: the timeline, which every "
        "viewer reads, tells it what its view hides."
    )


def _same(one: Any, other: Any) -> bool:
    try:
        return bool(one == other)
    except Exception:
        return msgspec.msgpack.encode(one) == msgspec.msgpack.encode(other)


def _broken(played: Played, promise: str, version: int, detail: str) -> Broken:
    return Broken(promise, detail, played.seed, version, played.seats)
