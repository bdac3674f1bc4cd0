"""Every ruleset Machina has released, each as it played: today's rules over the content pack
of its time (``packs/<content version>/``, never edited once released), put in play for each
call (:mod:`domain.core.packs`).

The ruleset in force is :class:`~domain.machina.game.MachinaGame` over ``content/``; the
rulesets here are older. ``docs/releases.md`` says how a ruleset is added and retired.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import msgspec

from domain.core.game import Game
from domain.core.packs import PlayedWith
from domain.core.ruleset import content_version, ruleset_name
from domain.machina.content_load import IN_PLAY, Pack, load_content
from domain.machina.game import RULES_VERSION, MachinaGame

PACKS = Path(__file__).parent / "packs"


def with_pack(version: int, rules: int = RULES_VERSION, name: str = "") -> Callable[[], Game]:
    """Today's rules over the content pack ``version``, their switches set to ``rules``; the
    ruleset is called ``name`` when its name predates content versions."""

    def build() -> Game:
        folder = PACKS / str(version)
        game = MachinaGame()
        ruleset = name or ruleset_name("machina", rules, content_version(folder))
        info = msgspec.structs.replace(game.info, ruleset=ruleset)
        pack = Pack(load_content(folder), rules)
        played: Game = PlayedWith(game, info, IN_PLAY, pack, folder)
        return played

    return build


RELEASES: dict[str, Callable[[], Game]] = {
    # The first rules and content, before the ruleset named its content version: the same rules
    # and pack as machina/1+content.1 (its streams are those of machina/1+content.1, but for the
    # name recorded at creation).
    "machina/1": with_pack(1, rules=1, name="machina/1"),
    "machina/1+content.1": with_pack(1, rules=1),
    "machina/2+content.1": with_pack(1),
}
