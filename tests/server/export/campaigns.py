"""Campaigns made quickly for the transfer tests: created through the service and played with
random legal actions, as a table would play them."""

from __future__ import annotations

from domain.bots.uniform_random import UniformRandom
from domain.games import get_game
from server.campaigns.service import CampaignService
from server.campaigns.tokens import PRIVATE, new_tokens, token_attrs

GAMES = ("gil-ennis", "eila", "machina")


async def played(
    service: CampaignService,
    game_name: str,
    *,
    seed: int,
    moves: int | None = None,
    private: bool = False,
) -> tuple[str, dict[str, str]]:
    """A new campaign of ``game_name`` with seat tokens, played with random legal actions for
    ``moves`` actions (None: to its end); returns its id and its seats' tokens."""
    tokens = new_tokens(get_game(game_name).info.seat_layouts[0])
    attrs = token_attrs(tokens)
    if private:
        attrs[PRIVATE] = "1"
    created = await service.create(game_name, seed=seed, attrs=attrs)
    await play_on(service, created.id, seed=seed, moves=moves)
    return created.id, tokens


async def play_on(
    service: CampaignService, campaign_id: str, *, seed: int, moves: int | None = None
) -> int:
    """Play ``campaign_id`` on with random legal actions; returns the version it reaches."""
    game = await service.game_of(campaign_id)
    bot = UniformRandom(seed)
    version, state = await service.state_at(campaign_id)
    done = 0
    while game.outcome(state) == "running" and (moves is None or done < moves):
        seat, choice = bot.choose(game, state)
        await service.act(campaign_id, seat, choice.id, expected_version=version)
        version, state = await service.state_at(campaign_id)
        done += 1
    return version
