"""What changed between two views, as a JSON Patch (RFC 6902) that a client applies in order.

A view is plain data (dicts, lists or tuples, strings, numbers, booleans, None: what
``msgspec.to_builtins`` makes of a view Struct; a tuple travels as a JSON array). The patch uses
three operations: ``add`` and ``remove`` for object members and for items appended to or dropped
from the end of a list, ``replace`` for everything else. Paths are JSON Pointers (RFC 6901).
Applying ``diff(a, b)`` to ``a`` gives ``b`` exactly; the patch is deterministic for the same two
views.

A view may also be given as the Struct the game returns: :func:`diff` walks two Structs of the
same type field by field, skipping a field whose value is the very same object in both (a state
shares what an event left alone, and a view refers to the state's parts), and turns into plain
data only what differs, so the patch of a move costs what the move changed rather than the whole
view. The operations are those of the two views as plain data (``tests/projections/test_patch.py``
checks this on random playthroughs of every game). A Struct whose plain form is not an object of
its fields in order (``array_like``, ``omit_defaults``, tagged) is compared as plain data.

Unchanged subtrees are skipped by Python's own (C) equality, which takes ``1``, ``1.0`` and ``True``
for equal. Views never meet that case: a view field has one JSON type from version to version (no
field admits both a boolean and a number, none is ``Any`` or a float), which
``tests/projections/test_patch.py`` checks for every registered game's view type.
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import astuple


class PatchOp(msgspec.Struct, frozen=True, omit_defaults=True):
    op: str
    path: str
    value: Any = msgspec.UNSET


def pointer(parent: str, key: str | int) -> str:
    """``parent`` extended by ``key``, escaped as RFC 6901 asks (``~0``, ``~1``)."""
    text = str(key)
    if "~" in text or "/" in text:
        text = text.replace("~", "~0").replace("/", "~1")
    return f"{parent}/{text}"


def diff(before: Any, after: Any) -> list[PatchOp]:
    """The operations that turn ``before`` into ``after`` (plain data or view Structs)."""
    ops: list[PatchOp] = []
    _diff(before, after, "", ops)
    return ops


_PLAIN_SCALARS = frozenset({str, int, bool, float, type(None)})


def plain(value: Any) -> Any:
    """``value`` as plain data, as a view's patch carries it."""
    if type(value) in _PLAIN_SCALARS:
        return value
    return msgspec.to_builtins(value, str_keys=True)


_STEPS: dict[type, tuple[str, ...] | None] = {}


def _steps(kind: type) -> tuple[str, ...] | None:
    """The pointer steps (``/name``, escaped) to a Struct type's fields in plain data, in order,
    when its plain form is an object of its fields; None for any other."""
    try:
        return _STEPS[kind]
    except KeyError:
        pass
    config = kind.__struct_config__  # type: ignore[attr-defined]
    steps: tuple[str, ...] | None = None
    if not (config.array_like or config.omit_defaults or config.tag is not None):
        names: tuple[str, ...] = kind.__struct_encode_fields__  # type: ignore[attr-defined]
        steps = tuple(pointer("", name) for name in names)
    _STEPS[kind] = steps
    return steps


def _diff_fields(
    before: Any, after: Any, steps: tuple[str, ...], path: str, ops: list[PatchOp]
) -> None:
    """Two Structs of one type, field by field."""
    for step, old, new in zip(steps, astuple(before), astuple(after), strict=True):
        if old is new or old == new:
            continue
        if type(new) in _PLAIN_SCALARS:
            # What _diff would say of any value that became a scalar.
            ops.append(PatchOp("replace", path + step, new))
            continue
        if type(new) is dict or type(old) is dict:
            # Its keys as plain data names them (a Struct's dict may have others).
            old, new = plain(old), plain(new)
        _diff(old, new, path + step, ops)


def _diff(before: Any, after: Any, path: str, ops: list[PatchOp]) -> None:
    # Equality is checked in C before any Python walks a subtree: most of a view is unchanged.
    if before is after or before == after:
        return
    kind = type(after)
    if isinstance(after, msgspec.Struct) or isinstance(before, msgspec.Struct):
        steps = _steps(kind) if type(before) is kind else None
        if steps is not None:
            _diff_fields(before, after, steps, path, ops)
            return
        before, after = plain(before), plain(after)
        kind = type(after)
    if kind is tuple:
        kind = list
    if (list if type(before) is tuple else type(before)) is not kind:
        ops.append(PatchOp("replace", path, plain(after)))
    elif kind is dict:
        for key in before:
            if key not in after:
                ops.append(PatchOp("remove", pointer(path, key)))
        for key, value in after.items():
            if key not in before:
                ops.append(PatchOp("add", pointer(path, key), plain(value)))
            elif before[key] != value:
                _diff(before[key], value, pointer(path, key), ops)
    elif kind is list:
        common = min(len(before), len(after))
        if common == 0 and before != after:
            ops.append(PatchOp("replace", path, plain(after)))
            return
        for index in range(common):
            if before[index] != after[index]:
                _diff(before[index], after[index], pointer(path, index), ops)
        # Items past the common length: dropped from the end (last first) or appended.
        for index in range(len(before) - 1, common - 1, -1):
            ops.append(PatchOp("remove", pointer(path, index)))
        for index in range(common, len(after)):
            ops.append(PatchOp("add", pointer(path, index), plain(after[index])))
    else:
        ops.append(PatchOp("replace", path, plain(after)))
