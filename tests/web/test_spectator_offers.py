"""What a spectator is offered: only what a spectator may do. On a running campaign the timeline
has no fork and no rewind for them, says why in plain words, and never tells them to "play on"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import Live
from tests.web.conftest import Problems, act_over_http, at_version, create, screenshot

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", list(SIZES))
def test_a_spectator_of_a_running_campaign_is_offered_no_fork_and_no_rewind(
    server: Live, browser: Browser, problems: Problems, size: str
) -> None:
    created = create(server, "gil-ennis", seed=3)
    cid = created["id"]
    head = act_over_http(server, cid, created["seats"]["player"], label="Pack Gil's dice")
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        page.goto(f"{server.http}/#/c/{cid}/watch")
        at_version(page, head)
        page.get_by_role("button", name="Timeline").click()
        timeline = page.locator(".timeline")
        expect(timeline.locator(".position")).to_be_visible()
        page.locator(".timeline .first").click()
        expect(page.locator(".board-slot")).to_have_attribute("data-version", "1")
        expect(timeline.locator("button.fork")).to_be_hidden()
        expect(timeline.locator("button.rewind")).to_be_hidden()
        note = timeline.locator(".point-note")
        expect(note).to_contain_text("You are watching: a spectator may fork this campaign once")
        expect(page.locator(".turn-bar")).to_contain_text("close it to watch the game live")
        assert "play on" not in page.locator("body").inner_text()
        assert "token" not in page.locator("body").inner_text()
        expect(timeline.get_by_role("button", name="Back to the live game")).to_be_visible()
        screenshot(page, f"spectator-timeline-{size}")
    finally:
        context.close()
