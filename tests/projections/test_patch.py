"""View patches: applying ``diff(a, b)`` to ``a`` gives ``b``, for any two JSON documents."""

from __future__ import annotations

import copy
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clients.patch import PatchError, apply
from projections.patch import diff, pointer

keys = st.sampled_from(["a", "b", "c", "~", "x/y", "0", ""])
scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["s", "t", ""])
documents = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=4),
    max_leaves=25,
)


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


def test_a_bool_replacing_a_number_is_a_replacement() -> None:
    assert wire(diff({"x": 1}, {"x": True})) == [{"op": "replace", "path": "/x", "value": True}]


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
