"""A campaign's head: its newest version and state, and what is derived from them, computed once.

A :class:`Head` never changes once made; a new version makes a new head that shares the
campaign's :class:`Facts`. Whoever holds a head holds a consistent (version, state) pair, however
long it awaits, and the legal actions and views it derives are built at most once per version,
however many sockets, requests and projections ask.
"""

from __future__ import annotations

import contextlib
from typing import Any

import msgspec

from domain.core.game import Game, LegalAction, Outcome
from projections.views import Choice
from server.campaigns.codec import Codec, codec_for


class Facts:
    """What never changes about a campaign once its first event is stored."""

    __slots__ = (
        "attrs",
        "codec",
        "fork_version",
        "game",
        "id",
        "origin",
        "own_from",
        "parent",
        "seats",
    )

    def __init__(
        self,
        campaign_id: str,
        game: Game,
        seats: tuple[str, ...],
        *,
        origin: int,
        attrs: dict[str, str],
        parent: str | None = None,
        fork_version: int = 0,
    ) -> None:
        self.id = campaign_id
        self.game = game
        self.codec: Codec = codec_for(game)
        self.seats = seats
        self.origin = origin
        """The last version of the creation batch (or a reseeded fork's reseed): the lowest
        version a rewind may return to."""
        self.attrs = attrs
        self.parent = parent
        self.fork_version = fork_version
        self.own_from = fork_version + 1 if parent is not None else 1
        """The campaign's first own version: below it, a fork's history is its parents'."""


class Head:
    __slots__ = (
        "_choices",
        "_legal",
        "_outcome",
        "_plain_views",
        "_views",
        "facts",
        "hash",
        "state",
        "version",
    )

    def __init__(self, facts: Facts, version: int, state: Any, hash: str) -> None:
        self.facts = facts
        self.version = version
        self.state = state
        self.hash = hash
        """The stored hash of the state at ``version`` (empty before the first event)."""
        self._outcome: Outcome | None = None
        self._legal: dict[str, dict[str, LegalAction]] = {}
        self._choices: dict[str, list[Choice]] = {}
        self._views: dict[str | None, Any] = {}
        self._plain_views: dict[str | None, Any] | None = None
        """Made on first use (a welcome or a sync): a head is made per move, and each container
        it holds is one more for the collector's young collections to walk."""

    def advanced(self, version: int, state: Any, hash: str) -> Head:
        return Head(self.facts, version, state, hash)

    @property
    def game(self) -> Game:
        return self.facts.game

    @property
    def outcome(self) -> Outcome:
        if self._outcome is None:
            self._outcome = "running" if self.state is None else self.game.outcome(self.state)
        return self._outcome

    def legal(self, seat: str) -> dict[str, LegalAction]:
        """``seat``'s legal actions by id, in the game's order."""
        found = self._legal.get(seat)
        if found is None:
            listed = [] if self.state is None else self.game.legal_actions(self.state, seat)
            found = self._legal[seat] = {legal.id: legal for legal in listed}
        return found

    def choices(self, seat: str | None) -> list[Choice]:
        """``seat``'s legal actions as a client sees them; a spectator has none."""
        if seat is None:
            return []
        found = self._choices.get(seat)
        if found is None:
            found = self._choices[seat] = [
                Choice(legal.id, legal.label) for legal in self.legal(seat).values()
            ]
        return found

    def prepare(self, seat: str) -> None:
        """Work out ``seat``'s view and legal actions now, while the rules' answers about this
        state are at hand. A view that fails here is left for where it is sent, which reports it."""
        # A fault is met again, and reported, where the view is sent.
        with contextlib.suppress(Exception):
            self.shown(seat)
            self.choices(seat)

    def shown(self, seat: str | None) -> Any:
        """What ``seat`` (``None``: a spectator) sees of the state, as the game's view Struct: what
        a move's patch is computed from (:func:`projections.patch.diff` skips what the move left
        alone)."""
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = self.game.view(self.state, seat)
        return found

    def view(self, seat: str | None, *, keep: bool = True) -> Any:
        """What ``seat`` (``None``: a spectator) sees of the state, as plain data.

        ``keep=False`` does not cache a view computed now: a welcome's view is sent once, and an
        idle campaign's head should not hold it (the next update computes it if it comes)."""
        if self._plain_views is not None:
            found = self._plain_views.get(seat)
            if found is not None:
                return found
        shown = self._views.get(seat)
        if shown is None:
            shown = self.game.view(self.state, seat)
            if keep:
                self._views[seat] = shown
        view = msgspec.to_builtins(shown, str_keys=True)
        if keep:
            if self._plain_views is None:
                self._plain_views = {}
            self._plain_views[seat] = view
        return view
