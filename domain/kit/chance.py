"""Chance only from the campaign's generator.

The server reseeds a campaign for a fork with new luck and keys every campaign with a secret salt
beside its seed. A game whose luck does not come from the generator in its state (a
``random.Random(seed)`` of its own, a seed kept in another field, the salt left out) deals the same
in every fork and lets the published seed tell what is to come. So the kit reseeds the generator,
once with another salt and once with another seed (the count of draws kept), at the set-up and at
one decision point after another, takes the same steps, and asks that each reseeding deal
differently somewhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from domain.core.game import Game
from domain.core.rng import Rng
from domain.kit.playthrough import Played
from domain.kit.promises import Broken
from domain.kit.words import spread

RESEEDED_SALT = "kit-reseeded"
TRIALS = 4
"""Listed actions tried at each decision point, per seat to act."""

_encoder = msgspec.msgpack.Encoder()


VARIANTS: dict[str, Callable[[Rng], Rng]] = {
    "another salt (the same seed)": lambda rng: Rng(rng.seed, rng.draws, RESEEDED_SALT),
    "another seed (the same salt)": lambda rng: Rng(rng.seed ^ (1 << 32), rng.draws, rng.salt),
}
"""The reseedings tried, by what they change; each keeps the count of draws, so that only the
seed or only the salt differs."""


def reseedings_that_moved(game: Game, played: Played, waiting: set[str]) -> set[str]:
    """Which of the ``waiting`` reseedings (by name, :data:`VARIANTS`) dealt differently
    somewhere in ``played``: at its set-up, or for one of the actions listed at a decision
    point (a few of each seat's, spread over the list)."""
    if not game.info.chance or not played.points:
        return set()
    moved: set[str] = set()
    for state, take in _sites(game, played):
        try:
            real = _encoded(take(state))
        except Exception:  # a step that fails is the legal-actions promise's to name
            continue
        for name in sorted(waiting - moved):
            try:
                reseeded = msgspec.structs.replace(state, rng=VARIANTS[name](state.rng))
                again = _encoded(take(reseeded))
            except Exception:  # a step a fork cannot take is the forkable promise's to name
                continue
            if again is not None and again != real:
                moved.add(name)
        if moved == waiting:
            break
    return moved


class ChanceWatch:
    """The reseedings that have not yet dealt differently, over one playthrough after another.
    (One playthrough may draw no luck at all, as a chapter abandoned at once; all of them
    together must.)"""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.waiting = set(VARIANTS) if game.info.chance else set()
        self.seen: list[Played] = []

    def see(self, played: Played) -> None:
        """Try the reseedings still waiting on ``played`` (one cut short by a broken promise
        is left out: what broke is named already)."""
        if played.broken or not self.waiting:
            return
        self.seen.append(Played(played.seed, played.seats))  # its seed and seats, for the report
        self.waiting -= reseedings_that_moved(self.game, played, self.waiting)

    def broken(self) -> list[Broken]:
        """Luck that did not move with the generator in any playthrough, if so."""
        if not self.waiting or not self.seen:
            return []
        first, last = self.seen[0], self.seen[-1]
        return [
            Broken(
                "chance-from-the-generator",
                f"Reseeded with {name} at the set-up and at every decision point of "
                f"{len(self.seen)} playthroughs (seeds {first.seed}-{last.seed}), the game "
                "dealt the same every time: its chance does not come from the campaign's "
                "generator (the state's rng, drawn through Chance), as a random.Random(seed) of "
                "its own would not.",
                first.seed,
                seats=first.seats,
            )
            for name in sorted(self.waiting)
        ]


Take = Callable[[Any], list[Any] | None]
"""A step from a state (the real one, or a reseeded copy): the events it records, or None where
the copy does not offer it."""


def _sites(game: Game, played: Played) -> Iterator[tuple[Any, Take]]:
    """Each place chance may be drawn: the state before it and a step to take from it."""
    yield played.states[0], game.setup
    for version in played.points[: played.moves]:
        state = played.states[version - 1]
        for seat in game.to_act(state):
            for legal in spread(game.legal_actions(state, seat), TRIALS):

                def take(forked: Any, seat: str = seat, wanted: str = legal.id) -> list[Any] | None:
                    offered = [a for a in game.legal_actions(forked, seat) if a.id == wanted]
                    if not offered:
                        return None
                    return [event for event, _ in game.play(forked, seat, offered[0].action)]

                yield state, take


def _encoded(events: list[Any] | None) -> list[bytes] | None:
    return None if events is None else [_encoder.encode(event) for event in events]
