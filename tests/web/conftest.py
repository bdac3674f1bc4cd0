"""The browser client in a real browser: Debian's Chromium driven by Playwright, against a real
server (uvicorn on a free loopback port, the in-memory store).

Playwright never downloads a browser here: ``PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD`` is set and the
tests launch ``/usr/bin/chromium`` (``bash tests/run.sh`` installs Debian's ``chromium`` package
when it is missing). Screenshots are saved under ``artifacts/screenshots/`` (or
``$TABLETALE_ARTIFACTS``), which git ignores.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")

from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect, sync_playwright

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("TABLETALE_ARTIFACTS", ROOT / "artifacts")) / "screenshots"
VIEWPORT = {"width": 1360, "height": 900}
WAIT_MS = 15_000
expect.set_options(timeout=WAIT_MS)


# Package scope, not session: the sync API runs an event loop of its own in this thread, which
# must be gone before any asyncio test that runs after these.
@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    if not CHROMIUM.exists():
        pytest.fail(
            "The browser tests need Debian's chromium at /usr/bin/chromium: "
            "`bash tests/run.sh` installs it."
        )
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def server() -> Iterator[Live]:
    app = create_app(CampaignService(MemoryStore(), fresh=Reproducible()))
    with running(app) as live:
        yield live


class Problems:
    """Script errors seen by the pages of a test; the test fails if there are any."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def watch(self, page: Page) -> Page:
        page.on("pageerror", lambda error: self.seen.append(f"{page.url}: {error}"))
        return page


@pytest.fixture
def problems() -> Iterator[Problems]:
    found = Problems()
    yield found
    assert not found.seen, "the page threw: " + "; ".join(found.seen)


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    yield context
    context.close()


@pytest.fixture
def page(context: BrowserContext, problems: Problems) -> Page:
    return problems.watch(context.new_page())


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page PNG of ``page`` as an artifact and return its path."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    return path


def create(server: Live, game: str, **body: Any) -> dict[str, Any]:
    """Create a campaign through the HTTP API (behind the page's back)."""
    created = httpx.post(f"{server.http}/api/campaigns", json={"game": game, **body}, timeout=10)
    assert created.status_code == 201, created.text
    answer: dict[str, Any] = created.json()
    return answer


def legal_action(state: dict[str, Any], label: str | None = None) -> str:
    """The id of the first legal action in ``state`` whose label contains ``label`` (any, if
    ``label`` is None)."""
    for action in state["legal_actions"]:
        if label is None or label in action["label"]:
            found: str = action["id"]
            return found
    labels = [action["label"] for action in state["legal_actions"]]
    raise AssertionError(f"No legal action labelled {label!r} among {labels}")


def act_over_http(
    server: Live,
    campaign: str,
    token: str,
    action: str | None = None,
    *,
    label: str | None = None,
) -> int:
    """Take ``action`` (by id; or the first legal one whose label contains ``label``; or the first
    legal one) through HTTP; returns the new version."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server.http, headers=headers, timeout=10) as http:
        state = http.get(f"/api/campaigns/{campaign}/state").json()
        chosen = action or legal_action(state, label)
        body = {"action": chosen, "expected_version": state["version"]}
        acted = http.post(f"/api/campaigns/{campaign}/actions", json=body)
    assert acted.status_code == 200, acted.text
    version: int = acted.json()["version"]
    return version


def open_as(page: Page, server: Live, campaign: str, seat: str, token: str) -> None:
    """Open ``campaign`` in ``page`` as ``seat``, through the invite link a partner would get."""
    page.goto(f"{server.http}/#/join/{campaign}/{seat}/{token}")
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", seat)


def version_of(page: Page) -> int:
    return int(page.locator(".campaign-status").get_attribute("data-version") or 0)


def at_version(page: Page, version: int) -> None:
    expect(page.locator(".campaign-status")).to_have_attribute("data-version", str(version))


def click_action(page: Page, label: str | re.Pattern[str]) -> str:
    """Click the enabled action button whose label matches, opening its group if it is folded;
    returns the id of the action clicked. (A button drawn with dice keeps its label as hidden
    text, so it matches too.)"""
    button = page.locator("button.action:not([disabled])", has_text=label).first
    group = page.locator("details.action-group", has=button)
    if group.count() and not group.first.evaluate("node => node.open"):
        group.first.locator("summary").click()
    action = button.get_attribute("data-action") or ""
    button.click()
    return action


def move_at(server: Live, campaign: str, version: int, token: str | None = None) -> int:
    """The move ``version`` of ``campaign`` belongs to, as players count moves: the server's
    timeline lines carry it (``projections.timeline.MoveCount``; 0 for the set-up)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    lines = httpx.get(
        f"{server.http}/api/campaigns/{campaign}/timeline", headers=headers, timeout=10
    ).json()["lines"]
    move = 0
    for line in lines:
        if line["version"] <= version:
            move = line.get("move", 0)
    return move


def move_name(server: Live, campaign: str, version: int, token: str | None = None) -> str:
    """How the page says the move of ``version``: "move 12", or "set-up"."""
    move = move_at(server, campaign, version, token)
    return f"move {move}" if move else "set-up"
