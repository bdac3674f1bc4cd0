"""The store's own format across releases: what a store says when it holds a newer one.

Each adapter keeps the version of its layout beside the data: the SQLite file in its
``user_version`` (:mod:`server.store.sqlite_schema`), a Redis key prefix in ``<prefix>:format``
(:mod:`server.store.redis_format`). A release brings an older format up to its own (the SQLite
file keeps a copy of itself first) and never reads a newer one: it refuses with
:class:`NewerFormat`, whose words say what it found, what it knows and what to run.
"""

from __future__ import annotations

from server.store.base import StoreUnavailable


class NewerFormat(StoreUnavailable):
    """The store was written by a newer release than this one: nothing is read or written.

    A ``StoreUnavailable``: every request answers 503 with these words, ``/readyz`` too, and
    ``serve`` stops before it listens."""

    def __init__(self, message: str, *, found: int, known: int) -> None:
        super().__init__(message)
        self.found = found
        self.known = known
