"""Seat tokens survive the places people paste them: URLs, headers and command lines."""

from __future__ import annotations

import re

from cli.main import build_parser
from server.campaigns.tokens import new_token, new_tokens, seat_for, token_attrs

DRAWS = 3_000
"""Enough fresh tokens that, were one in 64 to start with ``-``, dozens here would."""


def test_no_fresh_token_starts_with_a_dash() -> None:
    tokens = [new_token() for _ in range(DRAWS)]
    assert all(re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9_-]{31}", token) for token in tokens)
    assert len(set(tokens)) == DRAWS


def test_every_fresh_token_passes_as_a_command_line_argument() -> None:
    parser = build_parser()
    for _ in range(DRAWS // 10):
        token = new_token()
        args = parser.parse_args(["analyse", "c1", "--token", token])
        assert args.token == token


def test_each_seat_gets_its_own_token_that_opens_only_it() -> None:
    tokens = new_tokens(["gil", "ennis"])
    attrs = token_attrs(tokens)
    assert tokens["gil"] != tokens["ennis"]
    assert seat_for(attrs, tokens["gil"]) == "gil"
    assert seat_for(attrs, tokens["ennis"]) == "ennis"
