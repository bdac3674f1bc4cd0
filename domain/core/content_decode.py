"""Decoding content files through typed Structs, naming every problem instead of the first.

msgspec stops at the first value that does not fit the type. When a content file does not decode,
:func:`problems` walks its plain JSON against the same type, so one check reports every broken
field, each with the path of keys and indices that leads to it. A constrained type can word its
problem itself: ``Annotated[str, Meta(min_length=1, description="a non-empty string")]`` reports
"Expected a non-empty string."
"""

from __future__ import annotations

import types
from typing import Annotated, Any, Generic, Literal, TypeVar, Union, get_args, get_origin

import msgspec

T = TypeVar("T")
FieldPath = tuple[str | int, ...]


class Problem(msgspec.Struct, frozen=True, gc=False):
    path: FieldPath
    """The keys and indices from the top of the decoded value down to the broken field."""
    message: str


class Invalid(Exception):
    """A value that does not fit its type; ``value`` is the plain JSON, to name cards by."""

    def __init__(self, problems: list[Problem], value: Any) -> None:
        super().__init__(problems[0].message)
        self.problems = problems
        self.value = value


class ContentDecoder(Generic[T]):
    """A ``msgspec.json.Decoder`` for ``kind``, built once, that names every problem on failure."""

    def __init__(self, kind: type[T]) -> None:
        self.kind = kind
        self._decoder = msgspec.json.Decoder(kind)

    def decode(self, data: bytes) -> T:
        """``data`` as ``kind``, or :class:`Invalid` with every problem.

        Text that is not JSON at all raises ``msgspec.DecodeError`` as usual.
        """
        try:
            return self._decoder.decode(data)
        except msgspec.ValidationError:
            value = msgspec.json.decode(data)
            raise Invalid(problems(value, self.kind), value) from None


def problems(value: Any, kind: Any, path: FieldPath = ()) -> list[Problem]:
    """Every problem of ``value`` as the type ``kind``; an empty list when it fits."""
    inner = _bare(kind)
    if inner is msgspec.Raw or (isinstance(value, list) and _item_type(inner) is msgspec.Raw):
        return []  # raw JSON is decoded later, on its own
    try:
        msgspec.convert(value, kind)
    except msgspec.ValidationError as exc:
        first = [Problem(path, _message(exc, kind, value))]
    else:
        return []
    found: list[Problem] = []
    if isinstance(inner, type) and issubclass(inner, msgspec.Struct) and isinstance(value, dict):
        found = _struct_problems(value, inner, path)
    elif isinstance(value, list) and (item := _item_type(inner)) is not None:
        found = [p for i, v in enumerate(value) for p in problems(v, item, (*path, i))]
    elif isinstance(value, dict) and get_origin(inner) is dict:
        key_type, value_type = get_args(inner)
        for key, item in value.items():
            found += problems(key, key_type, (*path, key))
            found += problems(item, value_type, (*path, key))
    # Constraints on a whole list or object (a length, say) leave every part well-formed.
    return found or first


def _struct_problems(
    value: dict[str, Any], struct: type[msgspec.Struct], path: FieldPath
) -> list[Problem]:
    fields = msgspec.structs.fields(struct)
    found: list[Problem] = []
    for field in fields:
        if field.encode_name in value:
            found += problems(value[field.encode_name], field.type, (*path, field.encode_name))
        elif field.required:
            found.append(Problem((*path, field.encode_name), "This required field is missing."))
    if struct.__struct_config__.forbid_unknown_fields:
        known = [field.encode_name for field in fields]
        for key in value:
            if key not in known:
                # The key names no field, so the problem belongs to the object that holds it.
                message = f"Unknown field {key!r}; expected one of {', '.join(known)}."
                found.append(Problem(path, message))
    return found


def _message(exc: msgspec.ValidationError, kind: Any, value: Any) -> str:
    inner = _bare(kind)
    if get_origin(inner) is Literal:
        allowed = ", ".join(str(a) for a in get_args(inner))
        return f"Expected one of {allowed}, got {value!r}."
    # A type can say in words what it expects; msgspec's own wording names JSON types instead.
    for meta in _metas(kind):
        if meta.description:
            return f"Expected {meta.description}."
    # msgspec appends where the problem is; the path already says that.
    return str(exc).split(" - at `")[0] + "."


def _bare(kind: Any) -> Any:
    """``kind`` without its constraints, and without ``None`` when that is its only alternative."""
    if get_origin(kind) is Annotated:
        return _bare(get_args(kind)[0])
    return _bare(_optional(kind)) if _optional(kind) is not kind else kind


def _metas(kind: Any) -> list[msgspec.Meta]:
    """The constraints on ``kind`` itself, or on the one type it allows besides ``None``."""
    kind = _optional(kind)
    if get_origin(kind) is not Annotated:
        return []
    return [meta for meta in get_args(kind)[1:] if isinstance(meta, msgspec.Meta)]


def _optional(kind: Any) -> Any:
    """``X`` for ``X | None``; anything else unchanged."""
    if get_origin(kind) in (Union, types.UnionType):
        rest = [a for a in get_args(kind) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return kind


def _item_type(kind: Any) -> Any:
    args = get_args(kind)
    if get_origin(kind) is list or (get_origin(kind) is tuple and args[1:] == (...,)):
        return args[0]
    return None
