"""Where did it turn, in the browser: the end panel of an ended Gil & Ennis campaign offers the
analysis; the chart of the chance of winning (an SVG image with its text alternative and a table
of every point), the turning points in words, each a link to that moment, and "Try it", which
opens a fork where the preferred move was played. At a phone's size and a laptop's, with axe;
the screenshots docs/analysis.md shows are saved under docs/images/."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import BotSettings
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, auth, running
from tests.web.conftest import ARTIFACTS, Problems, open_as
from tests.web.test_layout import (
    AXE,
    AXE_OPTIONS,
    SMALL_TARGETS,
    SMALLEST_TARGET,
    SMALLEST_TEXT,
    TEXT_SIZES,
    WIDER_THAN_PAGE,
)

pytestmark = pytest.mark.slow

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
ANALYSED_MS = 600_000
"""The quick level of a whole journey, in one bot worker on a busy machine."""


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """One server for the module: the second size reads what the first one's analysis kept."""
    service = CampaignService(MemoryStore(), fresh=Reproducible())
    # Normal priority: at idle, beside the parallel phase's workers, the worker waited for a free
    # core most of its time (how workers stand back: tests/server/bots/test_bots.py).
    settings = BotSettings(pace_ms=0, workers=1, poll_s=0.2, priority="normal")
    with running(create_app(service, bot_settings=settings)) as server:
        yield server


@pytest.fixture(scope="module")
def ended(live: Live) -> dict[str, Any]:
    """A Gil & Ennis campaign played to its end at random over the API."""
    chooser = random.Random(3)
    with httpx.Client(base_url=live.http, timeout=30.0) as api:
        created = api.post(
            "/api/campaigns", json={"game": "gil-ennis", "seats": ["gil", "ennis"], "seed": "41"}
        ).json()
        cid, tokens = created["id"], created["seats"]
        for step in range(2000):
            for token in tokens.values():
                state = api.get(f"/api/campaigns/{cid}/state", headers=auth(token)).json()
                if state["outcome"] != "running" or state["legal_actions"]:
                    break
            if state["outcome"] != "running":
                break
            action = chooser.choice(state["legal_actions"])["id"]
            body = {"action": action, "expected_version": state["version"], "command_id": str(step)}
            assert api.post(
                f"/api/campaigns/{cid}/actions", json=body, headers=auth(token)
            ).is_success
    assert state["outcome"] in ("won", "lost")
    return {"id": cid, "tokens": tokens, "head": state["version"]}


INSIDE = ".analysis"
TEXT_INSIDE = TEXT_SIZES.replace(
    'document.querySelector("#app")', f'document.querySelector("{INSIDE}")'
)
TARGETS_INSIDE = SMALL_TARGETS.replace(
    "document.querySelectorAll(", f'document.querySelector("{INSIDE}").querySelectorAll('
)


def check_analysis(page: Page, size: str) -> None:
    """The measures of tests/web/test_layout.py: the page fits its width and axe finds nothing
    serious in it; the analysis's own text and controls are of a readable size and a target's
    size on a phone (the rest of the page is that module's to measure)."""
    assert TEXT_INSIDE != TEXT_SIZES and TARGETS_INSIDE != SMALL_TARGETS
    faults: list[str] = []
    fits = page.evaluate(WIDER_THAN_PAGE)
    if fits["scrollWidth"] > fits["width"]:
        faults.append(f"{fits['scrollWidth']} px wide in {fits['width']}: {fits['wide']}")
    if size == "phone":
        sizes = page.evaluate(TEXT_INSIDE)
        assert sizes, "no text was measured"
        small = sorted({(px, what) for px, what in sizes if px < SMALLEST_TEXT})
        if small:
            faults.append(f"text under {SMALLEST_TEXT} px: {small[:12]}")
        targets = page.evaluate(TARGETS_INSIDE, SMALLEST_TARGET)
        if targets:
            faults.append(f"controls under {SMALLEST_TARGET} px: {targets[:12]}")
    results = AXE.run(page, options=AXE_OPTIONS)
    serious = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:4]]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    if serious:
        faults.append(f"axe found {serious}")
    assert not faults, f"the analysis at {size}: " + "; ".join(faults)


