"""The example game, Lighthouse Watch (``examples/lighthouse``), importable from a checkout where
it is not installed."""

from __future__ import annotations

import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parents[2] / "examples" / "lighthouse"

if str(FOLDER) not in sys.path:
    sys.path.append(str(FOLDER))

from lighthouse_watch import GAME, LighthouseGame  # noqa: E402

__all__ = ["FOLDER", "GAME", "LighthouseGame"]
