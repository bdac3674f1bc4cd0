"""View patches: applying ``diff(a, b)`` to ``a`` gives ``b``, for any two JSON documents."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clients.patch import PatchError, apply
from domain.games import GAMES
from projections.patch import diff, pointer
from tests.support.random_play import Picks, actions, begun

keys = st.sampled_from(["a", "b", "c", "~", "x/y", "0", ""])


def documents_of(scalars: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
        max_leaves=25,
    )


# A view field keeps one JSON type (see the precondition in projections/patch.py), so documents
# mix numbers with strings and null, or booleans with strings and null, never numbers with booleans.
numeric = documents_of(st.none() | st.integers(-3, 3) | st.sampled_from(["s", "t", ""]))
boolean = documents_of(st.none() | st.booleans() | st.sampled_from(["s", "t", ""]))
documents = numeric | boolean


def wire(ops: Any) -> Any:
    """The patch as a client receives it (through JSON)."""
    return msgspec.json.decode(msgspec.json.encode(ops))


@given(documents, documents)
def test_applying_the_diff_turns_one_document_into_the_other(before: Any, after: Any) -> None:
    patched = apply(copy.deepcopy(before), wire(diff(before, after)))
    assert patched == after


@given(documents)
def test_a_document_against_itself_needs_no_operation(document: Any) -> None:
    assert diff(document, copy.deepcopy(document)) == []


def test_tuples_travel_as_arrays_and_are_patched_item_by_item() -> None:
    ops = wire(diff({"totals": (1, 2, 3)}, {"totals": (1, 5, 3, 4)}))
    assert ops == [
        {"op": "replace", "path": "/totals/1", "value": 5},
        {"op": "add", "path": "/totals/3", "value": 4},
    ]
    assert apply({"totals": [1, 2, 3]}, ops) == {"totals": [1, 5, 3, 4]}


def _mixed_types(kind: mi.Type, path: str, seen: set[type]) -> list[str]:
    """Where ``kind`` lets one path hold values that Python's equality confuses."""
    match kind:
        case mi.StructType(cls=cls, fields=fields):
            if cls in seen:
                return []
            seen.add(cls)
            return [m for f in fields for m in _mixed_types(f.type, f"{path}.{f.name}", seen)]
        case mi.UnionType(types=members):
            found = [m for member in members for m in _mixed_types(member, path, seen)]
            names = {type(member).__name__ for member in members}
            if "BoolType" in names and names & {"IntType", "FloatType"}:
                found.append(f"{path} is a boolean or a number")
            return found
        case mi.ListType(item_type=item) | mi.VarTupleType(item_type=item):
            return _mixed_types(item, path + "[]", seen)
        case mi.TupleType(item_types=items):
            return [m for n, i in enumerate(items) for m in _mixed_types(i, f"{path}[{n}]", seen)]
        case mi.DictType(value_type=value):
            return _mixed_types(value, path + "{}", seen)
        case mi.AnyType():
            return [f"{path} may hold anything"]
        case mi.FloatType():
            return [f"{path} is a float"]
    return []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_view_keeps_one_json_type_per_field(name: str) -> None:
    view_type = GAMES[name].view_type
    assert _mixed_types(mi.type_info(view_type), view_type.__name__, set()) == []


def test_pointers_escape_tilde_and_slash() -> None:
    assert pointer("", "a/b~c") == "/a~1b~0c"
    assert apply({"a/b~c": 1}, [{"op": "replace", "path": "/a~1b~0c", "value": 2}]) == {"a/b~c": 2}


@pytest.mark.parametrize(
    "ops",
    [
        [{"op": "replace", "path": "/missing", "value": 1}],
        [{"op": "remove", "path": "/list/5"}],
        [{"op": "move", "path": "/a", "from": "/b"}],
        [{"op": "replace", "path": "no-slash", "value": 1}],
        [{"op": "add", "path": "/a/b", "value": 1}],
    ],
)
def test_a_patch_that_does_not_fit_is_an_error(ops: list[dict[str, Any]]) -> None:
    with pytest.raises(PatchError):
        apply({"a": 1, "list": [1, 2]}, ops)


VIEW_CONFIGURATIONS = [
    ("gil-ennis", ("player",), {}),
    ("gil-ennis", ("gil", "ennis"), {}),
    ("eila", ("player",), {"chapter": 3, "mode": "advanced"}),
    *[("machina", seats, {}) for seats in GAMES["machina"].info.seat_layouts[:2]],
]


@pytest.mark.parametrize(("name", "seats", "options"), VIEW_CONFIGURATIONS)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), picker=st.integers(0, 2**32))
def test_views_as_structs_patch_as_their_plain_data_does(
    name: str, seats: tuple[str, ...], options: dict[str, Any], seed: int, picker: int
) -> None:
    """The patch between two versions' view Structs is the one between their plain data, at
    every version of random playthroughs, for every viewer (the server diffs Structs)."""
    game = GAMES[name]
    state = begun(game, seats, seed, options)
    views = {viewer: game.view(state, viewer) for viewer in (*seats, None)}
    for _, _, steps in actions(game, state, Picks(picker), limit=120):
        for _, state in steps:
            for viewer, before in views.items():
                after = game.view(state, viewer)
                plain_ops = diff(
                    msgspec.to_builtins(before, str_keys=True),
                    msgspec.to_builtins(after, str_keys=True),
                )
                assert wire(diff(before, after)) == wire(plain_ops)
                views[viewer] = after
