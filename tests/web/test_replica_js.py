"""The browser client's protocol logic (``patch.js``, ``replica.js``) follows the same rules as
``clients/patch.py`` and ``clients/replica.py``: run in the page, against the server's own diffs."""

from __future__ import annotations

import random
from typing import Any

import msgspec
from playwright.sync_api import Page

from clients.patch import apply
from projections.patch import diff
from tests.server.conftest import Live

RUN = """async ([module, code]) => {
    const lib = await import(module);
    return new Function("lib", code)(lib);
}"""


def run(page: Page, module: str, code: str) -> Any:
    return page.evaluate(RUN, [f"/{module}", code])


def random_doc(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(6 if depth < 3 else 3)
    if kind == 0:
        return rng.randrange(7)
    if kind == 1:
        return rng.choice(["gil", "ennis", "a/b", "t~1", ""])
    if kind == 2:
        return None  # no booleans: views never hold a boolean where a number was (patch.py)
    if kind in (3, 4):
        return [random_doc(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = rng.sample(["hand", "pocket", "x/y", "~", "worries", "0"], rng.randrange(4))
    return {key: random_doc(rng, depth + 1) for key in keys}


def test_js_patches_turn_each_view_into_the_next_as_the_server_diffs_them(
    server: Live, page: Page
) -> None:
    page.goto(server.http + "/")
    rng = random.Random(12)
    cases = []
    for _ in range(150):
        before, after = random_doc(rng), random_doc(rng)
        ops = msgspec.to_builtins(diff(before, after))
        assert apply(msgspec.json.decode(msgspec.json.encode(before)), ops) == after
        cases.append([before, ops, after])
    mismatches = page.evaluate(
        """async (cases) => {
            const { applyPatch } = await import("/patch.js");
            const canonical = (value) => JSON.stringify(value, (key, item) =>
                item && typeof item === "object" && !Array.isArray(item)
                    ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)))
                    : item);
            return cases.filter(([before, ops, after]) =>
                canonical(applyPatch(structuredClone(before), ops)) !== canonical(after));
        }""",
        cases,
    )
    assert mismatches == []


def test_js_patches_refuse_what_does_not_fit(server: Live, page: Page) -> None:
    page.goto(server.http + "/")
    refused = run(
        page,
        "patch.js",
        """
        const tries = [
            [{a: 1}, [{op: "replace", path: "/b", value: 2}]],
            [{a: [1]}, [{op: "remove", path: "/a/1"}]],
            [{a: 1}, [{op: "move", path: "/a", from: "/b"}]],
            [{a: 1}, [{op: "add", path: "a", value: 2}]],
            [{a: 1}, [{op: "add", path: "/a/b/c", value: 2}]],
        ];
        return tries.map(([doc, ops]) => {
            try { lib.applyPatch(doc, ops); return "applied"; }
            catch (error) { return error instanceof lib.PatchError ? "refused" : String(error); }
        });
        """,
    )
    assert refused == ["refused"] * 5


def test_js_replica_resyncs_resends_and_keeps_presence(server: Live, page: Page) -> None:
    page.goto(server.http + "/")
    outcome = run(
        page,
        "replica.js",
        """
        const { Replica, Exchange, ProtocolError, SYNC } = lib;
        const out = {};
        const welcome = {type: "welcome", campaign: "c", game: "g", seat: "player",
                         seats: ["player"], version: 2, view: {hp: 5},
                         legal_actions: [{id: "a", label: "A"}], outcome: "running", missed: []};
        const update = (first, version, patch) => ({type: "update", first, version, events: [],
                         patch, legal_actions: [], outcome: "running"});
        const replica = new Replica();
        replica.absorb(welcome);
        out.patched = [replica.absorb(update(3, 3, [{op: "replace", path: "/hp", value: 4}])),
                       replica.version, replica.view.hp];
        out.gap = replica.absorb(update(5, 5, [])) === SYNC && replica.lost;
        replica.absorb(update(6, 6, [{op: "replace", path: "/hp", value: 0}]));
        out.ignored = replica.view.hp;
        replica.absorb({type: "sync", version: 6, view: {hp: 1}, legal_actions: [],
                        outcome: "won"});
        out.synced = [replica.lost, replica.version, replica.view.hp, replica.outcome];
        replica.absorb({type: "presence", seats: [{seat: "player", name: "Ana"}], spectators: 1});
        out.presence = Object.fromEntries(replica.connected());
        out.unknown = replica.absorb({type: "fireworks"});

        const again = new Replica();
        again.absorb(welcome);
        const exchange = new Exchange(again, "a", "c-1");
        out.request = exchange.request;
        out.resent = exchange.feed({type: "sync", version: 2, view: {hp: 5}, legal_actions: [],
                                    outcome: "running"}) === exchange.request;
        exchange.feed({type: "accepted", command_id: "c-1", first: 3, version: 3, duplicate: false,
                       events: [], patch: [{op: "replace", path: "/hp", value: 3}],
                       legal_actions: [], outcome: "running"});
        out.done = [exchange.done, again.version, again.view.hp];
        const stale = new Exchange(again, "a", "c-2");
        try {
            stale.feed({type: "rejected", command_id: "c-2", code: "stale_version",
                        message: "No."});
            out.rejected = "accepted";
        } catch (error) {
            out.rejected = [error instanceof ProtocolError, error.code, error.message];
        }
        const ahead = new Exchange(again, "a", "c-3");
        out.duplicate = ahead.feed({type: "accepted", command_id: "c-3", first: 4, version: 5,
                                    duplicate: true}) === SYNC && !ahead.done;
        const limited = new Exchange(again, "a", "c-4");
        const over = {type: "rejected", command_id: "c-4", code: "rate_limited", message: "Slow.",
                      retry_after: 0.25};
        out.limited = [limited.feed(over) === limited.request, limited.takePause(),
                       limited.takePause(), limited.done];
        for (let i = 1; i < lib.MAX_RATE_RETRIES; i += 1) limited.feed(over);
        try {
            limited.feed(over);
            out.limitedAtLast = "resent";
        } catch (error) {
            out.limitedAtLast = error.code;
        }
        return out;
        """,
    )
    assert outcome == {
        "patched": [None, 3, 4],
        "gap": True,
        "ignored": 4,
        "synced": [False, 6, 1, "won"],
        "presence": {"player": ["Ana"]},
        "unknown": None,
        "request": {"type": "act", "action": "a", "command_id": "c-1", "expected_version": 2},
        "resent": True,
        "done": [True, 3, 3],
        "rejected": [True, "stale_version", "No."],
        "duplicate": True,
        "limited": [True, 0.25, 0, False],
        "limitedAtLast": "rate_limited",
    }
