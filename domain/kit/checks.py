"""The checks, over many seeded random playthroughs of one game (see :mod:`domain.kit.promises`).

Each playthrough is played once with every check at every decision point, then again following
the same choices (the same stream is expected), and its events are sent through MessagePack and
replayed from nothing (the same hashes are expected). Work is counted in playthroughs and moves,
never in time, so a run is the same on any machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.core import engine
from domain.core.errors import DomainError
from domain.core.events import CampaignCreated, CoreEvent, Options, Reseeded
from domain.core.game import CheckedContent, Game, LegalAction, Sampled
from domain.core.hashing import state_hash
from domain.core.rng import Chance, Rng
from domain.kit.playthrough import Played, play_through
from domain.kit.promises import Broken

WORLDS_SALT = "kit-worlds"
FORK_SALT = "kit-fork"

_encoder = msgspec.msgpack.Encoder()


@dataclass(frozen=True)
class Budget:
    """How much to try: playthroughs (seeds ``seed``, ``seed + 1``, ...), actions in each, and
    at each decision point how many listed actions to take on trial and worlds to draw."""

    playthroughs: int = 20
    moves: int = 200
    seed: int = 1
    trials: int = 6
    worlds: int = 2
    options: Options = field(default_factory=dict)


def check_game(game: Game, budget: Budget | None = None) -> list[Broken]:
    """Every promise ``game`` breaks, first its content's, then each playthrough's in turn."""
    budget = budget or Budget()
    found = content_broken(game) + releases_broken(game)
    for seed in range(budget.seed, budget.seed + budget.playthroughs):
        found += check_playthrough(game, budget, seed)
    ruleset = game.info.ruleset
    return [msgspec.structs.replace(broken, ruleset=ruleset) for broken in found]


def seats_for(game: Game, seed: int) -> tuple[str, ...]:
    """The seat layout a playthrough of ``seed`` is played with: each layout in turn."""
    layouts = game.info.seat_layouts
    return layouts[seed % len(layouts)]


def content_broken(game: Game) -> list[Broken]:
    if not isinstance(game, CheckedContent):
        return []
    return [Broken("content", str(error)) for error in game.content_errors()]


def releases_broken(game: Game) -> list[Broken]:
    """Each older ruleset in ``game.releases()`` (docs/releases.md) that does not build a game
    calling itself by that name and ruleset, or whose game cannot create and set up a campaign of
    it. Its recordings replaying is the game package's own test (``tests/recorded`` for ours)."""
    listed = getattr(game, "releases", None)
    if not callable(listed):
        return []
    found: list[Broken] = []
    for ruleset, build in listed().items():
        if ruleset == game.info.ruleset:
            found.append(
                Broken("releases", f"The ruleset in force {ruleset!r} is listed as older.")
            )
            continue
        try:
            older: Game = build()
            named = (older.info.name, older.info.ruleset)
            if named != (game.info.name, ruleset):
                raise ValueError(f"it builds {named[0]} by {named[1]!r}")
            seats = older.info.seat_layouts[0]
            created = CampaignCreated(older.info.name, ruleset, 1, "kit-releases", seats, {})
            state = engine.evolve(older, None, created)
            for event in older.setup(state):
                state = engine.evolve(older, state, event)
        except Exception as error:  # any failure of a package's old ruleset is that package's
            found.append(Broken("releases", f"The ruleset {ruleset!r}: {error}"))
    return found


def check_playthrough(game: Game, budget: Budget, seed: int) -> list[Broken]:
    """The promises broken in the playthrough of ``seed``, at most one of each."""
    seats = seats_for(game, seed)
    decisions = Decisions(game, seats, seed, budget)
    first = play_through(
        game, seats, budget.options, seed, moves=budget.moves, at_decision=decisions.check
    )
    found = [*first.broken, *decisions.broken]
    found += list(states_broken(game, first))
    found += list(replay_broken(game, first))
    found += list(determinism_broken(game, budget, first))
    once: dict[str, Broken] = {}
    for broken in found:
        once.setdefault(broken.promise, broken)
    return list(once.values())


