"""Which bot plays a seat: a policy and a level, checked against the game.

A seat's bot is stored as a spec string, ``search:2``. The server drives bot seats with the search
bot (:func:`domain.bots.make_policy`), the one policy that decides for one seat from what that
seat may see; its levels are the search bot's.
"""

from __future__ import annotations

import msgspec

from domain.bots.search_bot import DEFAULT_LEVEL, levels_for
from domain.core.errors import InvalidOptions
from domain.core.game import Game
from projections.log import bot_name

POLICIES = ("search",)
"""The policies a bot seat may play."""


class BotSpec(msgspec.Struct, frozen=True):
    policy: str
    level: int

    @property
    def text(self) -> str:
        return f"{self.policy}:{self.level}"

    @property
    def name(self) -> str:
        return bot_name(self.policy, self.level)


def levels_of(game: Game) -> tuple[int, ...]:
    """The levels a bot seat of ``game`` may play at (none: the game has no bots)."""
    return tuple(sorted(levels_for(game)))


def check_spec(game: Game, policy: str, level: int | None) -> BotSpec:
    """The bot ``policy`` at ``level`` (None: its default) for ``game``, or InvalidOptions that
    says what is allowed."""
    levels = levels_of(game)
    if not levels:
        raise InvalidOptions(f"{game.info.title} has no bots; every seat is played by a person.")
    if policy not in POLICIES:
        raise InvalidOptions(
            f"There is no bot policy {policy!r} for a seat; a bot seat plays "
            + " or ".join(repr(known) for known in POLICIES)
            + "."
        )
    chosen = DEFAULT_LEVEL if level is None else level
    if chosen not in levels:
        raise InvalidOptions(
            f"The {policy} bot plays {game.info.title} at level "
            + ", ".join(map(str, levels))
            + f", not at {chosen}."
        )
    return BotSpec(policy, chosen)


def parse_spec(text: str) -> BotSpec:
    """A stored spec (``search:2``) back as a BotSpec."""
    policy, _, level = text.partition(":")
    return BotSpec(policy, int(level) if level.isdigit() else DEFAULT_LEVEL)
