"""After a server restart the page is back promptly: however far its reconnection timer has backed
off, the page asks the server's health check every second and reconnects as soon as it answers.
While the connection is down, Hint cannot be asked for.

The page's timers run on Playwright's clock: once the backed-off timer is 8 s away the clock is
paused and moved on by hand, a step at a time, while the real requests run in between. The page
must be live again before the clock has moved as far as its timer, so the health check brought
it back, however long a busy machine takes to answer each step."""

from __future__ import annotations

import contextlib
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import free_port
from tests.support.serve_process import serving
from tests.web.conftest import Problems

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
STEP_MS = 100
"""How far the page's clock moves per step; between steps the page's real requests run."""
BACKED_OFF_MS = 8000
"""The timer the page shows before the restart: it must not be what reconnects it."""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_reconnects_when_the_server_answers_not_when_its_timer_runs_out(
    browser: Browser, problems: Problems, tmp_path: Path, size: str
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        page.clock.install()  # the page's timers as usual, until the test pauses them
        with serving(port, tmp_path):
            created = httpx.post(
                f"{base}/api/campaigns", json={"game": "gil-ennis", "seats": ["gil", "ennis"]}
            ).json()
            cid, token = created["id"], created["seats"]["gil"]
            page.goto(f"{base}/#/join/{cid}/gil/{token}")
            expect(page.locator(".turn-bar .turn-headline")).to_have_text("Your move")
            expect(page.locator(".hint-button")).to_be_enabled()
        bar = page.locator(".turn-bar")
        expect(bar).to_have_attribute("data-tone", "offline")
        expect(page.locator(".hint-button")).to_be_disabled()  # no hint while offline
        # the page backs off until its next try is 8 s away
        notice = page.locator('[data-notice="connection"]')
        expect(notice).to_contain_text("Reconnecting in 8 s", timeout=30_000)
        page.clock.pause_at(page.evaluate("Date.now()") + 1)
        headline = page.locator(".turn-bar .turn-headline")
        with serving(port, tmp_path):
            steps = 0  # of the page's paused clock, not of the test's
            while headline.inner_text().strip() != "Your move":
                assert steps * STEP_MS < BACKED_OFF_MS, "the page waited for its backed-off timer"
                page.clock.run_for(STEP_MS)
                steps += 1
                # the real requests of this step (the probe, the socket, the welcome) answer
                with contextlib.suppress(AssertionError):
                    expect(headline).to_have_text("Your move", timeout=STEP_MS)
            page.clock.resume()
            expect(page.locator(".hint-button")).to_be_enabled()
            expect(notice).to_have_count(0)
    finally:
        context.close()
