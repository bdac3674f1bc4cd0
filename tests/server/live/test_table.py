"""One watched campaign's table: who watches, who joins, the audience behind the table and who is
connected here, each kept once; and the hub keeps nothing per campaign beside its tables."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping

from server.campaigns.acting import Acting
from server.campaigns.delay import SPECTATOR_DELAY
from server.campaigns.service import CampaignService
from server.live.frames import JSON_FRAMES, MSGPACK_FRAMES, Frames
from server.live.hub import Hub
from server.live.outbox import Frame, Outbox
from server.live.table import Table
from server.live.watcher import Watcher
from server.store.memory import MemoryStore
from tests.server.live.test_hub import Subscriptions
from tests.support import dice_race
from tests.support.gated_store import WAIT_S

dice_race.register()


class Inbox:
    """An outbox's peer that keeps every frame sent to it."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []

    async def send(self, frame: Frame) -> None:
        self.frames.append(frame)

    async def lagging(self) -> None:
        raise AssertionError("the test's outbox never lags")

    def messages(self) -> list[dict[str, object]]:
        return [json.loads(frame["text"]) for frame in self.frames if "text" in frame]


def watcher(
    campaign_id: str,
    seat: str | None,
    *,
    presence: bool = False,
    frames: Frames = JSON_FRAMES,
) -> tuple[Watcher, Inbox]:
    inbox = Inbox()
    outbox = Outbox(inbox.send, limit=100, on_lagging=inbox.lagging)
    return Watcher(campaign_id, seat, frames, outbox, name=seat, presence=presence), inbox


def test_a_table_is_in_use_while_a_socket_watches_or_joins_and_idle_once_let_go_of() -> None:
    table = Table("c1")
    assert not table.in_use and table.idle
    table.joining += 1
    assert table.in_use and not table.idle
    table.joining -= 1
    seated, _ = watcher("c1", "red")
    table.watchers.append(seated)
    assert table.in_use
    assert table.remove(seated) and not table.remove(seated)  # taken out once
    assert not table.in_use and table.idle


def test_its_roster_counts_seats_by_name_and_spectators_by_number() -> None:
    table = Table("c1")
    for seat in ("red", None, "blue", None, None):
        table.watchers.append(watcher("c1", seat)[0])
    roster = table.roster()
    assert [(s.seat, s.name) for s in roster.seated] == [("red", "red"), ("blue", "blue")]
    assert roster.spectators == 3


async def test_who_is_connected_goes_only_to_the_sockets_that_asked_one_frame_per_format() -> None:
    table = Table("c1")
    asked_json, json_inbox = watcher("c1", "red", presence=True)
    asked_msgpack, msgpack_inbox = watcher("c1", None, presence=True, frames=MSGPACK_FRAMES)
    silent, silent_inbox = watcher("c1", "blue")
    table.watchers += [asked_json, asked_msgpack, silent]
    table.tell(table.roster)
    for box in (asked_json.outbox, asked_msgpack.outbox, silent.outbox):
        await asyncio.wait_for(box.drained(), WAIT_S)
    told = json_inbox.messages()
    assert [m["type"] for m in told] == ["presence"]
    assert told[0]["spectators"] == 1
    assert [len(msgpack_inbox.frames), len(silent_inbox.frames)] == [1, 0]
    assert "bytes" in msgpack_inbox.frames[0]


def test_the_live_watchers_leave_out_the_audience_behind_the_table() -> None:
    table = Table("c1")
    seated, _ = watcher("c1", "red")
    behind, _ = watcher("c1", None)
    behind.behind = True
    table.watchers += [seated, behind]
    assert table.live() is table.watchers  # no audience behind: the list itself, no copy
    table.behind = object()  # type: ignore[assignment]  # only its presence matters here
    assert list(table.live()) == [seated]


async def join(hub: Hub, campaign_id: str, seat: str | None) -> tuple[Watcher, Inbox]:
    inbox = Inbox()
    outbox = Outbox(inbox.send, limit=100, on_lagging=inbox.lagging)
    joined, _ = await hub.join(campaign_id, seat, JSON_FRAMES, outbox)
    outbox.release()
    return joined, inbox


def keyed_by(value: object, campaign_ids: set[str]) -> bool:
    return isinstance(value, Mapping) and bool(campaign_ids & set(value))


async def test_the_hub_keeps_one_map_by_campaign_and_nothing_else_keyed_by_one() -> None:
    service = CampaignService(MemoryStore())
    hub = Hub(service.heads, Subscriptions())
    plain = (await service.create("dice-race", seats=["red", "blue"])).id
    delayed = (
        await service.create("dice-race", seats=["red", "blue"], attrs={SPECTATOR_DELAY: "moves:1"})
    ).id
    campaigns = {plain, delayed}
    joined = [
        await join(hub, plain, "red"),
        await join(hub, plain, None),
        await join(hub, delayed, "blue"),
        await join(hub, delayed, None),  # behind the table
    ]
    tables = hub._tables
    assert set(tables) == campaigns and all(isinstance(t, Table) for t in tables.values())
    assert tables[delayed].behind is not None and tables[plain].behind is None
    others = {name for name, value in vars(hub).items() if keyed_by(value, campaigns)}
    assert others == {"_tables"}
    # Nothing of the fan-out keeps campaigns either (it has no dict at all).
    assert not any(
        isinstance(getattr(hub._fanout, slot), Mapping) for slot in hub._fanout.__slots__
    )
    for watching, _ in joined:
        await hub.leave(watching)
    assert hub._tables == {}
    await hub.close()


async def test_the_acting_socket_gets_its_change_as_the_answer_and_the_others_an_update() -> None:
    service = CampaignService(MemoryStore())
    hub = Hub(service.heads, Subscriptions())
    cid = (await service.create("dice-race", seats=["red", "blue"])).id
    head = await service.heads.head(cid)
    seat = next(seat for seat in head.facts.seats if head.legal(seat))  # the die chose who starts
    acting, acting_inbox = await join(hub, cid, seat)
    other, other_inbox = await join(hub, cid, None)
    await service.act(
        cid,
        seat,
        sorted(head.legal(seat))[0],
        expected_version=head.version,
        command_id="c-1",
        origin=Acting(acting.number, "c-1"),
    )
    for box in (acting.outbox, other.outbox):
        await asyncio.wait_for(box.drained(), WAIT_S)
    answer = acting_inbox.messages()[-1]
    update = other_inbox.messages()[-1]
    assert (answer["type"], answer["command_id"], answer["duplicate"]) == ("accepted", "c-1", False)
    assert update["type"] == "update"
    assert (answer["first"], answer["version"]) == (update["first"], update["version"])
    for watching in (acting, other):
        await hub.leave(watching)
    await hub.close()
