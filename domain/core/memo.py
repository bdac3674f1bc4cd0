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
Threads may share a memo (servers run in threads by tests): every step is one operation on a dict
or a deque, each atomic; two threads that miss the same arguments at once both compute the answer.
"""

from __future__ import annotations

from collections import deque
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
    # The arguments' identities -> the arguments themselves (held, so that no other object can
    # take their identities while remembered) and the answer; and the identities, oldest first.
    memo: dict[tuple[int, ...], tuple[tuple[Any, ...], Any]] = {}
    order: deque[tuple[int, ...]] = deque()

    @wraps(function)
    def remembering(*args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            return function(*args, **kwargs)
        identities = tuple(map(id, args))
        known = memo.get(identities)
        if known is not None:
            result: R = known[1]
            return result
        answer = function(*args, **kwargs)
        memo[identities] = (args, answer)
        order.append(identities)
        if len(order) > KEEP:
            memo.pop(order.popleft(), None)
        return answer

    return remembering
