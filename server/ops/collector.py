"""Python's cyclic garbage collector, tuned for a server that keeps many objects alive.

CPython starts a young collection every 700 container allocations (``gc.get_threshold()``). An
action allocates hundreds (its states, events, view and frames), so under load young collections
run many times a second, and every object alive at one of them, a socket's buffers or a frame
still on its way, is promoted. The promoted pile up until a full collection walks every object of
the process: every socket's, every cached head's, every imported module's, tens of milliseconds
with a thousand sockets, during which the event loop answers nobody. (With 1,000 sessions acting
twice a second, those pauses alone set the 99th percentile round trip: about 25-55 ms with
CPython's default, under 5 ms tuned; ``docs/performance.md``.)

Nearly everything an action allocates is freed by reference counting well before a young
collection runs when they run a few times a second rather than many: far fewer objects are
promoted, so full collections are rarer and the walk stays short. Objects that live for the
whole process (modules, content packs, the app) are frozen out of every collection.
"""

from __future__ import annotations

import gc

DEFAULT_YOUNG_THRESHOLD = 20_000
"""Container allocations between young collections (CPython's default is 700)."""


def tune(young_threshold: int = DEFAULT_YOUNG_THRESHOLD) -> None:
    """Freeze what exists now out of every collection and space young collections out; older
    generations follow at 50 and 100 collections of the one below. 0 keeps CPython's thresholds."""
    gc.freeze()
    if young_threshold > 0:
        gc.set_threshold(young_threshold, 50, 100)
