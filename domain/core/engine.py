"""The replay fold: campaign-level events handled once here, game events handed to the game.

``state_at(v)`` is ``evolve(state_at(v-1), event v)``, except when event v is ``Rewound(to=k)``,
where it is ``state_at(k)``. :func:`states` resolves that from the states it has already passed,
keeping only those that a later rewind names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import msgspec

from domain.core.errors import UnsupportedRuleset
from domain.core.events import CampaignCreated, Reseeded, Rewound
from domain.core.game import Game
from domain.core.rng import Rng


def check_ruleset(game: Game, created: CampaignCreated) -> None:
    """Refuse to fold a campaign with the game of another ruleset: its events would mean something
    else. The game of a campaign's own ruleset is :func:`domain.games.game_of`."""
    if created.game != game.info.name or created.ruleset != game.info.ruleset:
        raise UnsupportedRuleset(
            f"This campaign of {created.game} was recorded under the ruleset {created.ruleset!r}, "
            f"which this server does not implement "
            f"(it plays {game.info.name} by {game.info.ruleset!r})."
        )


def _keyed(game: Game, event: CampaignCreated | Reseeded) -> Any:
    """The campaign's generator from ``event``'s seed and salt; a game of a ruleset played by an
    older generator (:mod:`domain.core.rng_unkeyed`) states it as ``generator``."""
    generator = getattr(game, "generator", None)
    if generator is not None:
        return generator(event.seed, event.salt)
    return Rng(event.seed, 0, event.salt)


def evolve(game: Game, state: Any, event: Any) -> Any:
    """Apply one event that is not a rewind.

    Creation and reseeding are handled here for every game: the engine checks the ruleset and
    keys the campaign's generator with the event's seed and salt.
    """
    kind = type(event)
    if kind is CampaignCreated:
        check_ruleset(game, event)
        return msgspec.structs.replace(game.initial(event), rng=_keyed(game, event))
    if kind is Reseeded:
        return msgspec.structs.replace(state, rng=_keyed(game, event))
    if kind is Rewound:
        raise ValueError("A rewind is resolved by the replay loop, not by evolve.")
    return game.evolve(state, event)


def states(
    game: Game,
    events: Sequence[tuple[int, Any]],
    state: Any = None,
    known: Mapping[int, Any] | None = None,
) -> Iterator[tuple[int, Any]]:
    """Yield ``(version, state)`` after each of ``events``, starting from ``state``.

    A rewind names either a version inside ``events`` or one of ``known``, the states at earlier
    versions that the caller resolved first (a fold that starts from a snapshot, say).
    """
    targets = {event.to for _, event in events if type(event) is Rewound}
    kept: dict[int, Any] = dict(known or {})
    game_evolve = game.evolve
    for version, event in events:
        kind = type(event)
        if kind is Rewound:
            try:
                state = kept[event.to]
            except KeyError:
                raise ValueError(
                    f"Version {version} rewinds to {event.to}, which this replay has not passed."
                ) from None
        elif kind is CampaignCreated or kind is Reseeded:
            state = evolve(game, state, event)
        else:
            state = game_evolve(state, event)
        if version in targets:
            kept[version] = state
        yield version, state


def replay(
    game: Game,
    events: Sequence[tuple[int, Any]],
    state: Any = None,
    known: Mapping[int, Any] | None = None,
) -> Any:
    """The state after ``events`` (see :func:`states`)."""
    result = state
    for _, result in states(game, events, state, known):  # noqa: B007 - only the last one
        pass
    return result


def waits(game: Game, state: Any) -> bool:
    """Whether some seat has a decision to make in ``state``, or the campaign has ended: the
    states a campaign may be forked or rewound to (with the version closing an action's events)."""
    return game.outcome(state) != "running" or bool(game.to_act(state))


def rewind_targets(events: Iterable[tuple[int, Any]], before: int) -> list[int]:
    """The versions at or below ``before`` that rewinds in ``events`` return to, oldest first."""
    return sorted({e.to for _, e in events if type(e) is Rewound and e.to <= before})


def last_rewind(events: Iterable[tuple[int, Any]]) -> tuple[int, int] | None:
    """``(index, target)`` of the last rewind in ``events``, if any."""
    found: tuple[int, int] | None = None
    for index, (_, event) in enumerate(events):
        if type(event) is Rewound:
            found = (index, event.to)
    return found
