"""The spectator delay: a campaign played on stream shows its spectators the game some moves or
some seconds behind the table.

A campaign's creator may ask for ``{"moves": N}`` or ``{"seconds": T}``. It is kept in the
campaign's attributes and read back from there (:func:`delay_of`). The rule of what a spectator
may see is :func:`visible_version`, over the campaign's *moves*: its settled versions (the last
event of each append, the states a seat decides from), with the time each was appended. Seat
holders are never delayed, and the delay ends with the campaign: once it has ended, spectators
see all of it. :mod:`server.live.spectators` applies the rule to every channel a spectator reads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import msgspec

if TYPE_CHECKING:
    from server.campaigns.codec import Recorded
    from server.campaigns.head import Head

SPECTATOR_DELAY = "spectator_delay"
"""The campaign attribute that keeps the delay: ``moves:N`` or ``seconds:T``."""

MAX_MOVES = 100
MAX_SECONDS = 3600


class SpectatorDelay(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """How far behind the table spectators see the game: exactly one of ``moves`` (1 to 100)
    and ``seconds`` (1 to 3,600)."""

    moves: Annotated[int, msgspec.Meta(ge=1, le=MAX_MOVES)] | None = None
    seconds: Annotated[int, msgspec.Meta(ge=1, le=MAX_SECONDS)] | None = None

    def __post_init__(self) -> None:
        if (self.moves is None) == (self.seconds is None):
            raise ValueError(
                'A spectator delay is either {"moves": N} with N from 1 to 100 '
                'or {"seconds": T} with T from 1 to 3600, not both or neither'
            )

    def words(self) -> str:
        """The delay as people read it: ``3 moves``, ``1 second``."""
        count, unit = (self.moves, "move") if self.moves is not None else (self.seconds, "second")
        return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def delay_attrs(delay: SpectatorDelay | None) -> dict[str, str]:
    """The campaign attributes that keep ``delay`` (none without one)."""
    if delay is None:
        return {}
    if delay.moves is not None:
        return {SPECTATOR_DELAY: f"moves:{delay.moves}"}
    return {SPECTATOR_DELAY: f"seconds:{delay.seconds}"}


def delayed(attrs: Mapping[str, str]) -> bool:
    """Whether a campaign's attributes keep a spectator delay."""
    return SPECTATOR_DELAY in attrs


def delay_of(attrs: Mapping[str, str]) -> SpectatorDelay | None:
    """The delay a campaign's attributes keep, or None."""
    kept = attrs.get(SPECTATOR_DELAY)
    if kept is None:
        return None
    unit, _, count = kept.partition(":")
    if unit == "moves" and count.isdigit():
        return SpectatorDelay(moves=int(count))
    if unit == "seconds" and count.isdigit():
        return SpectatorDelay(seconds=int(count))
    raise ValueError(f"The stored spectator delay {kept!r} is not one this server reads.")


class Move(NamedTuple):
    """A settled version of a campaign and when its event was appended (epoch ms)."""

    version: int
    at_ms: int


class Tail:
    """A delayed campaign's newest moves: every settled version after ``start`` up to
    ``head_version``, with the floor's version among them once the reading reached it."""

    __slots__ = ("head_version", "moves", "shown", "start")

    def __init__(self, head_version: int) -> None:
        self.head_version = head_version
        self.start = head_version
        self.moves: list[Move] = []
        self.shown: Head | None = None
        """The head at the delayed version last answered."""

    def add(self, recorded: Sequence[Recorded[Any]], floor: int) -> None:
        for item in recorded:
            if item.version <= self.head_version:
                continue
            if item.settled or item.version == floor:
                self.moves.append(Move(item.version, item.at_ms))
            self.head_version = item.version

    def trim(self, delay: SpectatorDelay, shown: int) -> None:
        """Forget the moves the rule will not need again: the delayed version only moves on."""
        keep = delay.moves + 1 if delay.moves is not None else None
        drop = 0
        if keep is not None:
            drop = max(0, len(self.moves) - keep)
        else:
            while drop < len(self.moves) and self.moves[drop].version < shown:
                drop += 1
        if drop:
            self.start = self.moves[drop - 1].version
            del self.moves[:drop]


def visible_version(
    delay: SpectatorDelay, moves: Sequence[Move], *, floor: int, now_ms: int
) -> int | None:
    """The newest version a spectator may see, or None when ``moves`` do not reach far enough
    back to say (the caller reads older moves and asks again).

    ``moves`` are the campaign's newest moves up to its head, oldest first, none left out
    between the first and the last. ``floor`` is the version the campaign's own play starts
    from (its creation, or the fork it is), always visible; when ``moves`` start at it, they
    reach all the way back. With ``moves=N`` the answer is the newest move at least N moves
    behind the head; with ``seconds=T``, the newest move appended at least T seconds before
    ``now_ms``; the floor when there is none.
    """
    complete = bool(moves) and moves[0].version <= floor
    if delay.moves is not None:
        if len(moves) > delay.moves:
            return max(floor, moves[-1 - delay.moves].version)
        return floor if complete else None
    assert delay.seconds is not None
    cutoff = now_ms - delay.seconds * 1000
    newest: int | None = None
    for move in moves:
        if move.at_ms > cutoff:
            break
        newest = move.version
    if newest is None:
        return floor if complete else None
    return max(floor, newest)


def next_due_ms(delay: SpectatorDelay, moves: Sequence[Move], shown: int) -> int | None:
    """When the first move after version ``shown`` comes due for spectators (epoch ms); None
    when no move waits, or when the delay counts moves (they come due with the next move)."""
    if delay.seconds is None:
        return None
    for move in moves:
        if move.version > shown:
            return move.at_ms + delay.seconds * 1000
    return None
