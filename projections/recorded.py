"""The shape of a stored event that projections read (``server.campaigns.codec.Recorded``)."""

from __future__ import annotations

from typing import Any, Protocol


class RecordedEvent(Protocol):
    @property
    def version(self) -> int: ...

    @property
    def event(self) -> Any: ...

    @property
    def seat(self) -> str | None: ...

    @property
    def at_ms(self) -> int: ...
