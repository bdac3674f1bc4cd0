"""Every seat, solo included, is shown its link back to the seat and may download the game: the
seat's own partial record while it runs, the complete file at the end (docs/export.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Live
from tests.web.conftest import Problems, act_over_http, at_version, screenshot

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def header_of(page: Page, click: str, within: str) -> dict[str, object]:
    """Click the download control ``click`` inside ``within``; the file's header line."""
    with page.expect_download() as started:
        page.locator(within).get_by_role("button", name=click, exact=True).click()
    path = Path(started.value.path())
    first: dict[str, object] = json.loads(path.read_text().splitlines()[0])
    first["filename"] = started.value.suggested_filename
    return first


@pytest.mark.parametrize("size", list(SIZES))
def test_a_solo_player_gets_their_link_back_and_the_file_partial_then_complete(
    server: Live, browser: Browser, problems: Problems, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        page.goto(server.http + "/")
        card = page.locator('form.game-card[data-game="eila"]')
        card.locator('input[name="seed"]').fill("8")
        card.locator("button[type=submit]").click()
        expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "player")
        campaign = page.url.rsplit("/", 1)[-1]

        back = page.get_by_label("Your link to come back to this seat")
        link = back.input_value()
        assert f"#/join/{campaign}/player/" in link
        screenshot(page, f"seat-file-running-{size}")
        partial = header_of(page, "Download this game so far", ".seats-panel")
        assert partial["scope"] == "partial" and partial["seat"] == "player", partial
        assert partial["filename"] == f"{campaign}-partial.jsonl"

        # the link brings the seat back in another browser
        other = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
        try:
            again = problems.watch(other.new_page())
            again.goto(link)
            expect(again.locator(".campaign-status")).to_have_attribute("data-seat", "player")
        finally:
            other.close()

        token = link.rsplit("/", 1)[-1]
        act_over_http(server, campaign, token, "abandon")
        head = act_over_http(server, campaign, token, "confirm_abandon:true")
        at_version(page, head)
        expect(page.locator(".end-panel")).to_be_visible()
        complete = header_of(page, "Download this game", ".end-panel")
        assert complete["scope"] == "complete" and complete["seat"] is None, complete
        expect(page.locator(".seats-panel")).to_contain_text("The complete file")
    finally:
        context.close()
