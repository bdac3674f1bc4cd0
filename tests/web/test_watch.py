"""Watching as a spectator: the board follows the players live, offers no actions, and nothing
hidden reaches the page: no seed before the end, no face-down dream card, no deck order."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import Page, WebSocket, expect

from tests.server.conftest import Live
from tests.web.conftest import act_over_http, at_version, create

SEED = 987_654_321


def test_a_spectator_sees_the_play_live_and_nothing_hidden(server: Live, page: Page) -> None:
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=SEED)
    cid = created["id"]
    frames: list[dict[str, Any]] = []

    def listen(socket: WebSocket) -> None:
        socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", listen)
    page.goto(f"{server.http}/#/c/{cid}/watch")
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "")
    at_version(page, created["version"])
    expect(page.locator(".board-gil-ennis .trail-map")).to_be_visible()
    expect(page.locator("button.action")).to_have_count(0)
    expect(page.locator(".actions-panel")).to_contain_text("spectators cannot act")

    # set-up: the spectator sees the rolled dice wait for their seats, and cannot pack them
    expect(page.locator(".character-gil .packing")).to_contain_text("Gil's seat packs them.")
    expect(page.locator(".character-gil .packing .rolled .die")).to_have_count(5)
    version = act_over_http(server, cid, created["seats"]["gil"], label="Pack Gil's dice")
    at_version(page, version)
    expect(page.locator(".recent li.new")).to_contain_text("Gil packed HAND")
    version = act_over_http(server, cid, created["seats"]["ennis"], label="Pack Ennis's dice")
    at_version(page, version)
    expect(page.locator(".character-ennis .packing")).to_have_count(0)
    version = act_over_http(server, cid, created["seats"]["gil"], label="Hike to Hollow Creek")
    at_version(page, version)
    expect(page.locator(".recent li.new")).to_contain_text("hiked to Hollow Creek")
    expect(page.locator("button.action")).to_have_count(0)

    # the timeline shows the past as a spectator sees it, too
    page.get_by_role("button", name="Timeline").click()
    page.locator(".timeline .scrubber").fill("2")
    expect(page.locator(".board-slot")).to_have_attribute("data-version", "2")

    content = httpx.get(f"{server.http}/api/games/gil-ennis/content").json()
    secret_names = [dream["name"] for dream in content["dreams"]]
    secret_names += [dream["worry"]["name"] for dream in content["dreams"]]
    secret_names += [dream["insight"]["name"] for dream in content["dreams"]]
    dream_ids = [dream["id"] for dream in content["dreams"]]
    html = page.content()
    text = page.locator("body").inner_text()
    assert str(SEED) not in html
    assert "salt" not in text.lower()
    for name in secret_names:
        assert name not in text, f"{name!r} is face down, yet the page shows it"
    received = json.dumps(frames)
    assert str(SEED) not in received and '"salt"' not in received
    for message in frames:
        for seen in message.get("events", []) + message.get("missed", []):
            assert not seen["event"].get("order"), "the deck order never leaves the server"
    assert not any(dream_id in received for dream_id in dream_ids)
