"""The table a first-time player sits at: a turn bar that says whose move it is and where to act,
actions that end a campaign kept apart behind a dialog, the page through an outage, focus that
follows play, undone moves and forks said as such, and a chosen seed kept to the digit."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.server.conftest import Live, free_port
from tests.support.serve_process import serving
from tests.web.conftest import (
    Problems,
    act_over_http,
    at_version,
    click_action,
    create,
    open_as,
    screenshot,
    version_of,
)

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
GIL_ENNIS = "The Epic of Gil & Ennis"
CLICKS = 200
ENABLED = """targets => targets.flatMap((target, i) =>
    target.matches(':disabled') || target.closest('[aria-disabled="true"]') ? [] : [i])"""
"""The indices of the targets a person could click: Playwright's own sense of enabled (no
disabled control, in no disabled fieldset, under no ``aria-disabled``), asked of the page once."""


def legal_ids(server: Live, campaign: str, token: str) -> list[str]:
    headers = {"Authorization": f"Bearer {token}"}
    state = httpx.get(f"{server.http}/api/campaigns/{campaign}/state", headers=headers, timeout=10)
    return [action["id"] for action in state.json()["legal_actions"]]


def event_types(server: Live, campaign: str) -> list[str]:
    answer = httpx.get(f"{server.http}/api/campaigns/{campaign}/events", timeout=10).json()
    return [seen["event"]["type"] for seen in answer["events"]]


def headline(page: Page) -> Any:
    return page.locator(".turn-bar .turn-headline")


def test_the_partner_who_joins_by_link_sees_what_to_do_and_the_turn_come_to_them(
    server: Live, browser: Browser, problems: Problems
) -> None:
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=3)
    cid, seats = created["id"], created["seats"]
    host_context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    partner_context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        host = problems.watch(host_context.new_page())
        partner = problems.watch(partner_context.new_page())
        open_as(host, server, cid, "gil", seats["gil"])
        open_as(partner, server, cid, "ennis", seats["ennis"])

        # the partner, on a phone, sees what is asked without scrolling
        bar = partner.locator(".turn-bar")
        expect(headline(partner)).to_have_text("Your move")
        expect(bar).to_contain_text("Pack your five dice")
        choices = len(legal_ids(server, cid, seats["ennis"]))
        expect(bar.locator(".turn-count")).to_have_text(f"{choices} choices")
        expect(bar).to_be_in_viewport(ratio=1)
        expect(partner).to_have_title(f"Your move · {GIL_ENNIS}")
        assert "Nothing else to do" not in partner.locator(".actions-panel").inner_text()
        screenshot(partner, "table-partner-phone")

        # "Show my choices" brings the first one into view with the focus on it
        bar.get_by_role("button", name="Show my choices").click()
        first = partner.locator("button.action:focus")
        expect(first).to_have_count(1)
        expect(first).to_be_in_viewport()

        # the partner packs first, then waits for Gil; Gil's move hands the turn back
        click_action(partner, "Pack Ennis's dice")
        expect(headline(partner)).to_have_text("Waiting for Gil")
        expect(partner.locator(".turn-detail")).to_contain_text("Waiting for Gil to")
        expect(partner).to_have_title(f"Waiting for Gil · {GIL_ENNIS}")
        expect(headline(host)).to_have_text("Your move")
        expect(partner.locator("button.action")).to_have_count(0)
        expect(partner.locator(".actions-panel")).to_contain_text("Waiting for Gil")
        before = version_of(partner)
        click_action(host, "Pack Gil's dice")
        at_version(partner, before + 1)
        for page, seat in ((host, "gil"), (partner, "ennis")):
            asked = bool(legal_ids(server, cid, seats[seat]))
            expect(headline(page)).to_have_text(
                "Your move" if asked else re.compile("^Waiting for")
            )
        assert legal_ids(server, cid, seats["ennis"]), "after set-up the move comes to Ennis too"
        expect(partner).to_have_title(f"Your move · {GIL_ENNIS}")
    finally:
        host_context.close()
        partner_context.close()


def test_a_spectator_reads_whose_move_it_is(server: Live, page: Page) -> None:
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=3)
    act_over_http(server, created["id"], created["seats"]["gil"], label="Pack Gil's dice")
    page.goto(f"{server.http}/#/c/{created['id']}/watch")
    expect(headline(page)).to_have_text("Ennis to move")
    expect(page.locator(".turn-detail")).to_contain_text("Pack")
    expect(page).to_have_title(f"Ennis to move · {GIL_ENNIS}")


def test_abandoning_is_apart_from_play_and_asks_first_with_keep_playing_the_default(
    server: Live, page: Page
) -> None:
    created = create(server, "eila", seed=5)
    cid, token = created["id"], created["seats"]["player"]
    open_as(page, server, cid, "player", token)
    expect(headline(page)).to_have_text("Your move")
    play = page.locator(".campaign-body")
    expect(play.locator('button[data-action="abandon"]')).to_have_count(0)
    expect(play).not_to_contain_text("bandon")
    version = version_of(page)

    menu = page.locator("details.danger-menu")
    menu.locator("summary").click()
    menu.get_by_role("button", name="Abandon the campaign…").click()
    dialog = page.locator("dialog.danger-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("ends for good")
    expect(dialog.locator("button:focus")).to_have_text("Keep playing")
    screenshot(page, "table-abandon-dialog")
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    page.keyboard.press("Enter")  # the focus went back to the menu's button: Enter asks again
    expect(page.locator("dialog.danger-dialog")).to_be_visible()
    page.keyboard.press("Enter")  # and Enter on the default keeps playing
    expect(page.locator("dialog.danger-dialog")).to_have_count(0)
    assert version_of(page) == version, "no answer but yes changes anything"
    assert not [kind for kind in event_types(server, cid) if "abandon" in kind]

    menu.get_by_role("button", name="Abandon the campaign…").click()
    page.locator("dialog.danger-dialog").get_by_role("button", name="Abandon the campaign").click()
    expect(headline(page)).to_have_text("Lost")
    assert "eila/campaign_abandoned" in event_types(server, cid)
    expect(page.locator("details.danger-menu")).to_have_count(0)


@pytest.mark.parametrize("game", ["gil-ennis", "eila", "machina"])
def test_a_random_clicker_outside_the_danger_menu_never_ends_a_campaign_by_accident(
    server: Live, page: Page, game: str
) -> None:
    created = create(server, game, seed=17)
    cid = created["id"]
    seat, token = next(iter(created["seats"].items()))
    open_as(page, server, cid, seat, token)
    expect(headline(page)).to_have_text("Your move")
    chance = random.Random(f"clicker:{game}")
    targets = page.locator(
        ".turn-bar button:visible, .board-slot button:visible, .board-slot summary:visible, "
        ".actions-panel button:visible, .actions-panel summary:visible"
    )
    clicks = 0
    while clicks < CLICKS:
        expect(page.locator(".board-slot")).not_to_have_class(re.compile(r"\bbusy\b"))
        enabled = targets.evaluate_all(ENABLED)  # one round trip, not one per target
        if not enabled:
            break  # the campaign ended by play, or the seat waits on nobody: nothing to click
        targets.nth(chance.choice(enabled)).click()
        clicks += 1
    assert page.locator("dialog.danger-dialog").count() == 0
    kinds = event_types(server, cid)
    assert not [kind for kind in kinds if "abandon" in kind], kinds[-5:]
    if clicks < CLICKS:
        state = httpx.get(f"{server.http}/api/campaigns/{cid}/state", timeout=10).json()
        assert state["outcome"] != "running", (
            "only a campaign ended by play leaves nothing to click"
        )


def test_an_outage_shows_where_the_player_looks_pauses_actions_and_heals_without_a_reload(
    browser: Browser, problems: Problems, tmp_path: Path
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    context = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        late = problems.watch(context.new_page())
        with serving(port, tmp_path):
            created = httpx.post(f"{base}/api/campaigns", json={"game": "gil-ennis"}).json()
            cid, token = created["id"], created["seats"]["player"]
            late.goto(f"{base}/")  # a lobby open in another tab
            expect(late.locator("form.game-card").first).to_be_visible()
            page.goto(f"{base}/#/join/{cid}/player/{token}")
            expect(headline(page)).to_have_text("Your move")
            page.evaluate("window.scrollTo(0, document.body.scrollHeight); window.stayed = true")
        # the server is down: within 2 s the bar in view says so and no action can be taken
        expect(page.locator(".turn-bar")).to_have_attribute("data-tone", "offline", timeout=2000)
        expect(page.locator(".turn-bar")).to_be_in_viewport()
        expect(headline(page)).to_have_text("Offline")
        expect(page.locator("button.action:enabled")).to_have_count(0)
        expect(page.locator(".seats li.unknown")).to_have_count(1)
        wide = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
        assert wide[0] <= wide[1], f"the offline page scrolls sideways: {wide}"
        screenshot(page, "table-offline-phone")
        late.evaluate(f"location.hash = '#/c/{cid}/watch'")  # a campaign opened from it
        expect(late.locator(".page-title")).to_have_text("This campaign cannot be opened")
        expect(late.get_by_role("status")).to_contain_text("Trying again in")

        with serving(port, tmp_path):
            expect(headline(page)).to_have_text("Your move")
            expect(page.locator("button.action:enabled").first).to_be_visible()
            assert page.evaluate("window.stayed === true"), "the page healed without a reload"
            expect(headline(late)).to_have_text("Gil & Ennis to move")
            click_action(page, "Pack Gil's dice")
            expect(page.locator(".recent li.new")).to_contain_text("Gil packed")
    finally:
        context.close()


def test_after_a_move_the_focus_lands_on_the_next_choice_not_the_top_of_the_page(
    server: Live, page: Page
) -> None:
    created = create(server, "gil-ennis", seed=9)
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    expect(headline(page)).to_have_text("Your move")
    page.keyboard.press("n")
    expect(page.locator("button.action:focus")).to_have_count(1)
    before = version_of(page)
    page.keyboard.press("Enter")
    at_version(page, before + 1)
    focused = page.locator("button.action:focus, .turn-headline:focus")
    expect(focused).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(before + 1))
    expect(page.locator("[role=status][aria-live=polite].sr-only")).not_to_be_empty()


def test_a_rewind_shows_the_moves_it_undid_and_a_fork_says_where_it_came_from(
    server: Live, page: Page
) -> None:
    created = create(server, "gil-ennis", seed=11)
    cid, token = created["id"], created["seats"]["player"]
    headers = {"Authorization": f"Bearer {token}"}
    start = created["version"]
    act_over_http(server, cid, token, label="Pack Gil's dice")
    head = act_over_http(server, cid, token, label="Pack Ennis's dice")
    rewound = httpx.post(
        f"{server.http}/api/campaigns/{cid}/rewind", json={"to": start}, headers=headers
    )
    assert rewound.status_code == 200, rewound.text
    open_as(page, server, cid, "player", token)
    undone = page.locator(".recent li.undone")
    expect(undone).to_have_count(head - start)
    expect(undone.first).to_contain_text("undone by the rewind back to set-up")
    # the two moves undone, numbered as players count them (not as the versions they took)
    expect(undone.locator(".v")).to_have_text(["move 1", "move 2"])
    expect(page.locator(".campaign-status")).to_contain_text("Setting up ·")

    forked = httpx.post(
        f"{server.http}/api/campaigns/{cid}/fork", json={"at": start}, headers=headers
    )
    assert forked.status_code == 201, forked.text
    fork = forked.json()
    open_as(page, server, fork["id"], "player", fork["seats"]["player"])
    banner = page.locator(".fork-banner")
    expect(banner).to_contain_text(f"Forked from campaign {cid[:8]} after set-up")
    banner.get_by_role("link").click()
    expect(page).to_have_url(re.compile(f"#/c/{cid}$"))


def test_a_twenty_digit_seed_typed_in_the_lobby_is_the_seed_stored_and_revealed(
    server: Live, page: Page
) -> None:
    seed = "13112283191526718841"
    page.goto(server.http + "/")
    card = page.locator('form.game-card[data-game="dice-race"]')
    card.locator('input[data-option="target"]').fill("3")
    card.locator('input[name="seed"]').fill(seed)
    card.get_by_role("button", name=re.compile("^New .* campaign$")).click()
    expect(headline(page)).to_have_text("Your move")
    cid = page.url.rsplit("/", 1)[-1]
    expect(page.locator(".campaign-status")).to_contain_text("known luck")
    end = page.locator(".end-panel")
    while page.locator("button.action:enabled").count():
        before = version_of(page)
        click_action(page, "Roll the die")
        expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(before))
    expect(end).to_be_visible()
    revealed = httpx.get(f"{server.http}/api/campaigns/{cid}", timeout=10).json()
    assert revealed["seed"] == seed
    end.locator(".luck summary").click()
    expect(end.locator(".seed")).to_have_text(seed)
    expect(end.locator(".luck-verdict")).to_have_attribute("data-match", "true")