class Decisions:
    """The checks at one decision point after another of one playthrough."""

    def __init__(self, game: Game, seats: tuple[str, ...], seed: int, budget: Budget) -> None:
        self.game = game
        self.seats = seats
        self.seed = seed
        self.budget = budget
        self.seen: dict[str, LegalAction] = {}
        """Every action listed so far in the playthrough, by id, to offer where it is not."""
        self.broken: list[Broken] = []
        self._promises: set[str] = set()

    def breaks(self, promise: str, version: int, detail: str) -> None:
        if promise not in self._promises:
            self._promises.add(promise)
            self.broken.append(Broken(promise, detail, self.seed, version, self.seats))

    def check(self, version: int, state: Any) -> None:
        # Whatever a game raises while a promise is checked breaks that promise: the server
        # would answer the same call with an error of its own.
        try:
            listed = {seat: self.game.legal_actions(state, seat) for seat in self.seats}
        except Exception as error:
            self.breaks(
                "every-state-shows", version, f"Listing legal actions raised {_named(error)}"
            )
            return
        checks = (
            ("legal-actions-apply", self.listed_apply),
            ("nothing-else-applies", self.nothing_else),
            ("views-hide", self.views_hide),
            ("forkable", self.forkable),
        )
        for promise, check in checks:
            try:
                check(version, state, listed)
            except Exception as error:
                self.breaks(promise, version, f"Checking it raised {_named(error)}")
        for actions in listed.values():
            for legal in actions:
                self.seen.setdefault(legal.id, legal)

    def listed_apply(self, version: int, state: Any, listed: dict[str, list[LegalAction]]) -> None:
        for seat, actions in listed.items():
            for legal in _spread(actions, self.budget.trials):
                try:
                    self.game.decide(state, seat, legal.action)
                except DomainError as error:
                    self.breaks(
                        "legal-actions-apply",
                        version,
                        f"{seat!r} is offered {legal.id!r} ({legal.label!r}) and decide refuses "
                        f"it: {error}",
                    )
                    return

    def nothing_else(self, version: int, state: Any, listed: dict[str, list[LegalAction]]) -> None:
        # The contract gives no list of every action a game has, so the kit offers what it has
        # seen: actions listed earlier in the playthrough, or listed now to another seat. An
        # action never listed anywhere is out of its sight.
        for seat in self.seats:
            ids = {legal.id for legal in listed[seat]}
            others = [legal for key, legal in reversed(self.seen.items()) if key not in ids]
            for seat_actions in listed.values():
                others += [legal for legal in seat_actions if legal.id not in ids]
            for legal in _spread(others, self.budget.trials):
                try:
                    self.game.decide(state, seat, legal.action)
                except DomainError:
                    continue
                self.breaks(
                    "nothing-else-applies",
                    version,
                    f"{seat!r} is not offered {legal.id!r} ({legal.label!r}) and decide accepts "
                    "it.",
                )
                return

    def views_hide(self, version: int, state: Any, listed: dict[str, list[LegalAction]]) -> None:
        game = self.game
        if not game.info.hidden_information:
            return
        if not isinstance(game, Sampled):
            self.breaks(
                "views-hide",
                version,
                "The game hides information but has no sampler (a sample method) to check it.",
            )
            return
        for viewer in (*self.seats, None):
            seen = game.view(state, viewer)
            for n in range(self.budget.worlds):
                chance = Chance(Rng(self.seed, version * self.budget.worlds + n, WORLDS_SALT))
                world = game.sample(state, viewer, chance)
                other = game.view(world, viewer)
                if other != seen:
                    self.breaks(
                        "views-hide",
                        version,
                        f"The view of {_who(viewer)} changed when what it cannot see was "
                        f"redrawn: {_difference(seen, other)}",
                    )
                    return
                if viewer is not None:
                    mine = [(a.id, a.label) for a in listed[viewer]]
                    theirs = [(a.id, a.label) for a in game.legal_actions(world, viewer)]
                    if mine != theirs:
                        self.breaks(
                            "views-hide",
                            version,
                            f"The legal actions of {_who(viewer)} changed when what it cannot "
                            "see was redrawn.",
                        )
                        return

    def forkable(self, version: int, state: Any, listed: dict[str, list[LegalAction]]) -> None:
        game = self.game
        if not engine.waits(game, state):
            self.breaks(
                "someone-acts", version, "The game is running and no seat has a legal action."
            )
            return
        if game.outcome(state) != "running":
            return
        forked = engine.evolve(game, state, Reseeded(self.seed + 1, FORK_SALT))
        acting = game.to_act(forked)
        if acting != game.to_act(state):
            self.breaks(
                "forkable", version, "A fork with new luck has other seats to act than its parent."
            )
            return
        seat = acting[0]
        legal = game.legal_actions(forked, seat)[0]
        try:
            game.play(forked, seat, legal.action)
        except DomainError as error:
            self.breaks(
                "forkable",
                version,
                f"In a fork with new luck, {seat!r}'s listed action {legal.id!r} is refused: "
                f"{error}",
            )


