"""A game of one's own in the browser: the example (Lighthouse Watch, ``examples/lighthouse``)
gets a lobby card from its declared options, with their titles and descriptions, and the generic
board at the table, with the turn bar in its words."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from domain.games import GAMES
from tests.examples.lighthouse import GAME
from tests.server.conftest import Live
from tests.web.conftest import at_version, click_action, screenshot, version_of

AXE = Axe()


@pytest.fixture(autouse=True)
def _lighthouse_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(GAMES, "lighthouse", GAME)


def serious_violations(page: Page) -> list[str]:
    results = AXE.run(page, options={"runOnly": ["wcag2a", "wcag2aa", "wcag21aa", "wcag22aa"]})
    return [
        f"{v['id']}: {[(n['target'], n['html'][:120]) for n in v['nodes'][:4]]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def test_the_lobby_card_and_the_generic_board_serve_the_example(server: Live, page: Page) -> None:
    page.goto(server.http + "/")
    card = page.locator('form.game-card[data-game="lighthouse"]')
    expect(card.locator("h3")).to_have_text("Lighthouse Watch")
    nights = card.get_by_label("Nights")
    expect(nights).to_have_value("8")
    expect(nights).to_have_accessible_description(
        "How many stormy nights the keepers must watch through before dawn."
    )
    ships = card.get_by_label("Ships to lose")
    expect(ships).to_have_accessible_description(
        "The watch fails when this many ships are lost to the storms."
    )
    nights.fill("3")
    card.scroll_into_view_if_needed()
    screenshot(page, "lighthouse-lobby")
    assert serious_violations(page) == []
    card.get_by_role("button", name="New Lighthouse Watch campaign").click()

    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "isla")
    board = page.locator(".board-generic")
    expect(board.locator(".tile", has_text="Nights")).to_contain_text("3")
    expect(board.locator(".tile", has_text="Your lamps")).to_contain_text(")")
    expect(board.locator("table.by-seat tbody tr")).to_have_count(2)
    expect(board.locator(".generic-actions button.action")).to_have_count(3)
    expect(page.locator(".turn-headline")).to_have_text("Your move")
    expect(page.locator(".turn-detail")).to_contain_text("Light a lamp against the storm")
    screenshot(page, "lighthouse-table")
    assert serious_violations(page) == []

    version = version_of(page)
    click_action(page, "Light the")
    at_version(page, version + 1)
    expect(page.locator(".turn-detail")).to_contain_text(
        "Waiting for Tom to light a lamp against the storm"
    )
    expect(page.locator(".recent li.new")).to_contain_text("Isla lights the")
