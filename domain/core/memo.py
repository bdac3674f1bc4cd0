"""Answers of a pure function remembered for the last arguments it was given, by identity.

A server asks the rules about the same state several times in one action: whether it is a
decision point, its legal actions, who acts and the sentence saying whose move it is (in the
view). Listing what may be done is the costliest of those questions, so the function that lists
it remembers its answers. The server asks all of them for the acting seat at once, before it
awaits the store (``server.campaigns.head.Head.prepare``): while the store answers, a busy server
lists the states of hundreds of other moves, and an answer remembered by a memo of thousands
would hold as many states alive.

Arguments are matched by identity (``is``), never by equality or hash: comparing or hashing a
whole state would cost what the memo saves. The memo holds its arguments, so no other object can
take one's identity while it is remembered. Results are shared between callers, so a remembered
function returns immutable values (tuples). Remembering changes no result: the function is pure.
The memo is replaced whole on each miss, so threads that share it (servers run in threads by tests)
only ever read a complete one.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")

KEEP = 4
"""Answers remembered per function, the oldest forgotten first: the questions of one action (and
of the one before it). Each answer holds its arguments alive: a state, or a character card."""


def recent(function: Callable[P, R]) -> Callable[P, R]:
    """``function`` remembering its answers for the last :data:`KEEP` argument tuples."""
    # Each entry: the arguments' identities, the arguments themselves (held, so that no other
    # object can take their identities while remembered) and the answer.
    cell: list[tuple[tuple[tuple[int, ...], tuple[Any, ...], Any], ...]] = [()]

    @wraps(function)
    def remembering(*args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            return function(*args, **kwargs)
        identities = tuple(map(id, args))
        memo = cell[0]
        for known, _, answer in memo:
            if known == identities:
                result: R = answer
                return result
        answer = function(*args, **kwargs)
        cell[0] = ((identities, args, answer), *memo[: KEEP - 1])
        return answer

    return remembering
