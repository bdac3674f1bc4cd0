"""One decision point's estimate, computed beside the event loop from what its seat knew.

As for a bot's move (:mod:`server.bots.thinking`), the event loop first turns the true states
into *observations*: the game's sampler replaces everything the acting seat could not see by a
completion drawn from the analysis's own generator. Only those leave for the worker, which
never holds the campaign's hidden state or its future luck. The estimate samples again before it
plays (the sampler keeps only what the seat sees), so the figures are those the seat's own
information gives.
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.analysis.analyse import point
from domain.analysis.decisions import Decision
from domain.analysis.levels import analysis_level
from domain.analysis.report import Point
from domain.bots.knowledge import knowledge_of
from domain.core.game import Game
from domain.games import game_for, get_game
from server.bots.thinking import decision_seed, observation

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(Point)


class Observed(msgspec.Struct, frozen=True):
    """What a worker is handed for one decision point: nothing its seat could not see."""

    game: str
    version: int
    seat: str
    played: str
    """The id of the action played."""
    seen: Any
    """A state the seat could have been in when it acted."""
    after_version: int
    seen_after: Any
    """A state the seat could have been in once its move was made (what it then saw)."""
    ruleset: str = ""
    """The campaign's ruleset (empty: the one in force)."""


def analysis_seed(campaign_id: str) -> int:
    """The seed of a campaign's analysis: the same figures whoever asks, in any process."""
    return decision_seed(campaign_id, "", 0, "analysis")


def observe(game: Game, campaign_id: str, decision: Decision) -> Observed:
    """The decision point as its seat knew it. Runs on the event loop side."""
    seed = decision_seed(campaign_id, decision.seat, decision.version, "analysis")
    later = decision_seed(campaign_id, decision.seat, decision.after_version, "analysis/after")
    return Observed(
        game=game.info.name,
        version=decision.version,
        seat=decision.seat,
        played=decision.played.id,
        seen=observation(game, decision.state, decision.seat, seed),
        after_version=decision.after_version,
        seen_after=observation(game, decision.after, decision.seat, later),
        ruleset=game.info.ruleset,
    )


def estimate(observed: Observed, level: int, seed: int) -> bytes:
    """The point's estimate, encoded as it is kept. Runs in a worker."""
    game = (
        game_for(observed.game, observed.ruleset) if observed.ruleset else get_game(observed.game)
    )
    offered = {legal.id: legal for legal in game.legal_actions(observed.seen, observed.seat)}
    decision = Decision(
        version=observed.version,
        state=observed.seen,
        seat=observed.seat,
        played=offered[observed.played],
        events=(),
        after_version=observed.after_version,
        after=observed.seen_after,
    )
    found = point(game, knowledge_of(game), decision, analysis_level(level), seed)
    return encode(found)


def encode(found: Point) -> bytes:
    return _encoder.encode(found)


def decode(data: bytes) -> Point:
    return _decoder.decode(data)
