"""The campaign service: the application layer between callers (HTTP, WebSockets, CLI) and
the domain and store.

It creates campaigns, turns a seat's action id into events, appends them atomically at the version
the caller saw, rewinds and forks, answers who a token seats, and reveals the seed once a campaign
has ended. Every state it reads or changes goes through the process's one
:class:`~server.campaigns.repository.HeadRepository`. A private campaign
(:mod:`server.campaigns.tokens`) is stored unlisted, and so is every fork of it, so that the
catalog's pages leave it out in the store.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from domain.core.engine import evolve, states, waits
from domain.core.errors import DomainError, IllegalAction, InvalidOptions, NotYourTurn
from domain.core.events import CampaignCreated, Options, Reseeded, Rewound
from domain.core.game import Game, Step, check_seats, options_of
from domain.core.hashing import seed_commitment, state_hash
from domain.core.luck import hides_piles, luck_seen
from domain.core.rng import SEED_BITS
from domain.games import get_game
from projections.catalog import KNOWN_LUCK, StoredRuleset, known_luck
from projections.log import Seeding, last_seeding
from server.campaigns.codec import Recorded, codec_for
from server.campaigns.fresh import CHOSEN_SALT, Fresh, wall_clock_ms
from server.campaigns.head import Facts, Head
from server.campaigns.played import Rulesets, created_of, game_for
from server.campaigns.points import (
    NEAR,
    SEEDED_AT,
    DecisionPoints,
    Points,
    check_fork,
    check_rewind,
    points_of,
    seeded_at,
)
from server.campaigns.repository import ORIGIN, HeadRepository
from server.campaigns.results import Acted, Created, Divergence, VerifyReport
from server.campaigns.tokens import PRIVATE, is_private
from server.store.base import CampaignInfo
from server.store.contract import EventStore

SEED_HASH = "seed_hash"


class UnknownSeat(DomainError):
    code = "forbidden"


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
        self.clock = clock
        """Epoch milliseconds: when an event happened, by this service's clock."""
        self._fresh = fresh or Fresh()
        self.heads = HeadRepository(
            store, clock=clock, capacity=cache_size, snapshot_every=snapshot_every
        )
        self.decision_points = DecisionPoints(self.heads)
        self.rulesets = Rulesets(store)
        """Each stored campaign's ruleset, and whether this server plays it."""

    # -- creating -------------------------------------------------------------------------

    def _luck(self, chosen: int | None) -> tuple[int, str]:
        """The seed and salt of new luck: a chosen seed with the salt every server gives it
        (the same seed plays the same game anywhere), or a drawn seed with a fresh secret salt."""
        if chosen is None:
            return self._fresh.seed(), self._fresh.salt()
        if not 0 <= chosen < 1 << SEED_BITS:
            raise InvalidOptions(f"A seed is a whole number from 0 to 2**{SEED_BITS} - 1.")
        return chosen, CHOSEN_SALT

    async def create(
        self,
        game_name: str,
        *,
        seed: int | None = None,
        options: Options | None = None,
        seats: Sequence[str] | None = None,
        attrs: dict[str, str] | None = None,
        campaign_id: str | None = None,
    ) -> Created:
        """A new campaign: ``campaign_id`` when the caller chose it (:meth:`new_campaign_id`),
        else a new one."""
        game = get_game(game_name)
        seat_tuple = tuple(seats) if seats else game.info.seat_layouts[0]
        check_seats(game, seat_tuple)
        options = dict(sorted((options or {}).items()))
        options_of(game, options)  # refused here, before anything is stored
        chosen = seed
        seed, salt = self._luck(seed)
        created = CampaignCreated(
            game.info.name, game.info.ruleset, seed, salt, seat_tuple, options
        )
        state = evolve(game, None, created)
        steps: list[Step] = [(created, state)]
        for event in game.setup(state):
            state = evolve(game, state, event)
            steps.append((event, state))
        campaign_id = campaign_id or self._fresh.campaign_id()
        commitment = seed_commitment(seed, salt)
        all_attrs = {
            **(attrs or {}),
            SEED_HASH: commitment,
            ORIGIN: str(len(steps)),
            SEEDED_AT: "1",
        }
        if chosen is not None:
            all_attrs[KNOWN_LUCK] = "1"
        facts = Facts(campaign_id, game, seat_tuple, origin=len(steps), attrs=all_attrs)

        async def register(payloads: list[bytes]) -> object:
            return await self.store.create(
                campaign_id,
                game.info.name,
                now_ms=self.clock(),
                attrs=all_attrs,
                events=payloads,
                listed=not is_private(all_attrs),
                point=waits(game, state),
            )

        acted = await self.heads.create(facts, steps, register)
        return Created(campaign_id, game.info.name, seat_tuple, commitment, acted.last)

    def new_campaign_id(self) -> str:
        """An id for a campaign about to be created (:meth:`create`'s ``campaign_id``)."""
        return self._fresh.campaign_id()

    # -- reading --------------------------------------------------------------------------

    async def head(self, campaign_id: str) -> Head:
        """The campaign's head, caught up with the store."""
        return await self.heads.head(campaign_id)

    async def state_at(self, campaign_id: str, version: int | None = None) -> tuple[int, Any]:
        """``(version, state)``; the head when ``version`` is None."""
        head = await self.heads.head(campaign_id)
        if version is None:
            return head.version, head.state
        if not 1 <= version <= head.version:
            raise IllegalAction(
                f"Campaign {campaign_id} has versions 1 to {head.version}; there is no {version}."
            )
        return version, await self.heads.state_at(campaign_id, version)

    async def points(
        self, head: Head, near: int | None = None, *, upto: int | None = None, limit: int = NEAR
    ) -> Points:
        """Where the campaign at ``head`` may be forked and rewound to around ``near`` (its
        version when None), as of version ``upto`` (the head when None): ``limit`` runs of
        points on either side (:mod:`server.campaigns.points`)."""
        upto = head.version if upto is None else min(upto, head.version)
        near = upto if near is None else near
        found = await self.decision_points.runs(head, near, before=limit, after=limit, highest=upto)
        return points_of(head, near, found, upto)

    async def unplayed(self, campaign_id: str) -> StoredRuleset | None:
        """The stored ruleset of a campaign this server does not play; None when it plays it
        (or the campaign has no event yet). Raises UnknownCampaign."""
        if self.heads.cached(campaign_id) is not None:  # only a played campaign has a head
            return None
        found = await self.rulesets.of(campaign_id)
        return None if found is None or found.played else found

    async def facts(self, campaign_id: str) -> Facts:
        return await self.heads.facts(campaign_id)

    async def game_of(self, campaign_id: str) -> Game:
        return (await self.heads.facts(campaign_id)).game

    async def events(
        self, campaign_id: str, after: int = 0, until: int | None = None, limit: int | None = None
    ) -> list[Recorded[Any]]:
        return await self.heads.events(campaign_id, after, until, limit)

    async def info(self, campaign_id: str) -> CampaignInfo:
        """The campaign's metadata as the store keeps it (times, lineage, head)."""
        return await self.store.info(campaign_id)

    async def luck_known(self, campaign_id: str, facts: Facts | None = None) -> bool:
        """Whether the campaign is marked as played on known luck, as the store says now: a
        mark can be added after creation (a rewind past a draw, a fork that shares its luck),
        so cached ``facts`` only answer yes (a mark is never taken away)."""
        if facts is not None and known_luck(facts.attrs):
            return True
        return known_luck((await self.store.info(campaign_id)).attrs)

    async def _mark_known_luck(self, campaign_id: str) -> None:
        # Written before the rewind or fork that calls for it: a failure in between may leave
        # a campaign marked that did not go on, never one that did left unmarked.
        await self.store.add_attrs(campaign_id, {KNOWN_LUCK: "1"})

    async def ping(self) -> None:
        """Raise StoreUnavailable unless the store answers."""
        await self.store.ping()

    async def catalog(
        self, *, offset: int = 0, limit: int = 50, listed_only: bool = True
    ) -> list[CampaignInfo]:
        """The listed campaigns' metadata, newest first; every campaign's without
        ``listed_only``."""
        return await self.store.list_campaigns(offset=offset, limit=limit, listed_only=listed_only)

    async def revealed(self, campaign_id: str, head: Head) -> Seeding | None:
        """The seed in force at ``head`` once it may be known; None until then.

        A campaign's own seed is revealed when it ends. A fork that kept its parent's luck uses
        a seed that belongs to an ancestor (the one that created or reseeded it), which may
        still be playing with it: that seed is revealed only once its owner has ended too.
        Only the one event that set it is read (version 1, or a reseeded fork's first event).
        """
        if head.outcome == "running":
            return None
        at = seeded_at(head)
        if not await self.seed_revealed(head.facts, at):
            return None
        return last_seeding(await self.heads.events(campaign_id, at - 1, at))

    async def history_revealed(self, head: Head, upto: int | None = None) -> bool:
        """Whether everything in ``head``'s history up to ``upto`` (all of it when None) may be
        known, seeds and hidden cards included: it has ended, and so has every campaign it was
        forked from whose events it shares there (a fork of a running campaign holds that
        campaign's luck and hidden cards)."""
        while head.outcome != "running":
            parent = head.facts.parent
            if parent is None or (upto is not None and upto > head.facts.fork_version):
                return True
            head = await self.heads.head(parent)
        return False

    async def seed_revealed(self, facts: Facts, at: int) -> bool:
        """Whether the seed set at version ``at`` of the (ended) campaign ``facts`` may be
        known: its own, or its owner among the ancestors has ended as well."""
        owner: Head | None = None
        while at < facts.own_from and facts.parent is not None:
            owner = await self.heads.head(facts.parent)
            facts = owner.facts
        return owner is None or owner.outcome != "running"

    # -- writing --------------------------------------------------------------------------

    async def act(
        self,
        campaign_id: str,
        seat: str,
        action_id: str,
        *,
        expected_version: int,
        command_id: str | None = None,
        origin: object = None,
    ) -> Acted:
        """Apply ``seat``'s action ``action_id``, chosen at ``expected_version``.

        ``origin`` travels to the repository's listeners with the events (the socket that acted).
        """

        async def decide(head: Head) -> list[Step]:
            if seat not in head.facts.seats:
                raise UnknownSeat(f"{seat!r} is not a seat of campaign {campaign_id}.")
            if head.outcome != "running":
                raise IllegalAction(
                    f"Campaign {campaign_id} has ended ({head.outcome}); it takes no actions."
                )
            legal = head.legal(seat).get(action_id)
            if legal is None:
                for other in head.facts.seats:
                    if other != seat and action_id in head.legal(other):
                        raise NotYourTurn(
                            f"{action_id!r} is for seat {other!r} to take, not {seat!r}."
                        )
                raise IllegalAction(f"{action_id!r} is not a legal action for seat {seat!r} now.")
            return head.game.play(head.state, seat, legal.action)

        return await self.heads.commit(
            campaign_id,
            expected_version,
            decide,
            seat=seat,
            command_id=command_id,
            origin=origin,
            action=action_id,
        )

    async def rewind(
        self,
        campaign_id: str,
        to: int,
        *,
        expected_version: int | None = None,
        command_id: str | None = None,
        seat: str | None = None,
    ) -> Acted:
        """Return the campaign to version ``to``'s state with a new ``Rewound`` event.

        A rewind past a draw (a die, a shuffle, a card turned up) lets the table choose again
        knowing that luck: the campaign is marked as played on known luck. Taking back moves
        that drew nothing leaves it as it was."""
        if expected_version is None:
            expected_version = (await self.heads.head(campaign_id)).version

        async def decide(head: Head) -> list[Step]:
            found = await self.decision_points.runs(head, to, before=2, after=1)
            check_rewind(head, found, to)
            target = await self.heads.state_in(head, to)
            seen = luck_seen(head.game, target, head.state)
            if seen and not await self.luck_known(campaign_id, head.facts):
                await self._mark_known_luck(campaign_id)
            return [(Rewound(to), target)]

        return await self.heads.commit(
            campaign_id, expected_version, decide, seat=seat, command_id=command_id
        )

    async def fork(
        self,
        campaign_id: str,
        at: int,
        *,
        reseed: bool | int = False,
        attrs: dict[str, str] | None = None,
    ) -> Created:
        """A new campaign sharing ``campaign_id``'s history up to ``at`` (copy-on-write); the
        fork of a private campaign is private too.

        A fork that shares luck with its parent (it keeps the parent's generator, or its face-down
        piles keep their order) is marked as played on known luck, and so is the parent while it
        runs: whoever plays one first sees what the other will draw. Only a fork with fresh
        secret luck of a game with nothing face down leaves both as they were."""
        parent = await self.heads.head(campaign_id)
        facts = parent.facts
        check_fork(parent, await self.decision_points.runs(parent, at, before=2, after=1), at)
        # A reseeded fork starts from the state at ``at``; one that keeps the luck needs none.
        state = None if reseed is False else await self.heads.state_at(campaign_id, at)
        shares = state is None or hides_piles(facts.game, state)
        if shares and parent.outcome == "running" and not await self.luck_known(campaign_id, facts):
            await self._mark_known_luck(campaign_id)
        child_id = self._fresh.campaign_id()
        # A spectator delay (server.campaigns.delay) is not inherited: a fork is a new table, often
        # played off stream, and whoever forks chooses its delay in ``attrs``. A fork made to
        # study a position would otherwise hide it from its own spectators.
        inherited = {
            k: v for k, v in facts.attrs.items() if k in (SEED_HASH, ORIGIN, SEEDED_AT, PRIVATE)
        }
        child_attrs = {**inherited, **(attrs or {})}
        listed = not is_private(child_attrs)
        if shares or reseed is not True:
            # luck shared with the parent (revealed, or seen first by one of the two), or a
            # seed the forker chose
            child_attrs[KNOWN_LUCK] = "1"
        if reseed is False:
            await self.store.fork(
                campaign_id, at, child_id, now_ms=self.clock(), attrs=child_attrs, listed=listed
            )
            return Created(child_id, facts.game.info.name, facts.seats, inherited[SEED_HASH], at)
        seed, salt = self._luck(None if reseed is True else int(reseed))
        seed_hash = seed_commitment(seed, salt)
        # The new luck starts at the reseed: no rewind may return to the parent's generator.
        reseeded_at = at + 1
        child_attrs |= {SEED_HASH: seed_hash, ORIGIN: str(reseeded_at), SEEDED_AT: str(reseeded_at)}
        child = Facts(
            child_id,
            facts.game,
            facts.seats,
            origin=reseeded_at,
            attrs=child_attrs,
            parent=campaign_id,
            fork_version=at,
        )
        reseeded = Reseeded(seed, salt)

        async def register(payloads: list[bytes]) -> object:
            # The child and its Reseeded event are stored in one step: a fork that fails
            # leaves nothing behind.
            return await self.store.fork(
                campaign_id,
                at,
                child_id,
                now_ms=self.clock(),
                attrs=child_attrs,
                events=payloads,
                listed=listed,
                point=waits(facts.game, after),
            )

        assert state is not None  # read above for every reseeded fork
        after = evolve(facts.game, state, reseeded)
        acted = await self.heads.create(
            child,
            [(reseeded, after)],
            register,
            start=(at, state, state_hash(state)),
        )
        return Created(child_id, facts.game.info.name, facts.seats, seed_hash, acted.last)

    # -- checking -------------------------------------------------------------------------

    async def _stream(self, campaign_id: str) -> tuple[Game, list[Recorded[Any]]]:
        """The whole stream, read straight from the store: checks trust no cache."""
        info = await self.store.info(campaign_id)
        stored = await self.store.read(campaign_id)
        if not stored:  # being created
            return get_game(info.game), []
        # In words that name the rulesets this server plays, before any event is decoded.
        game = game_for(created_of(stored[0].data))
        return game, codec_for(game).decode_stored(stored)

    async def replay(self, campaign_id: str) -> tuple[int, Any]:
        """Rebuild the head state from the whole stream, ignoring snapshots and caches."""
        game, recorded = await self._stream(campaign_id)
        state = None
        for _, state in states(game, [(r.version, r.event) for r in recorded]):  # noqa: B007
            pass
        return (recorded[-1].version if recorded else 0), state

    async def verify(self, campaign_id: str) -> VerifyReport:
        """Replay the whole stream and compare every stored state hash."""
        game, recorded = await self._stream(campaign_id)
        pairs = [(r.version, r.event) for r in recorded]
        replay = states(game, pairs)
        for stored in recorded:
            kind = type(stored.event).__name__
            try:
                version, state = next(replay)
            # A stored event the rules cannot apply is a divergence too, whatever they raise.
            except Exception as error:
                refused = Divergence(stored.version, stored.hash, "", kind, f"{error}")
                return VerifyReport(campaign_id, len(recorded), False, refused)
            actual = state_hash(state)
            if actual != stored.hash:
                divergence = Divergence(version, stored.hash, actual, kind)
                return VerifyReport(campaign_id, len(recorded), False, divergence)
        return VerifyReport(campaign_id, len(recorded), True)
