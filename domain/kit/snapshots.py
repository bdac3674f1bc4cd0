"""Snapshots: every state through MessagePack and back, as the server caches it.

A snapshot is read back into the game's state type, so the hash is not enough: a tuple kept in a
field typed ``Any`` comes back as a list, hashes the same, and breaks the first rule that adds to
it. So the state read back must equal the state field by field (types included), and the playthrough
must go on from it as it went on from the original.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import msgspec

from domain.core.game import Game
from domain.kit.playthrough import Played
from domain.kit.promises import Broken

_encoder = msgspec.msgpack.Encoder()
_FAILED = (msgspec.DecodeError, msgspec.ValidationError, TypeError, ValueError, OverflowError)


def snapshots_broken(game: Game, played: Played) -> Iterator[Broken]:
    """The first state that does not come back whole from a snapshot, or does not play on."""
    decoder = msgspec.msgpack.Decoder(game.state_type)
    again: list[Any] = []
    for version, state in enumerate(played.states, 1):
        try:
            back = decoder.decode(_encoder.encode(state))
        except _FAILED as error:
            detail = f"The state does not survive a snapshot: {error}"
            yield _broken(played, version, detail)
            return
        if back != state:
            found = first_difference(state, back, "the state")
            yield _broken(played, version, f"Read back from a snapshot, {found}.")
            return
        again.append(back)
    if played.broken:  # a playthrough cut short by another promise has no steps to follow
        return
    for step, version in enumerate(played.points[: played.moves]):
        seat, wanted = played.choices[step]
        following = _following(played, step, version)
        try:
            offered = [a for a in game.legal_actions(again[version - 1], seat) if a.id == wanted]
            steps = game.play(again[version - 1], seat, offered[0].action) if offered else None
        except Exception as error:  # whatever the game raises, the server would raise on it
            detail = (
                f"From the state read back from a snapshot, {seat!r} taking {wanted!r} raised "
                f"{type(error).__name__}: {error}"
            )
            yield _broken(played, version, detail)
            return
        if steps is None:
            detail = (
                f"From the state read back from a snapshot, {seat!r} is not offered {wanted!r}."
            )
            yield _broken(played, version, detail)
            return
        if [_encoder.encode(event) for event, _ in steps] != following:
            detail = (
                f"From the state read back from a snapshot, {seat!r} taking {wanted!r} records "
                "other events than from the state itself."
            )
            yield _broken(played, version, detail)
            return


def first_difference(one: Any, other: Any, where: str) -> str:
    """Where ``other`` first differs from ``one``, in words: "the state's field lit: a tuple
    came back as a list"."""
    if type(one) is not type(other):
        return f"{where}: a {type(one).__name__} came back as a {type(other).__name__}"
    if isinstance(one, msgspec.Struct):
        for name in one.__struct_fields__:
            a, b = getattr(one, name), getattr(other, name)
            if a != b or type(a) is not type(b):
                inside = f"field {name}" if where == "the state" else f"{where}.{name}"
                return first_difference(a, b, inside)
    elif isinstance(one, tuple | list):
        if len(one) != len(other):
            return f"{where}: {len(one)} items came back as {len(other)}"
        for index, (a, b) in enumerate(zip(one, other, strict=True)):
            if a != b or type(a) is not type(b):
                return first_difference(a, b, f"{where}[{index}]")
    elif isinstance(one, dict):
        if one.keys() != other.keys():
            return f"{where}: keys {sorted(map(str, one))} came back as {sorted(map(str, other))}"
        for key in one:
            if one[key] != other[key] or type(one[key]) is not type(other[key]):
                return first_difference(one[key], other[key], f"{where}[{key!r}]")
    return f"{where}: {one!r} came back as {other!r}"


def _following(played: Played, step: int, version: int) -> list[bytes]:
    """The encoded events the ``step``-th action recorded (from ``version + 1``)."""
    end = played.points[step + 1] if step + 1 < len(played.points) else played.version
    return [_encoder.encode(event) for event in played.events[version:end]]


def _broken(played: Played, version: int, detail: str) -> Broken:
    return Broken("snapshot", detail, played.seed, version, played.seats)
