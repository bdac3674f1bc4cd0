"""What the analysis routes answer."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from domain.analysis.report import Analysis, Move
from server.protocol.messages import CreatedOut

Level = Annotated[int, msgspec.Meta(ge=1, le=9)]
Version = Annotated[int, msgspec.Meta(ge=1)]
State = Literal["idle", "running", "done"]


class AnalysisRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    level: Level | None = None
    """The analysis level (``domain.analysis.levels``; none: the default)."""


class AnalysisQuery(msgspec.Struct, frozen=True):
    level: Level | None = None


class AnalysisOut(msgspec.Struct, frozen=True):
    """A campaign's analysis as far as it has gone, and as the asker may see it."""

    campaign: str
    level: int
    state: State
    """``idle``: nothing is being computed (none asked yet, cancelled, or stopped with the
    server); ``running``: decision points are being estimated; ``done``: all of them are."""
    done: int
    """Decision points estimated so far..."""
    total: int
    """...of this many."""
    seat: str | None
    """Whose decision points these are: a seat of a running campaign sees only its own (None:
    every acting seat's, the campaign has ended)."""
    version: int
    """The campaign's version the decision points were found up to."""
    analysis: Analysis
    """The points estimated so far, in order, and their turning points and luck."""


class TryRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    version: Version
    """The decision point to try the preferred move at (a turning point's version)."""
    level: Level | None = None


class TriedOut(msgspec.Struct, frozen=True):
    """A fork at the decision point with fresh luck, where the preferred move has been played."""

    fork: CreatedOut
    """The new campaign and its seats' tokens (shown once)."""
    seat: str
    move: Move
    """The move the analysis preferred, played as the fork's first move."""
    version: int
    """The fork's version after that move."""
