"""Playing in the browser: a campaign created in the lobby, actions by clicking, a co-op partner
who sees them arrive live, presence, and a reload that rejoins the same seat."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Live
from tests.web.conftest import (
    VIEWPORT,
    Problems,
    at_version,
    click_action,
    screenshot,
    version_of,
)


def set_name(page: Page, name: str) -> None:
    field = page.locator("#player-name")
    field.fill(name)
    field.press("Tab")  # the name is kept when the field changes


def test_a_co_op_campaign_from_the_lobby_is_played_live_by_both_seats(
    server: Live, page: Page, browser: Browser, problems: Problems
) -> None:
    page.goto(server.http + "/")
    set_name(page, "Ana")
    card = page.locator('form.game-card[data-game="gil-ennis"]')
    expect(card.locator("h3")).to_have_text("The Epic of Gil & Ennis")
    card.locator('select[name="layout"]').select_option(index=1)  # gil and ennis
    expect(card.locator('select[data-option="difficulty"]')).to_have_value("")
    card.locator('input[name="seed"]').fill("4")
    card.get_by_role("button", name="New The Epic of Gil & Ennis campaign").click()

    expect(page.locator(".board-gil-ennis .trail-map")).to_be_visible()
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "gil")
    start = version_of(page)
    campaign = page.url.rsplit("/", 1)[-1]
    invite = page.locator('input.invite-link[data-seat="ennis"]').input_value()
    assert f"#/join/{campaign}/ennis/" in invite

    partner_context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    try:
        partner = problems.watch(partner_context.new_page())
        partner.goto(server.http + "/")
        set_name(partner, "Bo")
        partner.goto(invite)
        expect(partner.locator(".campaign-status")).to_have_attribute("data-seat", "ennis")
        assert "#/join/" not in partner.url, "the token leaves the address bar"

        # presence: each sees the other connected, by name
        expect(page.locator('.seats li[data-seat="ennis"]')).to_contain_text("Bo")
        expect(partner.locator('.seats li[data-seat="gil"]')).to_contain_text("Ana")

        # set-up: each seat packs its own character's rolled dice, in either order
        expect(page.locator(".character-gil .pack-grid button.action")).not_to_have_count(0)
        expect(page.locator(".character-ennis .packing")).to_contain_text(
            "Waiting for Ennis's seat to pack them."
        )
        expect(partner.locator(".character-gil .packing")).to_contain_text(
            "Waiting for Gil's seat to pack them."
        )
        screenshot(page, "gil-ennis-board")
        packed = click_action(page, "Pack Gil's dice")
        _, _, hand, pocket = packed.split(":")
        at_version(page, start + 1)
        at_version(partner, start + 1)
        expect(partner.locator(".recent li.new")).to_contain_text(f"Gil packed HAND {hand},")
        expect(partner.locator('[data-die="gil.hand.0"]')).to_have_attribute("data-value", hand)
        expect(partner.locator('[data-die="gil.pocket.0"]')).to_have_attribute("data-value", pocket)
        expect(partner.locator(".character-gil .packing")).to_have_count(0)
        click_action(partner, "Pack Ennis's dice")
        at_version(page, start + 2)
        expect(page.locator(".character-ennis .packing")).to_have_count(0)
        expect(page.locator(".recent li.new")).to_contain_text("Ennis packed HAND")

        click_action(page, "Hike to Hollow Creek")
        at_version(page, start + 3)
        at_version(partner, start + 3)
        expect(partner.locator(".recent li.new")).to_contain_text("hiked to Hollow Creek")
        expect(partner.locator('.site[data-site="hollow-creek"]')).to_have_class(
            "site site-trail visited here"
        )
        expect(partner.locator('.pitch-step[data-step="campsite"]')).to_have_class(
            "pitch-step current"
        )

        # the partner acts for Ennis; Gil's page follows
        expect(page.locator(".character-gil button.action").first).to_be_enabled()
        click_action(partner, "Turn in for the night")
        at_version(page, start + 4)
        expect(page.locator(".character-ennis header")).to_contain_text("done for today")
        expect(partner.locator(".character-ennis button.action")).to_have_count(0)
    finally:
        partner_context.close()

    # presence: the partner left
    expect(page.locator('.seats li[data-seat="ennis"]')).to_contain_text("free")

    # a reload rejoins the same seat at the same version
    page.reload()
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "gil")
    at_version(page, start + 4)
    expect(page.locator('.seats li[data-seat="gil"]')).to_contain_text("Ana (you)")


def test_the_lobby_lists_campaigns_with_progress_and_state(server: Live, page: Page) -> None:
    page.goto(server.http + "/")
    target = page.locator('form.game-card[data-game="dice-race"] input[data-option="target"]')
    expect(target).to_have_value("20")  # a number input from the schema, its default preselected
    expect(target).to_have_attribute("max", "1000")
    page.locator('form.game-card[data-game="eila"] select[data-option="chapter"]').select_option(
        index=1  # chapter 1, by its title
    )
    page.locator('form.game-card[data-game="eila"] button[type="submit"]').click()
    expect(page.locator(".board-eila")).to_be_visible()
    expect(page.locator(".chapter-head h2")).to_contain_text("Chapter 1")
    campaign = page.url.rsplit("/", 1)[-1]
    page.get_by_role("link", name="Lobby").click()
    row = page.locator(f'tr[data-campaign="{campaign}"]')
    expect(row).to_contain_text("Eila and Something Shiny")
    expect(row).to_contain_text("Chapter 1")
    # the catalog counts events, not moves as players count them: no "move" number in the list
    expect(row).not_to_contain_text("move")
    expect(row.locator(".status")).to_have_text("Playing")
    row.locator('a[data-seat="player"]').click()  # "Play as" the seat's name
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "player")
    page.get_by_role("link", name="Lobby").click()
    page.locator(f'tr[data-campaign="{campaign}"]').get_by_role("link", name="Watch").click()
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "")
    expect(page.locator(".actions-panel")).to_contain_text("spectators cannot act")
