"""What changed between two views, as a JSON Patch (RFC 6902) that a client applies in order.

A view is plain data (dicts, lists or tuples, strings, numbers, booleans, None: what
``msgspec.to_builtins`` makes of a view Struct; a tuple travels as a JSON array). The patch uses
three operations: ``add`` and ``remove`` for object members and for items appended to or dropped
from the end of a list, ``replace`` for everything else. Paths are JSON Pointers (RFC 6901).
Applying ``diff(a, b)`` to ``a`` gives ``b`` exactly; the patch is deterministic for the same two
views.

Unchanged subtrees are skipped by Python's own (C) equality, which takes ``1``, ``1.0`` and ``True``
for equal. Views never meet that case: a view field has one JSON type from version to version (no
field admits both a boolean and a number, none is ``Any`` or a float), which
``tests/projections/test_patch.py`` checks for every registered game's view type.
"""

from __future__ import annotations

from typing import Any

import msgspec


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
    """The operations that turn ``before`` into ``after``."""
    ops: list[PatchOp] = []
    _diff(before, after, "", ops)
    return ops


def _diff(before: Any, after: Any, path: str, ops: list[PatchOp]) -> None:
    # Equality is checked in C before any Python walks a subtree: most of a view is unchanged.
    if before is after or before == after:
        return
    kind = type(after)
    if kind is tuple:
        kind = list
    if (list if type(before) is tuple else type(before)) is not kind:
        ops.append(PatchOp("replace", path, after))
    elif kind is dict:
        for key in before:
            if key not in after:
                ops.append(PatchOp("remove", pointer(path, key)))
        for key, value in after.items():
            if key not in before:
                ops.append(PatchOp("add", pointer(path, key), value))
            elif before[key] != value:
                _diff(before[key], value, pointer(path, key), ops)
    elif kind is list:
        common = min(len(before), len(after))
        if common == 0 and before != after:
            ops.append(PatchOp("replace", path, after))
            return
        for index in range(common):
            if before[index] != after[index]:
                _diff(before[index], after[index], pointer(path, index), ops)
        # Items past the common length: dropped from the end (last first) or appended.
        for index in range(len(before) - 1, common - 1, -1):
            ops.append(PatchOp("remove", pointer(path, index)))
        for index in range(common, len(after)):
            ops.append(PatchOp("add", pointer(path, index), after[index]))
    else:
        ops.append(PatchOp("replace", path, after))
