"""The example game, Lighthouse Watch (``examples/lighthouse``), importable from a checkout where
it is not installed, and broken copies of it that the game kit must catch."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import msgspec

from domain.core.errors import IllegalAction
from domain.core.rng import Chance, Rng

FOLDER = Path(__file__).resolve().parents[2] / "examples" / "lighthouse"

if str(FOLDER) not in sys.path:
    sys.path.append(str(FOLDER))

from lighthouse_watch import GAME, LighthouseGame  # noqa: E402
from lighthouse_watch.content import CONTENT  # noqa: E402
from lighthouse_watch.rules import Light, LighthouseState, Shuffled  # noqa: E402

__all__ = ["FOLDER", "GAME", "ClockShuffle", "LeakyView", "RefusesBeacons"]


class LeakyView(LighthouseGame):
    """Shows a keeper the other keeper's lamps too."""

    def view(self, state: LighthouseState, seat: str | None) -> Any:
        seen = super().view(state, seat)
        if seat is None:
            return seen
        other = next(s for s in state.seats if s != seat)
        theirs = super().view(state, other).your_lamps
        return msgspec.structs.replace(seen, your_lamps=f"{seen.your_lamps}; {other}: {theirs}")


class ClockShuffle(LighthouseGame):
    """Shuffles with the clock instead of the campaign's generator."""

    def setup(self, state: LighthouseState) -> list[Any]:
        chance = Chance(Rng(time.time_ns()))
        lamps = chance.shuffled(sorted(CONTENT.lamps))
        storms = chance.shuffled(sorted(CONTENT.storms))
        return [Shuffled(lamps, storms, 0)]


class RefusesBeacons(LighthouseGame):
    """Offers every lamp in hand but will not light a beacon."""

    def decide(self, state: LighthouseState, seat: str, action: Any) -> list[Any]:
        if isinstance(action, Light) and action.lamp.startswith("beacon"):
            raise IllegalAction("Beacons are not lit on these nights.")
        return super().decide(state, seat, action)
