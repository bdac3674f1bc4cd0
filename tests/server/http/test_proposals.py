"""Rewinds at a table of several people: proposed, agreed or declined; a seat's own last move
taken back alone; the banner every seat is pushed after a rewind."""

from __future__ import annotations

from typing import Any

import httpx

from tests.server.conftest import Live, Socket, auth, socket_to
from tests.server.http.test_commands import act, mover, state, two_seats


async def played(api: httpx.AsyncClient, created: dict[str, Any], actions: list[str]) -> int:
    """Each seat to act takes the next of ``actions``; the version reached."""
    version = 2
    for n, action in enumerate(actions):
        seat, _ = await mover(api, created)
        answer = await act(api, created["id"], created["seats"][seat], action, version, f"m{n}")
        assert answer.status_code == 200, answer.text
        version = answer.json()["version"]
    return version


async def propose(api: httpx.AsyncClient, cid: str, token: str, to: int) -> httpx.Response:
    return await api.post(f"/api/campaigns/{cid}/proposals", json={"to": to}, headers=auth(token))


async def answer(
    api: httpx.AsyncClient, cid: str, token: str, proposal: str, accept: bool
) -> httpx.Response:
    return await api.post(
        f"/api/campaigns/{cid}/proposal/answer",
        json={"id": proposal, "accept": accept},
        headers=auth(token),
    )


async def pushed(socket: Socket, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` the socket is pushed (others are skipped)."""
    while True:
        message = await socket.recv()
        if message["type"] == kind:
            return message


async def test_a_declined_rewind_changes_nothing(api: httpx.AsyncClient, live: Live) -> None:
    created = await two_seats(api)
    cid, seats = created["id"], created["seats"]
    version = await played(api, created, ["roll", "roll", "roll"])
    before = await state(api, cid)
    first, _ = await mover(api, {"id": cid})
    asker = "blue" if first == "red" else "red"
    other = "red" if asker == "blue" else "blue"
    async with socket_to(live, cid) as partner:
        await partner.hello(seats[other])
        direct = await api.post(
            f"/api/campaigns/{cid}/rewind", json={"to": 3}, headers=auth(seats[asker])
        )
        assert direct.status_code == 409 and other in direct.json()["error"]["message"]
        asked = await propose(api, cid, seats[asker], 3)
        assert asked.status_code == 200, asked.text
        proposal = asked.json()["proposal"]
        assert proposal["by"] == asker and proposal["asked"] == [other]
        assert proposal["at"] == version and proposal["moves"] == 2 and proposal["undone"]
        told = await pushed(partner, "proposal")
        assert told["open"]["id"] == proposal["id"]
        again = await propose(api, cid, seats[other], 3)
        assert again.status_code == 409, "one proposal at a time"
        declined = await answer(api, cid, seats[other], proposal["id"], False)
        assert declined.json()["ended"]["ending"] == "declined"
        assert (await pushed(partner, "proposal"))["ended"]["answered_by"] == other
    after = await state(api, cid)
    assert after["version"] == before["version"] and after["view"] == before["view"]
    gone = await api.get(f"/api/campaigns/{cid}/proposal", headers=auth(seats[asker]))
    assert gone.json()["proposal"] is None
    late = await answer(api, cid, seats[other], proposal["id"], True)
    assert late.status_code == 409


async def test_an_accepted_rewind_rewinds_and_every_seat_gets_the_banner(
    api: httpx.AsyncClient, live: Live
) -> None:
    created = await two_seats(api)
    cid, seats = created["id"], created["seats"]
    version = await played(api, created, ["roll", "roll", "roll"])
    at3 = await state(api, cid, at=3)
    async with socket_to(live, cid) as red, socket_to(live, cid) as blue:
        await red.hello(seats["red"])
        await blue.hello(seats["blue"])
        proposal = (await propose(api, cid, seats["red"], 3)).json()["proposal"]
        accepted = await answer(api, cid, seats["blue"], proposal["id"], True)
        assert accepted.status_code == 200, accepted.text
        assert accepted.json()["ended"]["ending"] == "accepted"
        for socket in (red, blue):
            banner = await pushed(socket, "rewound")
            assert banner["by"] == "red" and banner["to"] == 3 and banner["agreed"] == ["blue"]
            assert banner["moves"] == 2 and len(banner["undone"]) >= 2
    after = await state(api, cid)
    assert after["version"] == version + 1 and after["view"] == at3["view"]


async def test_a_move_made_ends_the_proposal(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid, seats = created["id"], created["seats"]
    version = await played(api, created, ["roll", "roll"])
    asker, other = await mover(api, created)
    proposal = (await propose(api, cid, seats[asker], 3)).json()["proposal"]
    moved = await act(api, cid, seats[asker], "hold", version, "after")
    assert moved.status_code == 200
    listed = await api.get(f"/api/campaigns/{cid}/proposal", headers=auth(seats[other]))
    assert listed.json()["proposal"] is None
    late = await answer(api, cid, seats[other], proposal["id"], True)
    assert late.status_code == 409
    assert (await state(api, cid))["version"] == version + 1


async def test_a_seat_takes_back_its_own_last_move_alone(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid, seats = created["id"], created["seats"]
    version = await played(api, created, ["roll"])
    before = await state(api, cid)
    seat, _ = await mover(api, created)
    held = await act(api, cid, seats[seat], "hold", version, "mine")
    assert held.status_code == 200
    alone = await propose(api, cid, seats[seat], version)
    assert alone.status_code == 200, alone.text
    assert alone.json()["proposal"] is None and alone.json()["rewound"]["version"] == version + 2
    assert (await state(api, cid))["view"] == before["view"]


async def test_a_take_back_past_luck_needs_the_partner(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid, seats = created["id"], created["seats"]
    version = await played(api, created, ["roll"])
    seat, other = await mover(api, created)
    rolled = await act(api, cid, seats[seat], "roll", version, "mine")
    assert rolled.status_code == 200
    asked = await propose(api, cid, seats[seat], version)
    assert asked.json()["proposal"]["asked"] == [other]
    withdrawn = await answer(api, cid, seats[seat], asked.json()["proposal"]["id"], False)
    assert withdrawn.json()["ended"]["ending"] == "withdrawn"
    assert (await state(api, cid))["version"] == version + 1


async def test_a_spectator_cannot_propose(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    await played(api, created, ["roll"])
    refused = await api.post(f"/api/campaigns/{created['id']}/proposals", json={"to": 2})
    assert refused.status_code == 403


async def test_an_open_proposal_stays_out_of_the_export_file(api: httpx.AsyncClient) -> None:
    created = await two_seats(api)
    cid, seats = created["id"], created["seats"]
    await played(api, created, ["roll", "roll"])
    asker, _ = await mover(api, created)
    asked = await propose(api, cid, seats[asker], 3)
    assert asked.json()["proposal"] is not None
    exported = await api.get(f"/api/campaigns/{cid}/export", headers=auth(seats[asker]))
    assert exported.status_code == 200, exported.text
    assert "proposal" not in exported.text and asked.json()["proposal"]["id"] not in exported.text
