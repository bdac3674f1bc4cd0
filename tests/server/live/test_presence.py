"""The parts of who is connected that processes share: sent, kept, merged, expired."""

from __future__ import annotations

import asyncio

from server.live.presence import Elsewhere, Roster, Seated, Sharing, decode, encode, merged
from server.store.base import StoreUnavailable

WAIT_S = 30.0


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_roster_survives_the_wire_and_garbage_is_refused() -> None:
    roster = Roster((Seated("red", "Ana", 5), Seated("blue", None, 7)), 2)
    assert decode(encode(roster)) == roster
    assert decode(b"\xc1 not msgpack") is None
    assert decode(encode(Roster())) == Roster() and Roster().empty


def test_parts_merge_in_the_order_their_sockets_joined() -> None:
    here = Roster((Seated("red", "Ana", 10), Seated("green", None, 30)), 1)
    there = Roster((Seated("blue", "Bo", 20),), 2)
    everyone = merged([here, there])
    assert [s.seat for s in everyone.seated] == ["red", "blue", "green"]
    assert everyone.spectators == 3


def test_a_part_is_kept_replaced_and_dropped_when_emptied() -> None:
    elsewhere = Elsewhere(clock=Clock())
    part = Roster((Seated("blue", "Bo", 20),))
    assert elsewhere.heard("c1", "p2", part)
    assert not elsewhere.heard("c1", "p2", part), "the same part again changes nothing shown"
    assert elsewhere.parts("c1") == [part] and elsewhere.campaigns() == ["c1"]
    assert elsewhere.heard("c1", "p2", Roster())
    assert elsewhere.parts("c1") == [] and elsewhere.campaigns() == []
    assert not elsewhere.heard("c1", "p3", Roster()), "an empty part unknown before is nothing"


def test_a_part_not_heard_of_for_three_periods_expires() -> None:
    clock = Clock()
    elsewhere = Elsewhere(refresh_s=1.0, clock=clock)
    elsewhere.heard("c1", "p2", Roster((Seated("blue", None, 1),)))
    elsewhere.heard("c1", "p3", Roster(spectators=1))
    clock.now += 2.0
    elsewhere.heard("c1", "p3", Roster(spectators=1))  # p3 refreshed, p2 did not
    assert elsewhere.expire() == []
    clock.now += 1.5
    assert elsewhere.expire() == ["c1"]
    assert elsewhere.parts("c1") == [Roster(spectators=1)]
    clock.now += 3.5
    assert elsewhere.expire() == ["c1"] and elsewhere.campaigns() == []


def test_parts_are_listed_by_process_and_forgotten_with_the_campaign() -> None:
    elsewhere = Elsewhere(clock=Clock())
    elsewhere.heard("c1", "p9", Roster(spectators=9))
    elsewhere.heard("c1", "p1", Roster(spectators=1))
    assert elsewhere.parts("c1") == [Roster(spectators=1), Roster(spectators=9)]
    elsewhere.forget("c1")
    assert elsewhere.parts("c1") == [] and elsewhere.expire() == []


class Feed:
    """A feed that records what is shared, and can hold a share up as a slow Redis would."""

    def __init__(self) -> None:
        self.shared: list[tuple[str, Roster | None, bool]] = []
        self.may_send = asyncio.Event()
        self.may_send.set()
        self.sending = asyncio.Event()
        """Set once a share has begun (and waits for ``may_send``)."""
        self.failed = asyncio.Event()
        self.failures = 0
        """Shares still to fail, as with a Redis that is down."""

    async def share(self, campaign_id: str, data: bytes, *, ask: bool) -> None:
        self.sending.set()
        await self.may_send.wait()
        if self.failures:
            self.failures -= 1
            self.failed.set()
            raise StoreUnavailable("Redis is down.")
        self.shared.append((campaign_id, decode(data), ask))


class Here:
    """This process's parts, as the hub would compute them, and what it told its sockets."""

    def __init__(self) -> None:
        self.parts: dict[str, Roster] = {}
        self.told: list[str] = []

    def part(self, campaign_id: str) -> Roster:
        return self.parts.get(campaign_id, Roster())

    def tell(self, campaign_id: str) -> None:
        self.told.append(campaign_id)


def sharing(feed: Feed, here: Here) -> Sharing:
    return Sharing(feed, here.part, here.tell)  # type: ignore[arg-type]


async def drained(side: Sharing) -> None:
    await asyncio.wait_for(side.drained(), WAIT_S)


async def test_a_share_is_built_when_it_goes_so_the_last_one_is_the_last_state() -> None:
    feed, here = Feed(), Here()
    side = sharing(feed, here)
    feed.may_send.clear()
    here.parts["c"] = Roster((Seated("red", None, 1),))
    side.joined("c")
    await asyncio.wait_for(feed.sending.wait(), WAIT_S)  # the first share is out, and held
    here.parts["c"] = Roster((Seated("red", None, 1), Seated("blue", None, 2)))
    side.joined("c")
    here.parts["c"] = Roster((Seated("red", None, 1),))
    side.left("c", watched=True)
    feed.may_send.set()
    await drained(side)
    assert feed.shared[-1] == ("c", Roster((Seated("red", None, 1),)), True)
    assert len(feed.shared) == 2, "what changed while one share was out went as one more"
    await side.close()


async def test_an_ask_is_answered_with_this_process_part_and_garbage_is_ignored() -> None:
    feed, here = Feed(), Here()
    side = sharing(feed, here)
    here.parts["c"] = Roster(spectators=1)
    theirs = Roster((Seated("blue", "Bo", 5),))
    side.heard("c", "p2", encode(theirs), True)
    await drained(side)
    assert feed.shared == [("c", Roster(spectators=1), False)]
    assert here.told == ["c"] and side.everyone("c") == Roster(theirs.seated, 1)
    side.heard("c", "p3", b"\xc1", True)
    await drained(side)
    assert len(feed.shared) == 1 and here.told == ["c"]
    side.left("c", watched=False)
    await drained(side)
    assert side.everyone("c") == Roster(spectators=1), "a campaign left forgets the others"
    await side.close()


async def test_a_redis_that_is_down_drops_what_waits_instead_of_queueing_it() -> None:
    feed, here = Feed(), Here()
    side = sharing(feed, here)
    feed.failures = 1  # only the first: a share still queued after it would go through
    side.resumed(["a", "b", "c"])
    await asyncio.wait_for(feed.failed.wait(), WAIT_S)
    side.joined("d")
    await drained(side)
    assert feed.shared == [("d", Roster(), True)]
    await side.close()


async def test_closing_lets_the_shares_that_wait_go_first() -> None:
    feed, here = Feed(), Here()
    side = sharing(feed, here)
    feed.may_send.clear()
    side.left("c", watched=False)  # the last socket here closed on the way down
    await asyncio.wait_for(feed.sending.wait(), WAIT_S)
    closing = asyncio.create_task(side.close())
    feed.may_send.set()
    await asyncio.wait_for(closing, WAIT_S)
    assert feed.shared == [("c", Roster(), False)]
