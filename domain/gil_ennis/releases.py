"""Every ruleset Gil & Ennis has released, each as it played: today's rules over the content pack
of its time (``packs/<content version>/``, never edited once released), put in play for each
call (:mod:`domain.core.packs`).

The ruleset in force is :class:`~domain.gil_ennis.game.GilEnnisGame` over ``content/``; the
rulesets here are older. ``docs/releases.md`` says how a ruleset is added and retired.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec

from domain.core.game import Game
from domain.core.packs import PlayedWith
from domain.core.ruleset import content_version, ruleset_name
from domain.gil_ennis.content import IN_PLAY, Pack, load_content
from domain.gil_ennis.game import RULES_VERSION, GilEnnisGame

PACKS = Path(__file__).parent / "packs"


def with_pack(version: int, rules: int = RULES_VERSION) -> Callable[[], Game]:
    """Today's rules over the content pack ``version``."""

    def build() -> Game:
        folder = PACKS / str(version)
        game = GilEnnisGame()
        ruleset = ruleset_name("gil-ennis", rules, content_version(folder))
        info = msgspec.structs.replace(game.info, ruleset=ruleset)
        played: Game = PlayedWith(game, info, IN_PLAY, Pack(load_content(folder)), folder)
        return played

    return build


def frozen_rules_1() -> Game:
    """Rules 1, frozen (:mod:`domain.gil_ennis.rules_v1`), over pack 1."""
    from domain.gil_ennis.rules_v1.content import CONTENT_DIR as PACK_1
    from domain.gil_ennis.rules_v1.game import GilEnnisGame as GilEnnisGame1

    game: Game = GilEnnisGame1()
    game.folder = PACK_1  # type: ignore[attr-defined]
    return game


RELEASES: dict[str, Callable[[], Game]] = {
    "gil-ennis/1": frozen_rules_1,
    "gil-ennis/2+content.1": with_pack(1),
}
