"""What a sampler changed, as a renaming of the words a state holds.

A game's sampler (:class:`~domain.core.game.Sampled`) redraws what a viewer cannot see: another
seat's hand, the order of a face-down deck. Laid over the state it came from, place by place, the
sampled world says which card ids (or tile ids, or any other words) stand where the real ones
stood: ``beacon-2`` in Tom's hand has become ``candle-1``. That renaming can then be carried over
to anything else that names those words, an event or a timeline line, to ask whether what a
viewer receives would change with them. A word that stands where the viewer sees it (a lamp lit
face up) keeps its name, so a word found both there and somewhere hidden is left out, and so is a
word renamed two ways: only what is certainly hidden is renamed.

The generator (the field ``rng``) is left out: the sampler rekeys it, and its salt is no word of
the game.
"""

from __future__ import annotations

from typing import Any

import msgspec

SKIPPED = frozenset({"rng"})

Names = dict[str, str]


class Places:
    """Each word of a state and the words its sampled world holds in its places.

    A sampler shares what it leaves alone with the state it came from, so a part that is the
    same object in both holds only words kept in place: its words are read once and remembered
    by the part (for as long as this object lives: one playthrough).
    """

    def __init__(self) -> None:
        self._words: dict[int, tuple[Any, frozenset[str]]] = {}

    def of(self, state: Any, world: Any) -> dict[str, set[str]]:
        seen: dict[str, set[str]] = {}
        self._pair(state, world, seen)
        return seen

    def _pair(self, one: Any, other: Any, seen: dict[str, set[str]]) -> None:
        kind = type(one)
        if kind is not type(other):
            return
        if kind is str:
            seen.setdefault(one, set()).add(other)
        elif one is other:
            for word in self.words(one):
                seen.setdefault(word, set()).add(word)
        elif isinstance(one, msgspec.Struct):
            for name in one.__struct_fields__:
                if name not in SKIPPED:
                    self._pair(getattr(one, name), getattr(other, name), seen)
        elif kind is tuple or kind is list:
            if len(one) == len(other):
                for a, b in zip(one, other, strict=True):
                    self._pair(a, b, seen)
        elif kind is dict and one.keys() == other.keys():
            for key in one:
                self._pair(one[key], other[key], seen)

    def words(self, part: Any) -> frozenset[str]:
        """Every word ``part`` holds (the generator's field left out)."""
        if type(part) is str:
            return frozenset((part,))
        known = self._words.get(id(part))
        if known is not None and known[0] is part:
            return known[1]
        found: set[str] = set()
        if isinstance(part, msgspec.Struct):
            for name in part.__struct_fields__:
                if name not in SKIPPED:
                    found |= self.words(getattr(part, name))
        elif type(part) is tuple or type(part) is list:
            for item in part:
                found |= self.words(item)
        elif type(part) is dict:
            for item in part.values():
                found |= self.words(item)
        words = frozenset(found)
        if isinstance(part, msgspec.Struct | tuple):  # kept only for parts that cannot change
            self._words[id(part)] = (part, words)
        return words


def renaming(seen: dict[str, set[str]]) -> Names:
    """Each word that stands, in the world, where only another one does (``seen`` as
    :meth:`Places.of` gives it)."""
    return {
        word: next(iter(others))
        for word, others in seen.items()
        if len(others) == 1 and word not in others
    }


def kept(seen: dict[str, set[str]]) -> frozenset[str]:
    """The words the world keeps wherever they stand: those in sight (and a hidden one the
    sampler happened to leave in place)."""
    return frozenset(word for word, others in seen.items() if others == {word})


def renamed(value: Any, names: Names) -> Any:
    """``value`` (an event, a Struct of any kind) with every word of ``names`` renamed."""
    kind = type(value)
    if kind is str:
        return names.get(value, value)
    if isinstance(value, msgspec.Struct):
        changes = {}
        for name in value.__struct_fields__:
            field = getattr(value, name)
            again = renamed(field, names)
            if again is not field:
                changes[name] = again
        return msgspec.structs.replace(value, **changes) if changes else value
    if kind is tuple or kind is list:
        items = [renamed(item, names) for item in value]
        if all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return kind(items)
    if kind is dict:
        return {renamed(key, names): renamed(item, names) for key, item in value.items()}
    return value
