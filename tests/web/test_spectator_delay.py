"""A spectator delay in the browser: the lobby's creation form offers it, and a spectator's board
says plainly that it shows the game behind the table (a notice that cannot be closed), follows
it there, and drops the notice when the campaign ends (the delay ends with it); the seats are
told that spectators are behind them. Checked at a phone's and a laptop's size, with
axe finding no violation of any impact."""

from __future__ import annotations

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import BrowserContext, Page, expect

from tests.server.conftest import Live
from tests.web.conftest import Problems, act_over_http, at_version, screenshot

AXE = Axe()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]}
}
NOTICE = '[data-notice="delay"]'


def axe_serious(page: Page) -> list[str]:
    results = AXE.run(page, options=AXE_OPTIONS)
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:4]]}"
        for v in results.response["violations"]
    ]


def fits(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_lobby_creates_a_campaign_with_a_spectator_delay(
    server: Live, context: BrowserContext, problems: Problems, width: int, height: int
) -> None:
    page = problems.watch(context.new_page())
    page.set_viewport_size({"width": width, "height": height})
    page.goto(server.http + "/")
    card = page.locator('form.game-card[data-game="dice-race"]')
    field = card.get_by_label("Spectators see")
    expect(field).to_have_value("")  # live unless asked
    field.select_option(label="3 moves behind")
    card.scroll_into_view_if_needed()
    screenshot(page, f"spectator-delay-lobby-{width}")
    assert fits(page), "the form fits without sideways scrolling"
    card.get_by_role("button", name="New Dice Race campaign").click()
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "player")
    campaign = page.url.rsplit("/", 1)[-1]
    answer = httpx.get(f"{server.http}/api/campaigns/{campaign}", timeout=10).json()
    assert answer["spectator_delay"] == {"moves": 3}
    # the seat plays live, and is told that spectators are behind; the notice stays
    seat_notice = page.locator(NOTICE)
    expect(seat_notice).to_have_text(
        "Spectators see this game 3 moves behind you, so what you say aloud may be ahead of"
        " what they see."
    )
    expect(seat_notice.locator("button")).to_have_count(0)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_a_spectators_board_says_it_is_behind_and_follows_the_delayed_moves(
    server: Live, context: BrowserContext, problems: Problems, width: int, height: int
) -> None:
    created = httpx.post(
        f"{server.http}/api/campaigns",
        json={"game": "dice-race", "options": {"target": 2}, "spectator_delay": {"moves": 2}},
        timeout=10,
    ).json()
    cid, token = created["id"], created["seats"]["player"]
    holds = [act_over_http(server, cid, token, "hold") for _ in range(3)]
    page = problems.watch(context.new_page())
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{server.http}/#/c/{cid}/watch")
    at_version(page, holds[0])  # two moves behind the head
    notice = page.locator(NOTICE)
    expect(notice).to_contain_text("This board shows the game 2 moves behind the table")
    expect(notice.locator("button")).to_have_count(0)  # it cannot be closed while it holds
    screenshot(page, f"spectator-delay-board-{width}")
    assert fits(page), "the board fits without sideways scrolling"
    assert not axe_serious(page)
    moved = act_over_http(server, cid, token, "hold")
    at_version(page, holds[1])
    assert moved > holds[1]
    # The race ends: the delay with it, and the board shows all of it.
    version = moved
    while (
        httpx.get(f"{server.http}/api/campaigns/{cid}/state", timeout=10).json()["outcome"]
        == "running"
    ):
        version = act_over_http(server, cid, token, "roll")
    at_version(page, version)
    expect(notice).to_have_count(0)
