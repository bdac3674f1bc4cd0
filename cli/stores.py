"""Opening the store a command names, as every command that reads one does."""

from __future__ import annotations

import sys

from server.export.store_url import open_named
from server.store.contract import EventStore


def opened(url: str | None) -> tuple[EventStore, str] | None:
    """The store ``url`` names and the phrase that says which it is; None, with the reason said
    on standard error, when ``url`` names no store (the command then exits with status 2)."""
    try:
        return open_named(url)
    except ValueError as error:
        print(f"tabletale: {error}", file=sys.stderr)
        return None
