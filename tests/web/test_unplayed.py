"""The lobby lists a campaign this server cannot play (a ruleset it does not implement): it says
the campaign is kept, readable and not playable here, and offers no way to play or watch it."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from playwright.sync_api import Browser, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Reproducible, running
from tests.support.unplayed import NEWER, store_unplayed
from tests.web.conftest import Problems
from tests.web.test_layout import check_page


def test_the_lobby_says_a_campaign_is_not_played_here_and_offers_no_play(
    browser: Browser, problems: Problems
) -> None:
    store = MemoryStore()
    # Playwright's own loop runs in this thread: the store is written from another one.
    with ThreadPoolExecutor(1) as other:
        other.submit(asyncio.run, store_unplayed(store, "newer", *NEWER)).result()
    app = create_app(CampaignService(store, fresh=Reproducible()))
    with running(app) as live:
        context = browser.new_context(viewport={"width": 390, "height": 844})
        try:
            page = problems.watch(context.new_page())
            page.goto(live.http + "/")
            row = page.locator('tr[data-campaign="newer"]')
            expect(row).to_contain_text("Not played here")
            expect(row).to_contain_text("Readable, not playable here")
            expect(row).to_contain_text("kept as recorded, under rules this server does not play")
            expect(row.get_by_role("link")).to_have_count(0)
            check_page(page, "lobby-unplayed")
        finally:
            context.close()
