"""Every ruleset Eila has released, each as it played: today's rules over the content pack of its
time (the packs under ``packs/<content version>/``, never edited once released).

The ruleset in force is the game in :mod:`domain.eila.game` with the pack in ``content/``; the
rulesets here are older. ``docs/releases.md`` says how a ruleset is added and retired.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from domain.core.game import Game
from domain.eila.content import load_pack
from domain.eila.game import RULES_VERSION, EilaGame

PACKS = Path(__file__).parent / "packs"


def with_pack(version: int, rules: int = RULES_VERSION) -> Callable[[], Game]:
    """Today's rules code over the content pack ``version``, its switches set to ``rules``."""

    def build() -> Game:
        folder = PACKS / str(version)
        return EilaGame(load_pack(folder), folder, rules=rules)

    return build


RELEASES: dict[str, Callable[[], Game]] = {
    "eila/3+content.2": with_pack(2, rules=3),
    "eila/3+content.3": with_pack(3, rules=3),
    "eila/4+content.3": with_pack(3),
    "eila/4+content.4": with_pack(4),
}
