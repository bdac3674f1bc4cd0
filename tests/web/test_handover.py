"""Bots taking a seat, live: the partner's open page offers to hand an away seat to a bot within
seconds of the seat becoming away (no reload), a player who has to leave lets a bot play their
seat until they are back, and a bot playing your seat is said at the top of the page, where a
phone shows it, with the control that takes it back."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import BotSettings
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running
from tests.support.polling import Deadline
from tests.web.conftest import Problems, create, open_as, screenshot
from tests.web.test_layout import check_page

AWAY_S = 1.5
"""A short away time, so the test sees a seat become away."""
OFFER_PATIENCE_MS = 60_000
"""Only stops a hang: the offer is pushed to the open page once the seat is away."""
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.fixture
def table() -> Iterator[Live]:
    settings = BotSettings(pace_ms=300, workers=0, poll_s=0.2, away_s=AWAY_S)
    app = create_app(CampaignService(MemoryStore(), fresh=Reproducible()), bot_settings=settings)
    with running(app) as live:
        yield live


def away(table: Live, campaign: str) -> list[str]:
    listing = httpx.get(f"{table.http}/api/campaigns/{campaign}/bots", timeout=10).json()
    seats: list[str] = listing["away"]
    return seats


@pytest.mark.parametrize("size", list(SIZES))
def test_the_partners_open_page_offers_the_away_seat_to_a_bot_without_a_reload(
    table: Live, browser: Browser, problems: Problems, size: str
) -> None:
    created = create(table, "gil-ennis", seats=["gil", "ennis"], seed=5)
    cid, seats = created["id"], created["seats"]
    gil_context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    ennis_context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        gil = problems.watch(gil_context.new_page())
        ennis = problems.watch(ennis_context.new_page())
        open_as(gil, server=table, campaign=cid, seat="gil", token=seats["gil"])
        open_as(ennis, server=table, campaign=cid, seat="ennis", token=seats["ennis"])
        expect(gil.locator('.seats li[data-seat="ennis"]')).to_have_class("seat present")
        offer = gil.locator(".turn-bar .bot-offer button.hand-over")
        expect(offer).to_have_count(0)
        loads: list[str] = []
        gil.on("framenavigated", lambda frame: loads.append(frame.url))
        ennis_context.close()  # Ennis's player leaves; Gil's page is not touched from here on

        deadline = Deadline("Ennis to become away", 120)
        while "ennis" not in away(table, cid):
            deadline.check(away(table, cid))
            time.sleep(0.05)  # a poll interval of the API, not a wait for the page
        # The offer reaches the open page as a push: no reload, no navigation of any kind.
        expect(offer).to_have_text("Hand Ennis to a bot", timeout=OFFER_PATIENCE_MS)
        assert loads == [], loads
        # how long Ennis's player has really been gone, not a fixed "over 60 s"
        said = gil.locator(".turn-bar .bot-offer span")
        expect(said).to_have_text(re.compile(r"^Ennis's player has been away for \d+ s\.$"))
        expect(offer).to_be_in_viewport(ratio=1)
        screenshot(gil, f"handover-offer-{size}")

        offer.click()
        expect(gil.locator('.seats li[data-seat="ennis"]')).to_contain_text("bot: search bot")
        expect(offer).to_have_count(0)
    finally:
        gil_context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_player_who_has_to_leave_lets_a_bot_play_and_takes_the_seat_back_from_the_top(
    table: Live, browser: Browser, problems: Problems, size: str
) -> None:
    created = create(table, "gil-ennis", seats=["gil", "ennis"], seed=6)
    cid, seats = created["id"], created["seats"]
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        open_as(page, server=table, campaign=cid, seat="ennis", token=seats["ennis"])
        leave = page.get_by_role("button", name="Let a bot play Ennis until I'm back")
        leave.click()
        mine = page.locator(".turn-bar .bot-mine")
        expect(mine).to_contain_text("A bot plays Ennis for you")
        expect(mine).to_be_in_viewport(ratio=1)
        expect(page.locator('.seats li[data-seat="ennis"]')).to_contain_text("bot: search bot")
        expect(leave).to_have_count(0)
        # the bot packs Ennis's dice while the page is open
        expect(page.locator(".recent .by-bot").first).to_contain_text("played by the search bot")
        screenshot(page, f"handover-mine-{size}")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        expect(mine).to_be_in_viewport(ratio=1)  # the turn bar stays at the top
        mine.get_by_role("button", name="Take Ennis back from the bot").click()
        expect(mine).to_have_count(0)
        expect(leave).to_be_visible()
        listing = httpx.get(f"{table.http}/api/campaigns/{cid}/bots", timeout=10).json()
        assert listing["seats"] == []
    finally:
        context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_bot_seat_offers_no_invite_while_a_persons_seat_does(
    table: Live, browser: Browser, problems: Problems, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        page.goto(table.http + "/")
        card = page.locator('form.game-card[data-game="machina"]')
        card.locator('select[name="layout"]').select_option(index=2)  # ada, bram and cyra
        card.locator('select[data-bot-seat="cyra"]').select_option(label="search bot, level 1")
        card.get_by_role("button", name="New Machina Arcana: To Eternity campaign").click()
        expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "ada")
        expect(page.locator('.seats li[data-seat="cyra"]')).to_contain_text("bot: search bot")
        expect(page.get_by_label("Invite a partner to play Bram Okafor:")).to_be_visible()
        expect(page.locator('.invite-link[data-seat="cyra"]')).to_have_count(0)
        expect(page.locator(".seats-panel")).not_to_contain_text("Invite a partner to play Cyra")
        # the invite links' boxes are labelled; axe finds nothing of any impact on the page
        check_page(page, "machina-invites")
    finally:
        context.close()
