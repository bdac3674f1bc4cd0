"""Stored campaigns of older rulesets, built from ``tests/recorded``: each recording's events as
a server of its ruleset stored them, with a seat and command id on each move's events (and no
action ids, as streams stored before the envelope kept them)."""

from __future__ import annotations

from typing import Any

from domain.core.errors import InvalidOptions
from domain.core.hashing import seed_commitment
from domain.games import game_for, get_game
from server.campaigns.codec import Envelope, codec_for
from server.campaigns.service import SEED_HASH
from server.store.contract import EventStore
from tests.recorded.streams import Recording, decoded, recordings


def older() -> dict[str, Recording]:
    """Every recording of an older ruleset, by ``<ruleset> <scenario>``."""
    return {
        f"{r.ruleset} {path.stem}": r
        for path, r in recordings()
        if r.ruleset != get_game(r.game).info.ruleset and r.actions
    }


async def store_recording(
    store: EventStore,
    campaign_id: str,
    recording: Recording,
    *,
    attrs: dict[str, str] | None = None,
) -> None:
    game = game_for(recording.game, recording.ruleset)
    codec = codec_for(game)
    seats = {taken.at + 1: taken for taken in recording.actions}  # an action's first event
    payloads = []
    taken = None
    for (version, event), line in zip(decoded(game, recording), recording.events, strict=True):
        taken = seats.get(version, taken)  # the events after a move's first are its own
        seat, command = (taken.seat, f"c{taken.at}") if taken else (None, None)
        payloads.append(codec.encode(Envelope(event, line.hash, seat, command)))
    created = recording.events[0].event
    all_attrs = {SEED_HASH: seed_commitment(created["seed"], created["salt"]), **(attrs or {})}
    await store.create(campaign_id, recording.game, now_ms=0, events=payloads, attrs=all_attrs)


class Refusing:
    """Today's game of Eila, except that it refuses every creation: a ruleset that cannot start
    from an older campaign's (a seat layout or an option it no longer has)."""

    def __init__(self, game: Any) -> None:
        self._game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def initial(self, created: Any) -> Any:
        raise InvalidOptions("Eila no longer takes these options.")
