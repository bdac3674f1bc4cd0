"""The lobby explains itself: a sentence per game, each option's title and description from
``/api/games``, options that must agree kept in agreement by the form (Gil & Ennis's worry and
difficulty), and the spectator delay list with two moves behind."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Browser, expect

from tests.server.conftest import Live
from tests.web.conftest import Problems, screenshot

SHIPPED = ("eila", "gil-ennis", "machina")
"""The games tabletale ships (the tests also register a small game of their own)."""
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


@pytest.mark.parametrize("size", list(SIZES))
def test_each_game_and_option_is_described_and_disagreeing_options_cannot_be_chosen(
    server: Live, browser: Browser, problems: Problems, size: str
) -> None:
    listed = httpx.get(f"{server.http}/api/games", timeout=10).json()["games"]
    games = [game for game in listed if game["info"]["name"] in SHIPPED]
    assert len(games) == len(SHIPPED)
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        page.goto(server.http + "/")
        for game in games:
            card = page.locator(f'form.game-card[data-game="{game["info"]["name"]}"]')
            about = card.locator(".about")
            expect(about).to_be_visible()
            assert len(about.inner_text().split()) >= 12, "a sentence that says what it is about"
            for name, schema in game["options"]["properties"].items():
                field = card.locator(f'[data-option="{name}"]')
                assert schema.get("description"), f"{name} of {game['info']['name']}"
                expect(field).to_have_accessible_name(schema["title"])
                expect(field).to_have_accessible_description(schema["description"])
            delay = card.locator('select[name="spectator_delay"]')
            expect(delay.locator("option", has_text="2 moves behind")).to_have_count(1)

        card = page.locator('form.game-card[data-game="gil-ennis"]')
        worry, difficulty = (
            card.locator('[data-option="worry"]'),
            card.locator('[data-option="difficulty"]'),
        )
        worry.select_option(label="3")
        expect(difficulty.locator("option", has_text="Easy")).to_be_disabled()
        expect(difficulty.locator("option", has_text="Normal")).to_be_enabled()
        worry.select_option(label="default")
        expect(difficulty.locator("option", has_text="Easy")).to_be_enabled()
        difficulty.select_option(label="Easy")
        expect(worry.locator("option", has_text="3")).to_be_disabled()
        expect(worry.locator("option", has_text="1")).to_be_enabled()
        screenshot(page, f"lobby-{size}")
        card.get_by_role("button", name="New The Epic of Gil & Ennis campaign").click()
        expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "player")
        expect(page.locator(".worry-level")).to_have_text("1")
    finally:
        context.close()
