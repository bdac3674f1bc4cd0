from __future__ import annotations

import pytest

from domain.core.errors import UnknownGame, UnsupportedRuleset
from domain.core.events import CampaignCreated
from domain.games import GAMES, game_for, game_of, get_game, rulesets_of


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_ruleset_in_force_is_the_last_released_and_the_game_itself(name: str) -> None:
    game = get_game(name)
    released = rulesets_of(name)
    assert released[-1] == game.info.ruleset
    assert len(set(released)) == len(released)
    assert game_for(name, game.info.ruleset) is game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_released_ruleset_builds_a_game_that_names_it(name: str) -> None:
    for ruleset in rulesets_of(name):
        game = game_for(name, ruleset)
        assert (game.info.name, game.info.ruleset) == (name, ruleset)
        assert game_for(name, ruleset) is game  # built once


def test_a_ruleset_never_released_is_refused_with_words() -> None:
    kept = r"'gil-ennis/99\+content\.1'.*none of the rulesets it keeps"
    with pytest.raises(UnsupportedRuleset, match=kept):
        game_for("gil-ennis", "gil-ennis/99+content.1")
    created = CampaignCreated("eila", "eila/9", 1, "salt", ("player",), {})
    with pytest.raises(UnsupportedRuleset, match=r"It plays eila by .*'eila/4\+content\.5'"):
        game_of(created)


def test_a_game_not_installed_is_unknown_whatever_the_ruleset() -> None:
    with pytest.raises(UnknownGame):
        game_for("chess", "chess/1")
