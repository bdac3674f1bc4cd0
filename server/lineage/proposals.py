"""Rewinds a table of several people agrees to first, and the banner every seat gets after any
rewind.

A seat asks (:meth:`Proposals.propose`); a seat that may rewind alone (:mod:`.agreement`) is
rewound at once instead. The open proposal is kept with the campaign's metadata (one attribute,
:data:`ATTR`, written through the store contract's ``add_attrs``), never in its stream, and it
holds only while the campaign stands at the version it was asked at: any move made after it ends
it with nothing changed, and so does a seat's no or the asking seat withdrawing. Once every other
person's seat has said yes, the campaign is rewound in the asking seat's name.

Every change is pushed to the seated sockets this process serves (the hub's
:meth:`~server.live.hub.Hub.tell_seats`); a page also reads the open proposal when it connects.
The banner of a rewind (:class:`~server.protocol.proposals.RewoundMessage`) is pushed by every
process that watches the campaign, from the event itself, so it reaches every seat.
"""

from __future__ import annotations

import asyncio
import bisect
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from typing import Any

import msgspec

from domain.core.events import Rewound
from projections.timeline import Line
from server.campaigns.codec import Recorded
from server.campaigns.fresh import wall_clock_ms
from server.campaigns.head import Head
from server.campaigns.keyed_lock import KeyedLock
from server.campaigns.points import check_rewind
from server.campaigns.service import CampaignService
from server.campaigns.timeline_cache import Timelines
from server.errors import ApiError
from server.lineage.agreement import alone, own_last_move, people
from server.live.hub import Hub
from server.protocol.messages import ActedOut
from server.protocol.proposal_io import ProposalOut
from server.protocol.proposals import (
    PROPOSAL_ATTR,
    UNDONE_SHOWN,
    Ending,
    Proposal,
    ProposalEnded,
    ProposalMessage,
    RewoundMessage,
    UndoneMove,
)
from server.store.base import VersionConflict

log = logging.getLogger("tabletale.proposals")

ATTR = PROPOSAL_ATTR

MOVE_EVENTS = 256
"""A rewind that undoes more events than this undoes more than one move of any game here: its
events are not read to tell whether it is the seat's own last move."""

BotSeatsOf = Callable[[str], Awaitable[Collection[str]]]
"""The seats bots play in a campaign now."""

_encode = msgspec.json.Encoder().encode
_decode = msgspec.json.Decoder(Proposal).decode


def _stored(attrs: dict[str, str]) -> Proposal | None:
    text = attrs.get(ATTR, "")
    if not text:
        return None
    try:
        return _decode(text)
    except msgspec.DecodeError:
        log.warning("A stored proposal could not be read; it is taken as none.")
        return None


def undone_between(lines: Sequence[Line], to: int, until: int) -> tuple[int, list[UndoneMove], int]:
    """For a rewind to version ``to`` from version ``until``: the move it returns to, the lines
    of the moves it undoes (at most :data:`UNDONE_SHOWN`), and how many moves those are."""
    start = bisect.bisect_right(lines, to, key=lambda each: each.version)
    to_move = lines[start - 1].move if start else 0
    stop = bisect.bisect_right(lines, until, key=lambda each: each.version)
    undone = [each for each in lines[start:stop] if each.move > to_move]
    last = lines[stop - 1].move if stop else 0
    shown = [UndoneMove(each.move, each.text) for each in undone[:UNDONE_SHOWN]]
    return to_move, shown, max(0, last - to_move)


