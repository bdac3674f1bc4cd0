"""After a server restart the page is back promptly: however far its reconnection timer has backed
off, the page asks the server's health check every second and reconnects as soon as it answers.
While the connection is down, Hint cannot be asked for."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import free_port
from tests.support.serve_process import serving
from tests.web.conftest import Problems

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
PROMPT_S = 3.0
"""The most the page may take to be live again once the server is ready (its probe asks every
second; the welcome follows)."""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_page_reconnects_within_seconds_of_a_restart_not_when_its_timer_runs_out(
    browser: Browser, problems: Problems, tmp_path: Path, size: str
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
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
        with serving(port, tmp_path):
            ready = time.monotonic()
            expect(page.locator(".turn-bar .turn-headline")).to_have_text(
                "Your move", timeout=PROMPT_S * 1000
            )
            took = time.monotonic() - ready
            assert took <= PROMPT_S, took
            expect(page.locator(".hint-button")).to_be_enabled()
            expect(notice).to_have_count(0)
    finally:
        context.close()
