"""Which stored campaigns this server plays, read from their creation alone.

Every campaign records its game and ruleset in its first event, ``campaign/created``, a core
event that every server decodes whatever the game. A campaign of a game that is not installed
here, or of a ruleset this server does not implement (newer, retired), cannot be played here:
replaying it under other rules would change what happened in it. It is still read, listed,
counted and exported as stored; this module names it, in words that say which ruleset it has and
which this server plays. :func:`game_for` is the one place a stored creation is matched to
the game that plays it.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import msgspec

from domain.core.errors import UnknownGame, UnsupportedRuleset
from domain.core.events import CampaignCreated
from domain.core.game import Game
from domain.games import GAMES, game_of, rulesets_of
from projections.catalog import StoredRuleset
from server.campaigns.codec import Envelope
from server.store.contract import EventStore

_created = msgspec.msgpack.Decoder(Envelope[CampaignCreated])
_any = msgspec.msgpack.Decoder(Envelope[Any])


def played_rulesets() -> list[str]:
    """The rulesets this server plays, by name, sorted: every ruleset each game has released."""
    return sorted(ruleset for name in GAMES for ruleset in rulesets_of(name))


def played_words() -> str:
    played = played_rulesets()
    return ", ".join(repr(name) for name in played) if played else "none"


def unplayed_words(game: str, ruleset: str) -> str:
    """Why a campaign of ``game`` by ``ruleset`` is not played here, in a sentence."""
    what = f"of {game}" if game in GAMES else f"of {game}, a game this server does not have,"
    return (
        f"This campaign {what} was recorded under the ruleset {ruleset!r}, which this server "
        f"does not play (it plays {played_words()}): it can be read as stored, listed and "
        "exported here, not played, forked or replayed."
    )


def created_of(data: bytes) -> CampaignCreated:
    """The creation in a stored first event, whatever its game."""
    return _created.decode(data).event


def game_for(created: CampaignCreated) -> Game:
    """The game that plays a campaign created as ``created``; raises :class:`UnsupportedRuleset`
    in words when this server does not play it (its game is missing, or its ruleset)."""
    try:
        # The game as it plays under the ruleset the campaign was created with.
        return game_of(created)
    except (UnknownGame, UnsupportedRuleset):
        raise UnsupportedRuleset(unplayed_words(created.game, created.ruleset)) from None


def stored_ruleset(created: CampaignCreated) -> StoredRuleset:
    try:
        game_for(created)
    except UnsupportedRuleset as error:
        return StoredRuleset(
            created.game, created.ruleset, tuple(created.seats), played=False, unplayed=str(error)
        )
    return StoredRuleset(created.game, created.ruleset, tuple(created.seats))


def plain_envelope(data: bytes) -> Envelope[Any]:
    """A stored payload as plain data (its event a dict with its ``type`` first), whatever its
    game: for campaigns whose game's event types this server cannot decode."""
    return _any.decode(data)


class Rulesets:
    """The stored ruleset of campaigns, read from their first event once and remembered (a
    campaign's creation never changes)."""

    def __init__(self, store: EventStore, *, capacity: int = 4096) -> None:
        self._store = store
        self._capacity = capacity
        self._known: OrderedDict[str, StoredRuleset] = OrderedDict()

    async def of(self, campaign_id: str) -> StoredRuleset | None:
        """The campaign's ruleset; None while it has no event yet (being created). Raises
        :class:`~server.store.base.UnknownCampaign`."""
        known = self._known.get(campaign_id)
        if known is not None:
            self._known.move_to_end(campaign_id)
            return known
        first = await self._store.read(campaign_id, 0, 1)
        if not first:
            return None
        found = stored_ruleset(created_of(first[0].data))
        self._known[campaign_id] = found
        while len(self._known) > self._capacity:
            self._known.popitem(last=False)
        return found
