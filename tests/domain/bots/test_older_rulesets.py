"""The search bot thinks about a campaign of an older ruleset with that ruleset's game: worlds
drawn with its pack in play, moves from its rules; a frozen ruleset without a sampler is refused
with words."""

from __future__ import annotations

import pytest

from domain.bots import make_policy
from domain.bots.knowledge import knowledge_of
from domain.core.engine import evolve
from domain.core.errors import InvalidOptions
from domain.core.events import CampaignCreated
from domain.games import game_for


@pytest.mark.parametrize("ruleset", ["gil-ennis/2+content.1", "machina/1", "eila/4+content.3"])
def test_the_search_bot_plays_a_move_of_an_older_ruleset(ruleset: str) -> None:
    game = game_for(ruleset.partition("/")[0], ruleset)
    seats = game.info.seat_layouts[0]
    created = CampaignCreated(game.info.name, ruleset, 7, "salt", seats, {})
    state = evolve(game, None, created)
    for event in game.setup(state):
        state = evolve(game, state, event)
    (seat, *_) = game.to_act(state)
    chosen = make_policy(game, 3, 1).decide(game, state, seat)
    assert chosen.id in {legal.id for legal in game.legal_actions(state, seat)}


def test_a_frozen_ruleset_is_refused_by_the_search_bot_with_words() -> None:
    with pytest.raises(InvalidOptions, match=r"'gil-ennis/1'"):
        knowledge_of(game_for("gil-ennis", "gil-ennis/1"))
