"""How to play: every board offers the rules in short, opened at the part the table is in now,
and says why the usual actions of that part that the seat is not offered cannot be taken."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, expect

from tests.server.conftest import Live
from tests.web.conftest import Problems, create, open_as, screenshot
from tests.web.test_layout import phase, play

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
AXE = Axe()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    "resultTypes": ["violations"],
}
TABLES: list[tuple[str, dict[str, Any], str, str]] = [
    ("gil-ennis", {"seats": ["gil", "ennis"], "seed": 2}, "sleep", "You are in SLEEP"),
    ("gil-ennis", {"seed": 5}, "pitch", "You are in PITCH"),
    ("eila", {"seed": 1, "options": {"chapter": 0}}, "day", "You are in Daytime"),
    ("machina", {"seats": ["ada", "bram"], "seed": 1}, "explorers", "You are in The explorer"),
]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "body", "part", "heading"), TABLES)
def test_how_to_play_opens_at_the_part_the_table_is_in(
    server: Live,
    browser: Browser,
    problems: Problems,
    size: str,
    game: str,
    body: dict[str, Any],
    part: str,
    heading: str,
) -> None:
    created = create(server, game, **body)
    seat = play(server, created, 1, phase(part))
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        open_as(page, server, seat.campaign, seat.seat, seat.token)
        page.get_by_role("button", name="How to play").click()
        dialog = page.get_by_role("dialog")
        expect(dialog).to_be_visible()
        expect(dialog.locator(".how-to-now h3")).to_contain_text(heading)
        expect(dialog.locator("details.how-to-part")).not_to_have_count(0)
        violations = AXE.run(page, options=AXE_OPTIONS).response["violations"]
        assert not violations, [(v["id"], v["impact"]) for v in violations]
        screenshot(page, f"how-to-{game}-{part}-{size}")
        page.keyboard.press("Escape")
        expect(dialog).to_have_count(0)
        expect(page.get_by_role("button", name="How to play")).to_be_focused()
        page.keyboard.press("?")
        expect(page.get_by_role("dialog")).to_be_visible()
    finally:
        context.close()


def test_a_dream_not_offered_says_why(server: Live, browser: Browser, problems: Problems) -> None:
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=2)

    def low_hands(state: dict[str, Any]) -> bool:
        view = state["view"]
        legal = [action["id"] for action in state["legal_actions"]]
        return (
            view.get("phase") == "sleep"
            and view.get("step") == "choose"
            and bool(legal)
            and not any(action.startswith("dream-together") for action in legal)
        )

    seat = play(server, created, 3, low_hands)
    context = browser.new_context(viewport=SIZES["laptop"])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        open_as(page, server, seat.campaign, seat.seat, seat.token)
        page.get_by_role("button", name="How to play").click()
        reasons = page.locator("dialog .why-not li")
        together = reasons.filter(has_text="Dreaming together needs both HAND dice at")
        expect(together).to_have_count(1)
    finally:
        context.close()
