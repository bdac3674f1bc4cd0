"""Bots in the browser: a bot seat chosen in the lobby, the bot's moves arriving live and named
in the seats panel, a hint asked for with the Hint control (or H), and axe finding nothing of any
impact on the page with its bot controls."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import BotSettings
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running
from tests.support.polling import Deadline
from tests.web.conftest import Problems, version_of

AXE = Axe()
BOT = "search bot (level 1)"
AXE_OPTIONS = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]}}


@pytest.fixture
def table() -> Iterator[Live]:
    # A pace, as people play with: the page is open before the bot's first move shows.
    settings = BotSettings(pace_ms=1500, workers=0, poll_s=0.2)
    app = create_app(CampaignService(MemoryStore(), fresh=Reproducible()), bot_settings=settings)
    with running(app) as live:
        yield live


def test_a_bot_seat_from_the_lobby_plays_beside_the_person_who_may_ask_for_a_hint(
    table: Live, page: Page, problems: Problems
) -> None:
    page.goto(table.http + "/")
    card = page.locator('form.game-card[data-game="gil-ennis"]')
    card.locator('select[name="layout"]').select_option(index=1)  # gil and ennis
    expect(card.locator("select[data-bot-seat]")).to_have_count(2)
    card.locator('select[data-bot-seat="ennis"]').select_option(label="search bot, level 1")
    card.locator('input[name="seed"]').fill("4")
    card.get_by_role("button", name="New The Epic of Gil & Ennis campaign").click()

    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "gil")
    campaign = page.url.rsplit("/", 1)[-1]
    expect(page.locator('.seats li[data-seat="ennis"]')).to_contain_text(
        "bot: search bot (level 1)"
    )
    # The bot packs Ennis's dice by itself, and the page follows without anyone acting.
    by_bot = bot_moves(table, campaign)
    assert by_bot and all(seat == "ennis" for _, seat in by_bot)
    page.wait_for_function(
        "v => Number(document.querySelector('.campaign-status').dataset.version) >= v",
        arg=max(v for v, _ in by_bot),
    )
    expect(page.locator(".recent li", has=page.locator(".by-bot")).first).to_contain_text(
        "Ennis packed"
    )
    expect(page.locator(".recent .by-bot").first).to_have_text(f" (played by the {BOT})")
    # Then nothing moves until Gil has packed: a hint for Gil now.
    expect(page.locator(".hint-button")).to_be_enabled()
    page.locator(".hint-button").click()
    expect(page.locator(".hint-text")).to_contain_text("Hint: ")
    hint_text = page.locator(".hint-text").inner_text()
    assert hint_text.split(":", 2)[1].strip(), "the hint names an action"
    head = httpx.get(f"{table.http}/api/campaigns/{campaign}/events", timeout=10).json()["head"]
    assert head == version_of(page), "a hint plays nothing"
    page.keyboard.press("h")
    expect(page.locator(".hint-text")).to_contain_text("Hint: ")

    # The bots' own controls and the seats they are named in (the rest of the page has its own
    # checks in test_layout.py).
    results = AXE.run(
        page, context={"include": [[".bots-bar"], [".seats-panel li"]]}, options=AXE_OPTIONS
    )
    found = [
        (v["id"], [n["target"] for n in v["nodes"][:4]]) for v in results.response["violations"]
    ]
    assert not found, found


def bot_moves(table: Live, campaign: str, timeout: float = 120) -> list[tuple[int, str]]:
    """The versions and seats of the bot's events, once there are some (fails after
    ``timeout`` seconds)."""
    deadline = Deadline("the bot to move", timeout)
    while True:
        events = httpx.get(f"{table.http}/api/campaigns/{campaign}/events", timeout=10).json()
        found = [(e["version"], e["seat"]) for e in events["events"] if e["by"] == BOT]
        if found:
            return found
        deadline.check(f"{len(events['events'])} events")
        threading.Event().wait(0.05)  # a poll interval, not a wait for an outcome
