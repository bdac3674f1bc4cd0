from __future__ import annotations

from tests.support import dice_race

dice_race.register()
