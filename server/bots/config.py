"""The bot driver's settings (``TABLETALE_BOT_*``, see :mod:`server.settings`)."""

from __future__ import annotations

from typing import Literal

import msgspec

BotPriority = Literal["idle", "low", "normal"]


class BotSettings(msgspec.Struct, frozen=True, kw_only=True):
    pace_ms: int = 800
    """How long a bot waits, from the moment it may act, before its move shows."""
    lease_ms: int = 5_000
    """How long a driver's lease lasts unless renewed (renewed every third of it)."""
    workers: int = 1
    """Processes that bots think in (0: one thread beside the event loop)."""
    priority: BotPriority = "idle"
    """How those processes stand back for the server (:func:`server.bots.thinking.start_worker`)."""
    poll_s: float = 1.0
    """How often a driven campaign is read when nothing told this process it changed."""
    away_s: float = 60.0
    """How long a seat's player must have been away before the others may hand it to a bot."""
