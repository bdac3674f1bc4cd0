"""The campaign service: the application layer between callers (HTTP, WebSockets, CLI) and
the domain and store.

It creates campaigns, turns a seat's action id into events (``decide``), stamps each event with the
hash of the state it produces, appends them atomically at the version the caller saw, and rebuilds
any version's state (snapshot + later events, rewinds resolved). Head states are cached per
campaign; the store is the truth, so a cache that falls behind another process catches up.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from domain.core.engine import evolve, last_rewind, replay, states
from domain.core.errors import DomainError, IllegalAction, InvalidOptions, NotYourTurn
from domain.core.events import CampaignCreated, Options, Reseeded, Rewound
from domain.core.game import Game, LegalAction, Outcome
from domain.core.hashing import seed_commitment, state_hash
from domain.core.rng import SEED_BITS
from domain.games import get_game
from server.codec import Codec, Envelope, Recorded, codec_for
from server.fresh import Fresh, wall_clock_ms
from server.results import Acted, Created, Divergence, VerifyReport
from server.store.base import EventStore, VersionConflict

SEED_HASH = "seed_hash"
ORIGIN = "origin"  # the last version of the creation batch: rewinds may not go below it
SEEDED_AT = "seeded_at"  # the version of the event that set the seed in force (created or reseeded)


class UnknownSeat(DomainError):
    code = "forbidden"


class _Head:
    """A cached head state of one campaign."""

    __slots__ = ("codec", "game", "origin", "seats", "state", "version")

    def __init__(
        self, game: Game, seats: tuple[str, ...], origin: int, version: int, state: Any
    ) -> None:
        self.game = game
        self.codec: Codec = codec_for(game)
        self.seats = seats
        self.origin = origin
        self.version = version
        self.state = state


class CampaignService:
    def __init__(
        self,
        store: EventStore,
        *,
        clock: Callable[[], int] = wall_clock_ms,
        fresh: Fresh | None = None,
        snapshot_every: int = 500,
        cache_size: int = 1024,
    ) -> None:
        self.store = store
        self._clock = clock
        self._fresh = fresh or Fresh()
        self._snapshot_every = snapshot_every
        self._cache_size = cache_size
        self._heads: OrderedDict[str, _Head] = OrderedDict()

    # -- creating -------------------------------------------------------------------------

    async def create(
        self,
        game_name: str,
        *,
        seed: int | None = None,
        options: Options | None = None,
        seats: Sequence[str] | None = None,
        attrs: dict[str, str] | None = None,
    ) -> Created:
        game = get_game(game_name)
        layouts = game.seat_layouts()
        seat_tuple = tuple(seats) if seats else layouts[0]
        if seat_tuple not in layouts:
            allowed = " or ".join("[" + ", ".join(layout) + "]" for layout in layouts)
            raise InvalidOptions(f"{game.title} is played with seats {allowed}.")
        options = dict(sorted((options or {}).items()))
        game.check_options(options, seat_tuple)
        if seed is None:
            seed = self._fresh.seed()
        if not 0 <= seed < 1 << SEED_BITS:
            raise InvalidOptions(f"A seed is a whole number from 0 to 2**{SEED_BITS} - 1.")
        salt = self._fresh.salt()
        created = CampaignCreated(game.name, game.ruleset, seed, salt, seat_tuple, options)
        state = game.initial(created)
        events: list[Any] = [created, *game.setup(state)]
        campaign_id = self._fresh.campaign_id()
        commitment = seed_commitment(seed, salt)
        now = self._clock()
        await self.store.create(
            campaign_id,
            game.name,
            now_ms=now,
            attrs={
                **(attrs or {}),
                SEED_HASH: commitment,
                ORIGIN: str(len(events)),
                SEEDED_AT: "1",
            },
        )
        head = _Head(game, seat_tuple, len(events), 0, None)
        acted = await self._commit(campaign_id, head, events, seat=None, command_id=None)
        return Created(campaign_id, game.name, seat_tuple, commitment, acted.last)

    # -- reading --------------------------------------------------------------------------

    async def _head(self, campaign_id: str, *, refresh: bool = False) -> _Head:
        """The cached head, caught up with the store when asked to (or when not cached)."""
        head = self._heads.get(campaign_id)
        if head is None:
            info = await self.store.info(campaign_id)
            game = get_game(info.game)
            created = await self._created(campaign_id, game)
            origin = int(info.attrs.get(ORIGIN, "1"))
            version, state = await self._rebuild(campaign_id, game, info.head)
            head = _Head(game, created.seats, origin, version, state)
            self._remember(campaign_id, head)
        elif refresh:
            newer = await self.store.read(campaign_id, head.version)
            if newer:
                version, state = await self._advance(campaign_id, head, newer)
                head.version, head.state = version, state
        self._heads.move_to_end(campaign_id)
        return head

    def _remember(self, campaign_id: str, head: _Head) -> None:
        self._heads[campaign_id] = head
        self._heads.move_to_end(campaign_id)
        while len(self._heads) > self._cache_size:
            self._heads.popitem(last=False)

    async def _advance(
        self, campaign_id: str, head: _Head, newer: Sequence[Any]
    ) -> tuple[int, Any]:
        decoded = [(e.version, head.codec.decode(e.data).event) for e in newer]
        found = last_rewind(decoded)
        state = head.state
        if found is not None:
            index, target = found
            _, state = await self.state_at(campaign_id, target)
            decoded = decoded[index + 1 :]
        return newer[-1].version, replay(head.game, decoded, state)

    async def _rebuild(self, campaign_id: str, game: Game, version: int) -> tuple[int, Any]:
        """State at ``version``: newest snapshot at or below it, then the events after."""
        codec = codec_for(game)
        snapshot = await self.store.load_snapshot(campaign_id, version)
        start, state = (
            (0, None)
            if snapshot is None
            else (
                snapshot.version,
                codec.decode_state(snapshot.data),
            )
        )
        stored = await self.store.read(campaign_id, start, version)
        decoded = [(e.version, codec.decode(e.data).event) for e in stored]
        found = last_rewind(decoded)
        if found is not None:
            # Only the last rewind matters: everything before it is replaced by state_at(target).
            index, target = found
            _, state = await self._rebuild(campaign_id, game, target)
            decoded = decoded[index + 1 :]
        return version, replay(game, decoded, state)

    async def state_at(self, campaign_id: str, version: int | None = None) -> tuple[int, Any]:
        """``(version, state)``; the head when ``version`` is None."""
        if version is None:
            head = await self._head(campaign_id, refresh=True)
            return head.version, head.state
        info = await self.store.info(campaign_id)
        if not 1 <= version <= info.head:
            raise IllegalAction(
                f"Campaign {campaign_id} has versions 1 to {info.head}; there is no {version}."
            )
        cached = self._heads.get(campaign_id)
        if cached is not None and cached.version == version:
            return version, cached.state
        return await self._rebuild(campaign_id, get_game(info.game), version)

    def cached_campaigns(self) -> int:
        """How many campaigns' head states this process holds in memory."""
        return len(self._heads)

    async def game_of(self, campaign_id: str) -> Game:
        head = self._heads.get(campaign_id)
        if head is not None:
            return head.game
        return get_game((await self.store.info(campaign_id)).game)

    async def seats_of(self, campaign_id: str) -> tuple[str, ...]:
        head = self._heads.get(campaign_id)
        if head is not None:
            return head.seats
        return (await self._created(campaign_id, await self.game_of(campaign_id))).seats

    async def _created(self, campaign_id: str, game: Game) -> CampaignCreated:
        """Version 1 of the campaign (a fork reads its root's)."""
        first = await self.store.read(campaign_id, 0, 1)
        created = codec_for(game).decode(first[0].data).event
        assert isinstance(created, CampaignCreated)
        return created

    async def events(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[Recorded[Any]]:
        info = await self.store.info(campaign_id)
        codec = codec_for(get_game(info.game))
        stored = await self.store.read(campaign_id, after, until, limit)
        return [codec.decode_recorded(e.version, e.data) for e in stored]

    async def legal_actions(self, campaign_id: str, seat: str) -> tuple[int, list[LegalAction]]:
        head = await self._head(campaign_id, refresh=True)
        return head.version, head.game.legal_actions(head.state, seat)

    async def outcome(self, campaign_id: str) -> Outcome:
        head = await self._head(campaign_id, refresh=True)
        return head.game.outcome(head.state)

    # -- writing --------------------------------------------------------------------------

    async def act(
        self,
        campaign_id: str,
        seat: str,
        action_id: str,
        *,
        expected_version: int,
        command_id: str | None = None,
    ) -> Acted:
        """Apply ``seat``'s action ``action_id``, chosen at ``expected_version``."""
        head = await self._head(campaign_id, refresh=expected_version > self._cached(campaign_id))
        if seat not in head.seats:
            raise UnknownSeat(f"{seat!r} is not a seat of campaign {campaign_id}.")
        if expected_version != head.version:
            return await self._replayed_or_stale(campaign_id, head, expected_version, command_id)
        game, state = head.game, head.state
        outcome = game.outcome(state)
        if outcome != "running":
            raise IllegalAction(
                f"Campaign {campaign_id} has ended ({outcome}); it takes no actions."
            )
        action = self._find(game, state, seat, action_id)
        events = game.decide(state, seat, action)
        return await self._commit(campaign_id, head, events, seat=seat, command_id=command_id)

    def _cached(self, campaign_id: str) -> int:
        head = self._heads.get(campaign_id)
        return -1 if head is None else head.version

    @staticmethod
    def _find(game: Game, state: Any, seat: str, action_id: str) -> Any:
        for legal in game.legal_actions(state, seat):
            if legal.id == action_id:
                return legal.action
        for other in game.to_act(state):
            if other != seat and any(a.id == action_id for a in game.legal_actions(state, other)):
                raise NotYourTurn(f"{action_id!r} is for seat {other!r} to take, not {seat!r}.")
        raise IllegalAction(f"{action_id!r} is not a legal action for seat {seat!r} now.")

    async def _replayed_or_stale(
        self, campaign_id: str, head: _Head, expected: int, command_id: str | None
    ) -> Acted:
        if command_id is not None:
            prior = await self.store.command_result(campaign_id, command_id)
            if prior is not None:
                return await self._as_duplicate(campaign_id, prior.first, prior.last)
        raise VersionConflict(campaign_id, expected, head.version)

    async def _as_duplicate(self, campaign_id: str, first: int, last: int) -> Acted:
        events = await self.events(campaign_id, first - 1, last)
        return Acted(first, last, duplicate=True, events=events)

    async def rewind(
        self,
        campaign_id: str,
        to: int,
        *,
        expected_version: int | None = None,
        command_id: str | None = None,
        seat: str | None = None,
    ) -> Acted:
        """Return the campaign to version ``to``'s state with a new ``Rewound`` event."""
        head = await self._head(campaign_id, refresh=True)
        if expected_version is not None and expected_version != head.version:
            return await self._replayed_or_stale(campaign_id, head, expected_version, command_id)
        if not head.origin <= to < head.version:
            raise IllegalAction(
                f"Campaign {campaign_id} can be rewound to versions {head.origin} to "
                f"{head.version - 1}, not to {to}."
            )
        _, target = await self.state_at(campaign_id, to)
        return await self._commit(
            campaign_id, head, [Rewound(to)], seat=seat, command_id=command_id, rewound=target
        )

    async def fork(
        self,
        campaign_id: str,
        at: int,
        *,
        reseed: bool | int = False,
        attrs: dict[str, str] | None = None,
    ) -> Created:
        """A new campaign sharing ``campaign_id``'s history up to ``at`` (copy-on-write)."""
        info = await self.store.info(campaign_id)
        origin = int(info.attrs.get(ORIGIN, "1"))
        if not origin <= at <= info.head:
            raise IllegalAction(
                f"Campaign {campaign_id} can be forked at versions {origin} to {info.head}, "
                f"not at {at}."
            )
        game = get_game(info.game)
        seats = await self.seats_of(campaign_id)
        child_id = self._fresh.campaign_id()
        inherited = {k: v for k, v in info.attrs.items() if k in (SEED_HASH, ORIGIN, SEEDED_AT)}
        await self.store.fork(
            campaign_id, at, child_id, now_ms=self._clock(), attrs={**inherited, **(attrs or {})}
        )
        seed_hash = inherited.get(SEED_HASH, "")
        if reseed is False:
            return Created(child_id, game.name, seats, seed_hash, at)
        seed = self._fresh.seed() if reseed is True else int(reseed)
        salt = self._fresh.salt()
        seed_hash = seed_commitment(seed, salt)
        # The new luck starts at the reseed: no rewind may return to the parent's generator.
        reseeded_at = at + 1
        await self.store.set_attrs(
            child_id,
            {SEED_HASH: seed_hash, ORIGIN: str(reseeded_at), SEEDED_AT: str(reseeded_at)},
        )
        _, state = await self.state_at(child_id, at)
        head = _Head(game, seats, reseeded_at, at, state)
        self._remember(child_id, head)
        acted = await self._commit(
            child_id, head, [Reseeded(seed, salt)], seat=None, command_id=None
        )
        return Created(child_id, game.name, seats, seed_hash, acted.last)

    async def _commit(
        self,
        campaign_id: str,
        head: _Head,
        events: Sequence[Any],
        *,
        seat: str | None,
        command_id: str | None,
        rewound: Any = None,
    ) -> Acted:
        """Stamp ``events`` with state hashes, append them at ``head.version``, advance cache."""
        game, codec = head.game, head.codec
        now = self._clock()
        state = head.state
        payloads: list[bytes] = []
        recorded: list[Recorded[Any]] = []
        version = head.version
        for event in events:
            version += 1
            state = rewound if type(event) is Rewound else evolve(game, state, event)
            digest = state_hash(state)
            payloads.append(codec.encode(Envelope(event, digest, seat, command_id, now)))
            recorded.append(Recorded(version, event, digest, seat, command_id, now))
        try:
            result = await self.store.append(
                campaign_id, head.version, payloads, command_id=command_id, now_ms=now
            )
        except VersionConflict:
            self._heads.pop(campaign_id, None)
            raise
        if result.duplicate:
            self._heads.pop(campaign_id, None)
            return await self._as_duplicate(campaign_id, result.first, result.last)
        previous = head.version
        head.version, head.state = result.last, state
        self._remember(campaign_id, head)
        if previous // self._snapshot_every != result.last // self._snapshot_every:
            await self.store.save_snapshot(campaign_id, result.last, codec.encode_state(state))
        return Acted(result.first, result.last, events=recorded)

    # -- checking -------------------------------------------------------------------------

    async def replay(self, campaign_id: str) -> tuple[int, Any]:
        """Rebuild the head state from the whole stream, ignoring snapshots and caches."""
        game = await self.game_of(campaign_id)
        codec = codec_for(game)
        stored = await self.store.read(campaign_id)
        decode = codec.decode
        events = [(e.version, decode(e.data).event) for e in stored]
        return (events[-1][0] if events else 0), replay(game, events)

    async def verify(self, campaign_id: str) -> VerifyReport:
        """Replay the whole stream and compare every stored state hash."""
        game = await self.game_of(campaign_id)
        codec = codec_for(game)
        stored = await self.store.read(campaign_id)
        envelopes = [(e.version, codec.decode(e.data)) for e in stored]
        events = [(version, env.event) for version, env in envelopes]
        for (version, state), (_, env) in zip(states(game, events), envelopes, strict=True):
            actual = state_hash(state)
            if actual != env.hash:
                divergence = Divergence(version, env.hash, actual, type(env.event).__name__)
                return VerifyReport(campaign_id, len(events), False, divergence)
        return VerifyReport(campaign_id, len(events), True)