def states_broken(game: Game, played: Played) -> Iterator[Broken]:
    """Every state of the stream, the one right after creation and those an action passes through
    included, shown as the server shows them: any version may be read, replayed to and watched."""
    viewers = (*played.seats, None)
    for version, (event, state) in enumerate(zip(played.events, played.states, strict=True), 1):
        try:
            for viewer in viewers:
                game.view(state, viewer)
                game.redact(event, viewer)
            listed = {seat: game.legal_actions(state, seat) for seat in played.seats}
            acting = game.to_act(state)
            game.outcome(state)
            game.progress(state)
            game.describe(event, state)
        except Exception as error:  # whatever a game raises here, the server would raise too
            detail = f"Showing it raised {_named(error)}"
            yield _broken(played, "every-state-shows", version, detail)
            return
        able = tuple(seat for seat in played.seats if listed[seat])
        if sorted(acting) != sorted(able):
            detail = f"to_act names {list(acting)}; the seats with legal actions: {list(able)}."
            yield _broken(played, "every-state-shows", version, detail)
            return


def replay_broken(game: Game, played: Played) -> Iterator[Broken]:
    """The stream sent through MessagePack, decoded and folded from nothing, and each state's
    snapshot read back: every hash must come out the same."""
    decoder = msgspec.msgpack.Decoder(CoreEvent | game.event_type)
    snapshot = msgspec.msgpack.Decoder(game.state_type)
    events: list[tuple[int, Any]] = []
    for version, event in enumerate(played.events, 1):
        try:
            events.append((version, decoder.decode(_encoder.encode(event))))
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError) as error:
            yield _broken(played, "replay", version, f"The event does not survive storage: {error}")
            return
    for (version, state), digest in zip(engine.states(game, events), played.hashes, strict=True):
        if state_hash(state) != digest:
            detail = f"Replayed, {type(played.events[version - 1]).__name__} leaves another state."
            yield _broken(played, "replay", version, detail)
            return
    for version in played.points:
        state = played.states[version - 1]
        try:
            again = snapshot.decode(_encoder.encode(state))
        except (msgspec.DecodeError, msgspec.ValidationError, TypeError) as error:
            yield _broken(
                played, "replay", version, f"The state does not survive a snapshot: {error}"
            )
            return
        if state_hash(again) != played.hashes[version - 1]:
            yield _broken(played, "replay", version, "The state read back from a snapshot differs.")
            return


def determinism_broken(game: Game, budget: Budget, played: Played) -> Iterator[Broken]:
    """The playthrough played again from the same seed with the same choices."""
    again = play_through(
        game, played.seats, budget.options, played.seed, moves=budget.moves, follow=played.choices
    )
    for version, (one, other) in enumerate(zip(played.events, again.events, strict=False), 1):
        if _encoder.encode(one) != _encoder.encode(other):
            detail = (
                f"Played again, version {version} is {_short(other)} where it was {_short(one)}."
            )
            yield _broken(played, "deterministic", version, detail)
            return
    if len(again.events) != len(played.events):
        yield _broken(
            played,
            "deterministic",
            min(len(again.events), len(played.events)) + 1,
            f"Played again, the stream has {len(again.events)} events, not {len(played.events)}.",
        )


def _broken(played: Played, promise: str, version: int, detail: str) -> Broken:
    return Broken(promise, detail, played.seed, version, played.seats)


def _spread(actions: list[LegalAction], most: int) -> list[LegalAction]:
    """Up to ``most`` of ``actions``, spread evenly over the list (all when there are few)."""
    if len(actions) <= most:
        return actions
    step = len(actions) / most
    return [actions[int(n * step)] for n in range(most)]


def _named(error: Exception) -> str:
    return f"{type(error).__name__}: {error}"


def _who(viewer: str | None) -> str:
    return "the spectator" if viewer is None else f"seat {viewer!r}"


def _difference(one: msgspec.Struct, other: msgspec.Struct) -> str:
    fields = [
        name
        for name in one.__struct_fields__
        if getattr(one, name, None) != getattr(other, name, None)
    ]
    return "field " + ", ".join(fields) if fields else "another shape"


def _short(event: Any) -> str:
    text = msgspec.json.encode(event).decode()
    return text if len(text) <= 160 else text[:157] + "..."
