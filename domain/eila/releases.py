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


def frozen_rules_2() -> Game:
    """Rules 2, frozen (:mod:`domain.eila.rules_v2`), over pack 1."""
    from domain.eila.rules_v2.content import DEFAULT_PACK as PACK_1
    from domain.eila.rules_v2.content import load_pack as load_pack_2
    from domain.eila.rules_v2.game import EilaGame as EilaGame2

    game: Game = EilaGame2(load_pack_2(PACK_1))
    game.folder = PACK_1  # type: ignore[attr-defined]
    return game


def frozen_rules_2_unkeyed() -> Game:
    """``eila-1``: rules 2 over pack 1, drawn from the generator before keyed chance."""
    from domain.eila.rules_v2.content import DEFAULT_PACK as PACK_1
    from domain.eila.rules_v2.content import load_pack as load_pack_2
    from domain.eila.rules_v2.game import UnkeyedEilaGame

    game: Game = UnkeyedEilaGame(load_pack_2(PACK_1))
    game.folder = PACK_1  # type: ignore[attr-defined]
    return game


RELEASES: dict[str, Callable[[], Game]] = {
    "eila-1": frozen_rules_2_unkeyed,
    "eila/2+content.1": frozen_rules_2,
    "eila/3+content.2": with_pack(2, rules=3),
    "eila/3+content.3": with_pack(3, rules=3),
    "eila/4+content.3": with_pack(3),
    "eila/4+content.4": with_pack(4),
}
