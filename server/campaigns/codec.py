"""How events and snapshots are laid out in a store, per game.

A stored payload is a MessagePack ``Envelope``: the event (tagged, so a decoder built for one
game's union reads it), the hash of the state it produced, and who caused it. The store supplies
the version; :class:`Recorded` pairs them for everyone above the store.

The envelope grows by schema evolution only: a new field goes last, with a default, so a payload
stored before it existed decodes with the default (an envelope is a MessagePack array, and msgspec
fills in the fields an array leaves out).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import msgspec

from domain.core.events import CampaignCreated, CoreEvent
from domain.core.game import Game, Step
from domain.core.hashing import state_hash
from domain.games import game_of, get_game

if TYPE_CHECKING:
    from server.store.base import StoredEvent

E = TypeVar("E")


class Envelope(msgspec.Struct, Generic[E], frozen=True, array_like=True):
    event: E
    hash: str
    seat: str | None = None
    command: str | None = None
    at_ms: int = 0
    settled: bool = True
    """False for every event of an append but the last: the state it leaves is one the game
    passes through while resolving an action, never one a seat decides from. Events stored
    before this field existed read as settled."""
    action: str | None = None
    """The id of the legal action the seat chose (:func:`domain.core.game.action_id`), on each
    event the command caused; None for events no seat's action caused (creation, set-up, a
    rewind) and for events stored before this field existed, whose action
    :func:`server.campaigns.actions.with_actions` works out again."""


class Recorded(msgspec.Struct, Generic[E], frozen=True):
    """One event of a campaign with its version: what replay, projections and exports read."""

    version: int
    event: E
    hash: str
    seat: str | None = None
    command: str | None = None
    at_ms: int = 0
    settled: bool = True
    """See :attr:`Envelope.settled`."""
    action: str | None = None
    """See :attr:`Envelope.action`."""


class Codec:
    """Encoders and decoders for one game, built once and reused."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.event_type: Any = CoreEvent | game.event_type
        self._encoder = msgspec.msgpack.Encoder()
        self._envelope = msgspec.msgpack.Decoder(Envelope[self.event_type])  # type: ignore[name-defined]
        self._raw = msgspec.msgpack.Decoder(Envelope[msgspec.Raw])
        self._state = msgspec.msgpack.Decoder(game.state_type)

    def encode(self, envelope: Envelope[Any]) -> bytes:
        return self._encoder.encode(envelope)

    def decode(self, data: bytes) -> Envelope[Any]:
        return self._envelope.decode(data)

    def decode_recorded(self, version: int, data: bytes) -> Recorded[Any]:
        env = self._envelope.decode(data)
        return Recorded(
            version, env.event, env.hash, env.seat, env.command, env.at_ms, env.settled, env.action
        )

    def encode_steps(
        self,
        version: int,
        steps: Sequence[Step],
        seat: str | None,
        command_id: str | None,
        now_ms: int,
        action: str | None = None,
    ) -> tuple[list[bytes], list[Recorded[Any]]]:
        """The payloads of ``steps`` (which follow ``version``) and the events as recorded: each
        with the hash of the state it leaves and the id of the ``action`` that caused them; only
        the last is settled."""
        payloads: list[bytes] = []
        recorded: list[Recorded[Any]] = []
        last = len(steps) - 1
        for index, (event, state) in enumerate(steps):
            version += 1
            digest = state_hash(state)
            settled = index == last
            payloads.append(
                self.encode(Envelope(event, digest, seat, command_id, now_ms, settled, action))
            )
            recorded.append(
                Recorded(version, event, digest, seat, command_id, now_ms, settled, action)
            )
        return payloads, recorded

    def decode_stored(self, stored: Iterable[StoredEvent]) -> list[Recorded[Any]]:
        """Stored events, decoded, in their order."""
        decode = self.decode_recorded
        return [decode(e.version, e.data) for e in stored]

    def hash_of(self, data: bytes) -> str:
        """The stored state hash of a payload, without decoding its event."""
        return self._raw.decode(data).hash

    def encode_state(self, state: Any) -> bytes:
        return self._encoder.encode(state)

    def decode_state(self, data: bytes) -> Any:
        return self._state.decode(data)


_codecs: dict[tuple[str, str], Codec] = {}


def codec_for(game: Game) -> Codec:
    """The codec of ``game`` under its ruleset (an old ruleset kept as a frozen module has
    events and states of its own)."""
    key = (game.info.name, game.info.ruleset)
    codec = _codecs.get(key)
    if codec is None:
        codec = _codecs[key] = Codec(game)
    return codec


def stream_game(name: str, first: bytes) -> tuple[Game, CampaignCreated]:
    """The game a stored campaign of ``name`` is played by, from its first payload (its
    creation, which names the ruleset): raises UnsupportedRuleset for a ruleset never released
    here, UnknownGame for a game not installed."""
    created = codec_for(get_game(name)).decode(first).event
    if not isinstance(created, CampaignCreated):
        raise ValueError(f"A campaign of {name} begins with {type(created).__name__}.")
    return game_of(created), created
