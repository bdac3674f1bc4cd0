"""Applying the server's view patches: JSON Patch (RFC 6902) ``add``, ``remove`` and ``replace``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class PatchError(ValueError):
    """A patch does not fit the document it was applied to (the client should ask for a sync)."""


def _tokens(path: str) -> list[str]:
    if path == "":
        return []
    if not path.startswith("/"):
        raise PatchError(f"The path {path!r} is not a JSON Pointer.")
    return [part.replace("~1", "/").replace("~0", "~") for part in path[1:].split("/")]


def _index(container: list[Any], token: str, *, adding: bool) -> int:
    if token == "-" and adding:
        return len(container)
    if not token.isdigit():
        raise PatchError(f"{token!r} is not a list index.")
    index = int(token)
    if index > len(container) or (index == len(container) and not adding):
        raise PatchError(f"The list has no index {index}.")
    return index


def apply(document: Any, ops: Iterable[Mapping[str, Any]]) -> Any:
    """``document`` with ``ops`` applied in order, changed in place (and returned, since a patch
    of the root replaces it). Values are taken from ``ops`` as they are, not copied."""
    for op in ops:
        document = _apply_one(document, op["op"], op["path"], op.get("value"))
    return document


def _apply_one(document: Any, kind: str, path: str, value: Any) -> Any:
    if kind not in ("add", "remove", "replace"):
        raise PatchError(f"The patch operation {kind!r} is not one this client applies.")
    tokens = _tokens(path)
    if not tokens:
        if kind == "remove":
            raise PatchError("The whole document cannot be removed.")
        return value
    parent = document
    for token in tokens[:-1]:
        if isinstance(parent, list):
            parent = parent[_index(parent, token, adding=False)]
        elif isinstance(parent, dict) and token in parent:
            parent = parent[token]
        else:
            raise PatchError(f"The path {path!r} leads nowhere.")
    last = tokens[-1]
    if isinstance(parent, dict):
        if kind in ("remove", "replace") and last not in parent:
            raise PatchError(f"The path {path!r} names no member.")
        if kind == "remove":
            del parent[last]
        else:
            parent[last] = value
    elif isinstance(parent, list):
        index = _index(parent, last, adding=kind == "add")
        if kind == "add":
            parent.insert(index, value)
        elif kind == "remove":
            del parent[index]
        else:
            parent[index] = value
    else:
        raise PatchError(f"The path {path!r} leads into a value that has no members.")
    return document