def analyse_in_page(page: Page) -> None:
    """Ask the end panel for the quick analysis, and wait until every point is estimated."""
    panel = page.locator(".end-panel")
    expect(panel).to_be_visible()
    panel.get_by_label("How deep").select_option("1")
    panel.get_by_role("button", name="Where did it turn?").click()
    expect(panel.locator(".analysis-body")).to_have_attribute(
        "data-state", "done", timeout=ANALYSED_MS
    )


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_end_panel_shows_where_it_turned(
    live: Live, ended: dict[str, Any], browser: Browser, problems: Problems, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        cid = ended["id"]
        open_as(page, live, cid, "gil", ended["tokens"]["gil"])
        analyse_in_page(page)
        section = page.locator(".analysis")
        chart = section.get_by_role("img", name="The chance of winning across the campaign")
        expect(chart).to_be_visible()
        answer = httpx.get(f"{live.http}/api/campaigns/{cid}/analysis?level=1", timeout=30).json()
        points = answer["analysis"]["points"]
        turning = answer["analysis"]["turning_points"]
        assert turning, "a campaign played at random has a turning point"
        # The text alternative: a description, and every point in a table.
        assert f"{len(points)} decisions" in (chart.locator("desc").text_content() or "")
        expect(section.locator(".chance-table tbody tr")).to_have_count(len(points))
        # Turning points are numbered diamonds on the chart and a list in words.
        expect(chart.locator(".chance-turn")).to_have_count(len(turning))
        items = section.locator("ol.turning-points > li")
        expect(items).to_have_count(len(turning))
        expect(items.first).to_contain_text(turning[0]["words"])
        # Named as players count moves; the link keeps the version.
        link = items.first.get_by_role(
            "link", name=re.compile(r"^Go to where move \d+ was chosen$")
        )
        expect(link).to_have_attribute("href", f"#/c/{cid}/at/{turning[0]['version']}")
        section.scroll_into_view_if_needed()
        check_analysis(page, size)
        # Saved with the other boards' (docs/analysis.md shows a copy of each).
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        section.screenshot(
            path=str(ARTIFACTS / f"analysis-{SIZES[size]['width']}.png"),
            animations="disabled",
            style=".turn-bar { visibility: hidden; }",  # the sticky bar over the section's top
        )
        # The link opens the timeline at that moment.
        link.click()
        expect(page).to_have_url(re.compile(rf"#/c/{cid}/at/{turning[0]['version']}$"))
        history = page.locator(".history-bar")
        expect(history).to_have_attribute("data-version", str(turning[0]["version"]))
        expect(history).to_contain_text("Showing ")
    finally:
        context.close()


def test_try_it_opens_a_fork_where_the_preferred_move_was_played(
    live: Live, ended: dict[str, Any], page: Page
) -> None:
    cid = ended["id"]
    open_as(page, live, cid, "gil", ended["tokens"]["gil"])
    analyse_in_page(page)
    first = page.locator("ol.turning-points > li").first
    turning = int(first.get_attribute("data-version") or 0)
    with page.expect_response(re.compile(r"/analysis/try$")) as answered:
        first.get_by_role("button", name="Try it").click()
    tried = answered.value.json()
    fork = tried["fork"]
    expect(page).to_have_url(re.compile(rf"#/c/{fork['id']}$"))
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", tried["seat"])
    expect(page.locator(".campaign-status")).to_have_attribute(
        "data-version", str(tried["version"])
    )
    events = httpx.get(
        f"{live.http}/api/campaigns/{fork['id']}/events",
        params={"after": fork["version"]},
        headers=auth(fork["seats"][tried["seat"]]),
        timeout=30,
    ).json()["events"]
    assert events and all(e["seat"] == tried["seat"] for e in events)
    assert events[-1]["version"] == tried["version"]
    assert fork["version"] == turning + 1, "forked at the turning point, then reseeded"
