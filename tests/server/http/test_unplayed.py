"""Campaigns of a ruleset this server does not play, on the real server and Redis: listed and
counted, read as stored, exported raw; states, actions, forks and sockets refused in words."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
from starlette import status
from websockets.exceptions import ConnectionClosed

from server.campaigns.played import played_rulesets
from server.campaigns.tokens import token_attrs
from server.export.errors import UnplayedRuleset
from server.export.format import RAW
from server.export.reading import read_export
from server.store.redis_store import RedisStore
from tests.server.conftest import Live, auth, socket_to
from tests.support.polling import eventually
from tests.support.unplayed import ABSENT, NEWER, store_unplayed

TOKEN = "gil-seat-token-of-a-newer-server"


@pytest.fixture
async def stored(live: Live) -> AsyncIterator[dict[str, str]]:
    """Two campaigns another server wrote into this one's store: one of a newer Gil & Ennis
    ruleset (listed, with a seat token), one of a game this server does not have (private)."""
    assert live.redis_url is not None and live.prefix is not None
    store = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    try:
        attrs = {"seed_hash": "c" * 32, **token_attrs({"gil": TOKEN})}
        await store_unplayed(store, "newer", *NEWER, attrs=attrs)
        private = {"seed_hash": "c" * 32, "private": "1"}
        await store_unplayed(store, "absent", *ABSENT, moves=5, attrs=private, listed=False)
        yield {"newer": "newer", "absent": "absent"}
    finally:
        await store.close()


async def created(api: httpx.AsyncClient) -> str:
    response = await api.post("/api/campaigns", json={"game": "dice-race"})
    assert response.status_code == 201, response.text
    return str(response.json()["id"])


async def test_every_stored_campaign_is_listed_with_its_ruleset_and_counted(
    api: httpx.AsyncClient, stored: dict[str, str]
) -> None:
    played = await created(api)
    page = (await api.get("/api/campaigns")).json()
    entries = {entry["id"]: entry for entry in page["campaigns"]}
    assert set(entries) == {played, "newer"}  # the private one stays out of the public list
    newer = entries["newer"]
    assert (newer["game"], newer["ruleset"], newer["played"], newer["status"]) == (
        NEWER[0],
        NEWER[1],
        False,
        "unknown",
    )
    assert newer["version"] == 4
    assert repr(NEWER[1]) in newer["unplayed"]
    assert all(repr(name) in newer["unplayed"] for name in played_rulesets())
    assert entries[played]["played"] is True and entries[played]["unplayed"] is None
    assert entries[played]["ruleset"].startswith("dice-race")
    stats = {each["game"]: each for each in (await api.get("/api/stats")).json()["games"]}
    assert stats[NEWER[0]]["totals"]["unplayed"] == 1
    assert stats[NEWER[0]]["totals"]["games"] == 0
    assert stats[NEWER[0]]["unplayed_rulesets"] == {NEWER[1]: 1}
    assert stats["dice-race"]["totals"]["running"] == 1


async def test_readyz_names_how_many_campaigns_and_rulesets_are_not_played(
    api: httpx.AsyncClient, stored: dict[str, str]
) -> None:
    await created(api)

    last: dict[str, Any] = {}

    async def counted() -> bool:
        response = await api.get("/readyz")
        assert response.status_code == 200
        last.update(response.json())
        return bool(last["counted"]) and last["campaigns"] == 3

    await eventually(counted, "the census counts the three campaigns", 20.0)
    ready = last
    assert ready["ready"] is True
    # The private campaign is counted too: the operator sees every stored campaign.
    assert ready["unplayed_campaigns"] == 2
    assert ready["unplayed_rulesets"] == {ABSENT[1]: 1, NEWER[1]: 1}
    assert ready["played_rulesets"] == played_rulesets()
    assert "2 of 3 stored campaigns" in ready["words"] and repr(ABSENT[1]) in ready["words"]


async def test_metadata_and_the_timeline_answer_from_what_is_stored(
    api: httpx.AsyncClient, stored: dict[str, str]
) -> None:
    meta = (await api.get("/api/campaigns/newer")).json()
    assert meta["entry"]["played"] is False and meta["seats"] == ["gil", "ennis"]
    assert meta["seed"] is None and meta["seed_hash"] == "c" * 32
    timeline = (await api.get("/api/campaigns/newer/timeline")).json()
    assert timeline["head"] == 4 and timeline["points"] is None
    assert repr(NEWER[1]) in timeline["unplayed"]
    lines = timeline["lines"]
    assert [line["version"] for line in lines] == [1, 2, 3, 4]
    assert "which this server does not play" in lines[0]["text"]
    assert lines[1]["text"] == f"Stored event {NEWER[0]}/moved, by seat gil."
    assert [line.get("move", 0) for line in lines] == [0, 1, 2, 3]
    later = (await api.get("/api/campaigns/newer/timeline?after=2&limit=1")).json()
    assert [line["version"] for line in later["lines"]] == [3]
    # A private campaign's reads still want a seat token, whatever its ruleset.
    assert (await api.get("/api/campaigns/absent/timeline")).status_code == 403


async def test_events_are_types_for_spectators_and_whole_for_a_seat_which_marks_known_luck(
    api: httpx.AsyncClient, stored: dict[str, str]
) -> None:
    seen = (await api.get("/api/campaigns/newer/events")).json()
    assert seen["raw"] is True and seen["head"] == 4
    assert [event["event"] for event in seen["events"]][:2] == [
        {"type": "campaign/created"},
        {"type": f"{NEWER[0]}/moved"},
    ]
    assert (await api.get("/api/campaigns/newer")).json()["entry"]["known_luck"] is False
    whole = (await api.get("/api/campaigns/newer/events", headers=auth(TOKEN))).json()
    first, second = whole["events"][0]["event"], whole["events"][1]["event"]
    assert first["ruleset"] == NEWER[1] and first["seed"] == str(2**63 + 7)
    assert second == {"type": f"{NEWER[0]}/moved", "to": 0, "hidden_card": "card-0"}
    assert whole["events"][1]["seat"] == "gil"
    assert (await api.get("/api/campaigns/newer")).json()["entry"]["known_luck"] is True
    bad = await api.get("/api/campaigns/newer/events", headers=auth("not-a-token"))
    assert bad.status_code == 401


async def test_state_actions_and_forks_answer_409_naming_the_rulesets(
    api: httpx.AsyncClient, stored: dict[str, str]
) -> None:
    asks = [
        api.get("/api/campaigns/newer/state"),
        api.get("/api/campaigns/newer/state?at=2"),
        api.post(
            "/api/campaigns/newer/actions",
            json={"action": "x", "expected_version": 4},
            headers=auth(TOKEN),
        ),
        api.post("/api/campaigns/newer/fork", json={"at": 2}, headers=auth(TOKEN)),
    ]
    for ask in asks:
        response = await ask
        assert response.status_code == 409, response.text
        error = response.json()["error"]
        assert error["code"] == "unsupported_ruleset"
        assert repr(NEWER[1]) in error["message"]
        assert all(repr(name) in error["message"] for name in played_rulesets())


async def test_a_seat_exports_a_raw_file_that_an_import_here_refuses_in_words(
    api: httpx.AsyncClient, stored: dict[str, str]
) -> None:
    assert (await api.get("/api/campaigns/newer/export")).status_code == 403
    response = await api.get("/api/campaigns/newer/export", headers=auth(TOKEN))
    assert response.status_code == 200
    assert "newer-raw.jsonl" in response.headers["content-disposition"]
    raw = response.content.splitlines(keepends=True)
    header, campaign = (msgspec.json.decode(line) for line in raw[:2])
    assert header["scope"] == RAW and campaign["outcome"] == "unknown"
    assert campaign["ruleset"] == NEWER[1] and campaign["head"] == 4 and len(raw) == 7
    assert msgspec.json.decode(raw[3])["event"]["hidden_card"] == "card-0"
    with pytest.raises(UnplayedRuleset, match="keep the file, a server that plays"):
        read_export(raw)


async def test_its_lineage_and_a_stored_rewind_read_without_its_rules(
    live: Live, api: httpx.AsyncClient
) -> None:
    assert live.redis_url is not None and live.prefix is not None
    store = RedisStore.from_url(live.redis_url, prefix=live.prefix)
    try:
        await store_unplayed(store, "rewound", *NEWER, moves=4, rewind_to=3)
    finally:
        await store.close()
    lines = (await api.get("/api/campaigns/rewound/timeline")).json()["lines"]
    assert lines[-1]["text"] == "The campaign was rewound to version 3."
    assert (lines[-1]["version"], lines[-1]["rewound_to"]) == (6, 3)
    assert [line.get("move", 0) for line in lines] == [0, 1, 2, 3, 4, 2]
    lineage = await api.get("/api/campaigns/rewound/lineage")
    assert lineage.status_code == 200, lineage.text
    branches = lineage.json()["branches"]
    assert {branch["outcome"] for branch in branches if branch["kind"] == "root"} == {"unknown"}
    assert [branch["kind"] for branch in branches].count("undone") == 1


async def test_a_socket_to_it_is_told_why_and_closed(live: Live, stored: dict[str, str]) -> None:
    async with socket_to(live, "newer") as player:
        await player.send({"type": "hello", "token": TOKEN})
        error = await player.expect("error")
        assert error["code"] == "unsupported_ruleset" and repr(NEWER[1]) in error["message"]
        with pytest.raises(ConnectionClosed):
            await player.recv()
        assert player.connection.close_code == status.WS_1008_POLICY_VIOLATION