class Proposals:
    """The process's rewind proposals; ``app.state.proposals``."""

    def __init__(
        self,
        service: CampaignService,
        hub: Hub,
        timelines: Timelines,
        bot_seats: BotSeatsOf,
        *,
        clock: Callable[[], int] = wall_clock_ms,
    ) -> None:
        self._service = service
        self._hub = hub
        self._timelines = timelines
        self._bot_seats = bot_seats
        self._clock = clock
        self._locks = KeyedLock()
        self._known: dict[str, Proposal] = {}
        """The open proposals this process has read or made, to end them when a move comes."""
        self._agreed: dict[str, list[str]] = {}
        """Per campaign, the seats that agreed to the rewind on its way to the store."""
        self._background: set[asyncio.Task[None]] = set()
        service.heads.listen(self)

    # -- reading --------------------------------------------------------------------------

    async def open(self, campaign_id: str) -> Proposal | None:
        """The campaign's open proposal: one stored for the version it stands at."""
        head = await self._service.head(campaign_id)
        info = await self._service.info(campaign_id)
        found = _stored(info.attrs)
        if found is None or found.at != head.version or head.outcome != "running":
            self._known.pop(campaign_id, None)
            return None
        self._known[campaign_id] = found
        return found

    async def needed(self, head: Head, seat: str, to: int) -> tuple[str, ...]:
        """The seats whose yes ``seat``'s rewind of ``head`` to ``to`` needs (none: alone)."""
        found = await self._service.decision_points.runs(head, to, before=2, after=1)
        check_rewind(head, found, to)
        bots = await self._bot_seats(head.facts.id)
        others = tuple(other for other in people(head.facts.seats, bots) if other != seat)
        if not others or head.version - to > MOVE_EVENTS:
            return others  # a table of one person; or more events than one move appends
        undone = await self._service.events(head.facts.id, to, head.version)
        if not own_last_move(undone, seat):
            return others
        _, target = await self._service.state_at(head.facts.id, to)
        return () if alone(head.game, seat, undone, target, head.state) else others

    # -- asking and answering -------------------------------------------------------------

    async def propose(
        self,
        campaign_id: str,
        seat: str,
        to: int,
        *,
        expected_version: int | None = None,
        command_id: str | None = None,
    ) -> ProposalOut:
        """``seat`` asks to rewind to ``to``: done at once when it may rewind alone, else a
        proposal to the other people's seats."""
        async with self._locks.hold(campaign_id):
            head = await self._service.head(campaign_id)
            if expected_version is not None and expected_version != head.version:
                raise VersionConflict(campaign_id, expected_version, head.version)
            asked = await self.needed(head, seat, to)
            if not asked:
                acted = await self._service.rewind(
                    campaign_id,
                    to,
                    expected_version=head.version,
                    command_id=command_id,
                    seat=seat,
                )
                out = ActedOut(acted.first, acted.last, acted.duplicate, command_id)
                return ProposalOut(None, rewound=out)
            standing = await self.open(campaign_id)
            if standing is not None:
                raise ApiError(
                    "conflict",
                    f"Seat {standing.by!r} already asks to rewind to move {standing.to_move};"
                    " that is answered (or withdrawn) first.",
                )
            _, lines = await self._timelines.lines(campaign_id)
            to_move, undone, moves = undone_between(lines, to, head.version)
            made = self._clock()
            proposal = Proposal(
                f"{seat}-{head.version}-{to}-{made}",
                seat,
                to,
                to_move,
                head.version,
                list(asked),
                [],
                undone,
                moves,
                made,
            )
            await self._service.store.add_attrs(campaign_id, {ATTR: _encode(proposal).decode()})
            self._known[campaign_id] = proposal
            self._hub.tell_seats(campaign_id, ProposalMessage(open=proposal))
            return ProposalOut(proposal)

    async def answer(
        self, campaign_id: str, seat: str, proposal_id: str, accept: bool
    ) -> ProposalOut:
        """``seat``'s yes or no; the asking seat's no withdraws it. The last yes rewinds."""
        async with self._locks.hold(campaign_id):
            proposal = await self.open(campaign_id)
            if proposal is None or proposal.id != proposal_id:
                raise ApiError(
                    "conflict",
                    "That proposal is no longer open: it was answered, withdrawn, or a move"
                    " was made since.",
                )
            if seat == proposal.by:
                if accept:
                    raise ApiError(
                        "bad_request",
                        "The seat that asks does not answer its own proposal; send accept"
                        " false to withdraw it.",
                    )
                return await self._end(campaign_id, proposal, "withdrawn", seat)
            if seat not in proposal.asked:
                raise ApiError("forbidden", f"Seat {seat!r} is not asked to agree to this rewind.")
            if not accept:
                return await self._end(campaign_id, proposal, "declined", seat)
            accepted = sorted({*proposal.accepted, seat})
            if set(accepted) < set(proposal.asked):
                grown = msgspec.structs.replace(proposal, accepted=accepted)
                await self._service.store.add_attrs(campaign_id, {ATTR: _encode(grown).decode()})
                self._known[campaign_id] = grown
                self._hub.tell_seats(campaign_id, ProposalMessage(open=grown))
                return ProposalOut(grown)
            self._agreed[campaign_id] = accepted
            try:
                acted = await self._service.rewind(
                    campaign_id,
                    proposal.to,
                    expected_version=proposal.at,
                    command_id=f"agreed:{proposal.id}"[:128],
                    seat=proposal.by,
                )
            except VersionConflict:
                await self._end(campaign_id, proposal, "moved_on", None)
                raise
            finally:
                self._agreed.pop(campaign_id, None)
            ended = ProposalEnded(proposal.id, proposal.by, "accepted", seat)
            await self._clear(campaign_id, proposal, ended)
            out = ActedOut(acted.first, acted.last, acted.duplicate, None)
            return ProposalOut(None, rewound=out, ended=ended)

    async def _end(
        self, campaign_id: str, proposal: Proposal, ending: Ending, by: str | None
    ) -> ProposalOut:
        ended = ProposalEnded(proposal.id, proposal.by, ending, by)
        await self._clear(campaign_id, proposal, ended)
        return ProposalOut(None, ended=ended)

    async def _clear(self, campaign_id: str, proposal: Proposal, ended: ProposalEnded) -> None:
        self._known.pop(campaign_id, None)
        await self._service.store.add_attrs(campaign_id, {ATTR: ""})
        self._hub.tell_seats(campaign_id, ProposalMessage(ended=ended))

    async def _moved_on(self, campaign_id: str, proposal: Proposal) -> None:
        """A move ended ``proposal``: cleared from the store unless another replaced it."""
        async with self._locks.hold(campaign_id):
            info = await self._service.info(campaign_id)
            stored = _stored(info.attrs)
            if stored is not None and stored.id == proposal.id:
                await self._service.store.add_attrs(campaign_id, {ATTR: ""})
        ended = ProposalEnded(proposal.id, proposal.by, "moved_on")
        self._hub.tell_seats(campaign_id, ProposalMessage(ended=ended))

    # -- what the repository tells --------------------------------------------------------

    def advanced(
        self, before: Head, after: Head, recorded: Sequence[Recorded[Any]], origin: object
    ) -> None:
        campaign_id = after.facts.id
        agreed = self._agreed.get(campaign_id, [])
        rewinds = [each for each in recorded if type(each.event) is Rewound]
        # A banner only for a campaign whose sockets are watching here (its head is pinned).
        if rewinds and campaign_id in self._service.heads.pinned():
            for each in rewinds:
                self._spawn(self._banner(campaign_id, each, agreed))
        proposal = self._known.get(campaign_id)
        if proposal is None or after.version == proposal.at or agreed:
            return  # none known here, or the agreed rewind (its answer ends it)
        self._known.pop(campaign_id, None)
        self._spawn(self._moved_on(campaign_id, proposal))

    def reset(self, head: Head) -> None:
        self._known.pop(head.facts.id, None)

    async def _banner(self, campaign_id: str, rewind: Recorded[Any], agreed: list[str]) -> None:
        _, lines = await self._timelines.lines(campaign_id)
        to: int = rewind.event.to
        to_move, undone, moves = undone_between(lines, to, rewind.version - 1)
        message = RewoundMessage(rewind.version, rewind.seat, to, to_move, undone, moves, agreed)
        self._hub.tell_seats(campaign_id, message)

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            try:
                await work
            except Exception as error:
                log.warning("A proposal or rewind notice was not delivered: %s", error)

        task = asyncio.create_task(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)
