"""The client's copy of a campaign and the life of one action, without any socket."""

from __future__ import annotations

from typing import Any

import pytest

from clients.replica import MAX_RATE_RETRIES, SYNC, Exchange, ProtocolError, Replica


def welcome(version: int = 2, view: Any = None) -> dict[str, Any]:
    return {
        "type": "welcome",
        "campaign": "c",
        "game": "g",
        "seat": "player",
        "seats": ["player"],
        "version": version,
        "view": view if view is not None else {"hp": 5, "cards": [1, 2]},
        "legal_actions": [{"id": "a", "label": "A"}],
        "outcome": "running",
        "missed": [{"version": version, "event": {"type": "x"}}],
    }


def update(first: int, version: int, patch: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "update",
        "first": first,
        "version": version,
        "events": [{"version": v, "event": {"type": "e"}} for v in range(first, version + 1)],
        "patch": patch,
        "legal_actions": [{"id": "b", "label": "B"}],
        "outcome": "running",
    }


def test_updates_patch_the_view_and_move_the_version() -> None:
    replica = Replica()
    replica.absorb(welcome())
    assert replica.absorb(update(3, 4, [{"op": "replace", "path": "/hp", "value": 4}])) is None
    assert (replica.version, replica.view["hp"]) == (4, 4)
    assert replica.legal_actions == [{"id": "b", "label": "B"}]
    assert [e["version"] for e in replica.events] == [2, 3, 4]


def test_a_long_resume_adds_its_pages_to_the_log_and_keeps_the_view() -> None:
    replica = Replica()
    start = {**welcome(9), "missed": [{"version": v, "event": {}} for v in (3, 4)]}
    replica.absorb({**start, "missed_more": True})
    assert replica.missing
    for versions, more in (((5, 6, 7), True), ((8, 9), False)):
        page = {"type": "missed", "events": [{"version": v, "event": {}} for v in versions]}
        assert replica.absorb({**page, "more": more}) is None
        assert (replica.version, replica.view) == (9, start["view"])
    assert not replica.missing
    assert [e["version"] for e in replica.events] == list(range(3, 10))
    replica.absorb(update(10, 10, [{"op": "replace", "path": "/hp", "value": 1}]))
    assert replica.version == 10 and replica.events[-1]["version"] == 10


def test_an_update_that_skips_a_version_asks_for_a_sync_and_waits_for_it() -> None:
    replica = Replica()
    replica.absorb(welcome())
    assert replica.absorb(update(4, 4, [])) == SYNC
    assert replica.lost and replica.version == 2
    assert replica.absorb(update(5, 5, [{"op": "replace", "path": "/hp", "value": 0}])) is None
    assert replica.view["hp"] == 5, "updates are ignored until the sync arrives"
    sync = {"type": "sync", "version": 5, "view": {"hp": 3}, "legal_actions": [], "outcome": "won"}
    replica.absorb(sync)
    assert not replica.lost and (replica.version, replica.view, replica.outcome) == (
        5,
        {"hp": 3},
        "won",
    )


def test_a_patch_that_does_not_fit_asks_for_a_sync() -> None:
    replica = Replica()
    replica.absorb(welcome())
    assert replica.absorb(update(3, 3, [{"op": "remove", "path": "/nothing"}])) == SYNC


def test_an_exchange_ends_with_its_own_accepted_answer() -> None:
    replica = Replica()
    replica.absorb(welcome())
    exchange = Exchange(replica, "a", "cmd-1")
    assert exchange.request == {
        "type": "act",
        "action": "a",
        "command_id": "cmd-1",
        "expected_version": 2,
    }
    exchange.feed(update(3, 3, []))  # someone else's change arrived first
    assert not exchange.done
    accepted = {**update(4, 5, [{"op": "add", "path": "/cards/-", "value": 3}]), "type": "accepted"}
    accepted["command_id"] = "cmd-1"
    assert exchange.feed(accepted) is None
    assert exchange.done and replica.version == 5 and replica.view["cards"] == [1, 2, 3]


def test_a_rejection_or_an_error_raises() -> None:
    replica = Replica()
    replica.absorb(welcome())
    with pytest.raises(ProtocolError) as refused:
        Exchange(replica, "a", "cmd").feed(
            {"type": "rejected", "command_id": "cmd", "code": "stale_version", "message": "m"}
        )
    assert refused.value.code == "stale_version"
    with pytest.raises(ProtocolError):
        Exchange(replica, "a", "cmd").feed({"type": "error", "code": "x", "message": "m"})


def test_an_action_over_the_rate_is_sent_again_after_the_servers_pause_a_bounded_times() -> None:
    replica = Replica()
    replica.absorb(welcome())
    exchange = Exchange(replica, "a", "cmd")
    limited = {
        "type": "rejected",
        "command_id": "cmd",
        "code": "rate_limited",
        "message": "m",
        "retry_after": 0.25,
    }
    assert exchange.feed(limited) == exchange.request
    assert exchange.take_pause() == 0.25 and exchange.take_pause() == 0.0
    assert not exchange.done
    for _ in range(MAX_RATE_RETRIES - 1):
        assert exchange.feed(limited) == exchange.request
    with pytest.raises(ProtocolError) as refused:
        exchange.feed(limited)
    assert refused.value.code == "rate_limited"
    without_pause = {k: v for k, v in limited.items() if k != "retry_after"}
    with pytest.raises(ProtocolError):
        Exchange(replica, "a", "cmd").feed(without_pause)


def test_a_duplicate_answer_ahead_of_the_replica_asks_for_a_sync() -> None:
    replica = Replica()
    replica.absorb(welcome())
    exchange = Exchange(replica, "a", "cmd")
    duplicate = {
        "type": "accepted",
        "command_id": "cmd",
        "first": 3,
        "version": 4,
        "duplicate": True,
    }
    assert exchange.feed(duplicate) == SYNC
    assert not exchange.done
    exchange.feed(
        {"type": "sync", "version": 4, "view": {}, "legal_actions": [], "outcome": "running"}
    )
    assert exchange.done


def test_a_sync_before_the_answer_sends_the_action_again_with_the_same_command_id() -> None:
    replica = Replica()
    replica.absorb(welcome())
    exchange = Exchange(replica, "a", "cmd")
    sync = {"type": "sync", "version": 2, "view": {}, "legal_actions": [], "outcome": "running"}
    assert exchange.feed(sync) == exchange.request


def test_presence_is_kept_and_unknown_messages_are_ignored() -> None:
    replica = Replica()
    replica.absorb(welcome())
    presence = {
        "type": "presence",
        "seats": [{"seat": "player", "name": "Ana"}, {"seat": "player", "name": None}],
        "spectators": 2,
    }
    assert replica.absorb(presence) is None
    assert replica.connected() == {"player": ["Ana"]}
    assert replica.absorb({"type": "fireworks", "colour": "gold"}) is None
    assert (replica.version, replica.lost) == (2, False)
    exchange = Exchange(replica, "a", "c-1")
    assert exchange.feed({"type": "fireworks"}) is None and not exchange.done
