from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from domain.core.content_decode import ContentDecoder, Invalid, Problem, problems

Colour = Literal["green", "blue"]
Count = Annotated[int, msgspec.Meta(ge=1, description="a whole number of at least 1")]


class Leaf(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    colour: Colour
    amount: Count = 1


class Tree(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    leaves: tuple[Leaf, ...]
    stock: dict[Colour, Count] = {}
    height: Count | None = None
    later: tuple[msgspec.Raw, ...] = ()


TREE = ContentDecoder(Tree)


def test_a_value_that_fits_has_no_problems() -> None:
    assert problems({"name": "oak", "leaves": [{"colour": "green"}]}, Tree) == []
    assert TREE.decode(b'{"name": "oak", "leaves": []}') == Tree("oak", ())


def test_every_broken_field_is_named_not_only_the_first() -> None:
    value = {
        "leaves": [{"colour": "red"}, {"colour": "blue", "amount": 0}, {"colur": "green"}],
        "stock": {"gold": 2, "green": 0},
        "height": -1,
        "later": [{"anything": True}],
    }
    assert problems(value, Tree) == [
        Problem(("name",), "This required field is missing."),
        Problem(("leaves", 0, "colour"), "Expected one of green, blue, got 'red'."),
        Problem(("leaves", 1, "amount"), "Expected a whole number of at least 1."),
        Problem(("leaves", 2, "colour"), "This required field is missing."),
        Problem(("leaves", 2), "Unknown field 'colur'; expected one of colour, amount."),
        Problem(("stock", "gold"), "Expected one of green, blue, got 'gold'."),
        Problem(("stock", "green"), "Expected a whole number of at least 1."),
        Problem(("height",), "Expected a whole number of at least 1."),
    ]


def test_a_value_of_the_wrong_json_type_keeps_msgspecs_wording() -> None:
    assert problems({"name": 3, "leaves": {}}, Tree) == [
        Problem(("name",), "Expected `str`, got `int`."),
        Problem(("leaves",), "Expected `array`, got `object`."),
    ]


def test_the_decoder_raises_every_problem_with_the_plain_value() -> None:
    with pytest.raises(Invalid) as caught:
        TREE.decode(b'{"name": "oak", "leaves": [{"colour": "red"}], "roots": 3}')
    assert [p.path for p in caught.value.problems] == [("leaves", 0, "colour"), ()]
    assert caught.value.value["roots"] == 3


def test_text_that_is_not_json_stays_a_decode_error() -> None:
    with pytest.raises(msgspec.DecodeError):
        TREE.decode(b"{ not json")
