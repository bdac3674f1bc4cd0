"""Each game's board, drawn from the view: Gil & Ennis mid-journey, Eila, the generic board of a
game without a drawing of its own, and the end of a campaign with its reason and revealed seed."""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from domain.core.engine import evolve
from domain.core.events import CampaignCreated
from domain.gil_ennis import GAME as GIL_ENNIS
from domain.gil_ennis.state import character
from server.campaigns.fresh import CHOSEN_SALT
from tests.server.conftest import Live
from tests.web.conftest import at_version, click_action, create, move_name, open_as, screenshot

JOURNEY_SEED = 34
JOURNEY_ACTIONS = 41
"""A seeded co-op journey several days long, played with the policy below: a board with dice,
worries and a campsite on the map. (A chosen seed is the same luck on any server, so the journey
is the same on every run.)"""


def journey(server: Live) -> tuple[dict[str, Any], dict[str, Any]]:
    """Play the seeded journey through HTTP; returns the campaign and gil's last state."""
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=JOURNEY_SEED)
    policy = random.Random(JOURNEY_SEED)
    with httpx.Client(base_url=server.http, timeout=10) as http:
        state: dict[str, Any] = {}
        for _ in range(JOURNEY_ACTIONS):
            for seat in ("gil", "ennis"):
                headers = {"Authorization": f"Bearer {created['seats'][seat]}"}
                state = http.get(f"/api/campaigns/{created['id']}/state", headers=headers).json()
                if state["legal_actions"]:
                    break
            quiet = ("end-climb", "skip-dream", "wake")
            choices = [a for a in state["legal_actions"] if not a["id"].startswith(quiet)]
            chosen = policy.choice(choices or state["legal_actions"])
            body = {"action": chosen["id"], "expected_version": state["version"]}
            http.post(f"/api/campaigns/{created['id']}/actions", json=body, headers=headers)
        gil = {"Authorization": f"Bearer {created['seats']['gil']}"}
        state = http.get(f"/api/campaigns/{created['id']}/state", headers=gil).json()
    return created, state


def test_gil_and_ennis_mid_journey_draws_every_part_of_the_table(server: Live, page: Page) -> None:
    created, state = journey(server)
    view = state["view"]
    content = httpx.get(f"{server.http}/api/games/gil-ennis/content").json()
    dreams = {dream["id"]: dream for dream in content["dreams"]}
    open_as(page, server, created["id"], "gil", created["seats"]["gil"])
    at_version(page, state["version"])

    board = page.locator(".board-gil-ennis")
    expect(board.locator(".site.here")).to_have_attribute("data-site", view["campsite"])
    expect(board.locator(".worry-level")).to_have_text(str(view["worry_level"]))
    expect(board.locator(".worry-card")).to_have_count(len(view["worries"]))
    for worry in view["worries"]:
        expect(board.locator(f'.worry-card[data-worry="{worry}"]')).to_contain_text(
            dreams[worry]["worry"]["name"]
        )
    if view["dream"]:
        expect(board.locator(".dream-card")).to_contain_text(dreams[view["dream"]]["name"])
    hand = view["gil"]["hand"]
    expect(board.locator('[data-die="gil.hand.0"]')).to_have_attribute("data-value", str(hand))
    expect(board.locator(".camp .pool strong")).to_have_text(str(view["pool"]))
    for action in state["legal_actions"]:
        expect(page.locator(f'button.action[data-action="{action["id"]}"]')).to_have_count(1)
    screenshot(page, "gil-ennis-journey")

    # the same journey earlier, in the middle of an action: the timeline marks the decision
    # points and says why this version is not one
    page.get_by_role("button", name="Timeline").click()
    runs = state["points"]["fork"]
    inside = [
        version
        for version in range(state["version"] - 15, runs[0][0], -1)
        if not any(first <= version <= last for first, last in runs)
    ]
    assert inside, "the journey's last days hold versions inside an action"
    earlier = inside[0]
    page.locator(".timeline .scrubber").fill(str(earlier))
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(earlier))
    expect(page.locator(".timeline-lines li.current")).to_be_visible()
    # a tick per run of points the timeline holds: those around the head and around the move shown
    held = {
        tuple(run)
        for near in (state["version"], earlier)
        for run in httpx.get(
            f"{server.http}/api/campaigns/{created['id']}/timeline",
            params={"after": state["version"], "near": near},
            headers={"Authorization": f"Bearer {created['seats']['gil']}"},
        ).json()["points"]["fork"]
    }
    expect(page.locator(".timeline .ticks .tick")).to_have_count(len(held))
    expect(page.locator(".timeline-lines li.decision")).not_to_have_count(0)
    expect(page.get_by_role("button", name="Fork from here")).to_be_disabled()
    expect(page.locator(".timeline .point-note")).to_contain_text(
        f"This is partway through {move_name(server, created['id'], earlier)}, not a decision point"
    )
    screenshot(page, "timeline-journey")


def test_eila_draws_storage_hearts_time_and_the_present_card(server: Live, page: Page) -> None:
    page.goto(server.http + "/")
    page.locator('form.game-card[data-game="eila"] input[name="seed"]').fill("21")
    page.locator('form.game-card[data-game="eila"] button[type="submit"]').click()
    board = page.locator(".board-eila")
    expect(board.locator(".present-card h3")).not_to_be_empty()
    expect(board.locator(".chapter-head h2")).to_contain_text("Chapter 0: Something in the Grass")
    expect(board.locator(".storage")).to_have_count(2)
    expect(board.locator(".hearts .heart.full")).to_have_count(3)
    expect(board.locator(".time-slot")).to_have_count(7)
    options = board.locator(".present-card .option-buttons button.action")
    expect(options.first).to_have_text(re.compile(r"^A: "))
    version = int(page.locator(".campaign-status").get_attribute("data-version") or 0)
    options.first.click()
    at_version_above(page, version)
    expect(page.locator(".recent li.new").first).to_contain_text("Eila chooses A")
    for _ in range(4):  # a few more choices, whichever come first, for a fuller board
        version = int(page.locator(".campaign-status").get_attribute("data-version") or 0)
        page.locator(".board-eila button.action:not([disabled]):visible").first.click()
        at_version_above(page, version)
    screenshot(page, "eila-board")


def at_version_above(page: Page, version: int) -> None:
    expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(version))


def test_a_game_without_a_board_of_its_own_gets_the_generic_board(server: Live, page: Page) -> None:
    created = create(server, "dice-race", seats=["red", "blue"], options={"target": 50}, seed=2)
    state = httpx.get(f"{server.http}/api/campaigns/{created['id']}/state").json()
    mover = state["view"]["to_act"]
    open_as(page, server, created["id"], mover, created["seats"][mover])
    board = page.locator(".board-generic")
    expect(board.locator(".tile", has_text="To act")).to_contain_text(mover)
    expect(board.locator("table.by-seat tbody tr")).to_have_count(2)
    expect(board.locator(".generic-actions button.action")).to_have_count(2)
    screenshot(page, "generic-board")
    click_action(page, "Roll the die")
    at_version(page, created["version"] + 1)
    expect(page.locator(".recent li.new")).to_contain_text(f"{mover} rolled a")


def test_the_end_shows_the_outcome_the_reason_and_the_revealed_seed(
    server: Live, page: Page
) -> None:
    created = create(server, "dice-race", options={"target": 4}, seed=8)
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    expect(page.locator(".end-panel")).to_be_hidden()
    end = page.locator(".end-panel")
    while not end.is_visible():
        version = int(page.locator(".campaign-status").get_attribute("data-version") or 0)
        if page.locator("button.action").count() == 0:
            expect(end).to_be_visible()
            break
        click_action(page, "Roll the die")
        at_version_above(page, version)
    revealed = httpx.get(f"{server.http}/api/campaigns/{created['id']}").json()
    assert str(revealed["seed"]) == "8"
    expect(end.locator("h2")).to_have_text("Won!")
    expect(end.locator(".reason")).to_contain_text("player rolled a")
    end.locator(".luck summary").click()
    expect(end.locator(".seed")).to_have_text("8")
    expect(end.locator(".hash")).to_have_text(revealed["seed_hash"])
    expect(end.locator(".luck-verdict")).to_have_attribute("data-match", "true")
    expect(page.locator(".actions-panel")).to_contain_text("The campaign is over.")


def _five_different_dice_seed() -> int:
    """A chosen seed whose set-up rolls five different dice for Gil: the widest packing grid
    (a row per HAND die, a column per POCKET die, 20 buttons)."""
    for seed in range(1, 500):
        state = evolve(
            GIL_ENNIS,
            None,
            CampaignCreated(
                "gil-ennis", GIL_ENNIS.info.ruleset, seed, CHOSEN_SALT, ("player",), {}
            ),
        )
        for event in GIL_ENNIS.setup(state):
            state = GIL_ENNIS.evolve(state, event)
        if len(set(character(state, "gil").rolled)) == 5:
            return seed
    raise AssertionError("No seed below 500 rolls five different dice for Gil.")


def test_the_widest_packing_grid_fits_a_phone(server: Live, page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    created = create(server, "gil-ennis", seed=_five_different_dice_seed())
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    grid = page.locator("table.pack-grid").first
    expect(grid.locator("button.pack-choice")).to_have_count(20)
    sizes = page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth,"
        " document.querySelector('.pack-frame').scrollWidth,"
        " document.querySelector('.pack-frame').clientWidth]"
    )
    assert sizes[0] <= sizes[1], f"the page scrolls sideways: {sizes}"
    assert sizes[2] <= sizes[3], f"the grid needs scrolling on a phone: {sizes}"
    button = grid.locator("button.pack-choice").first.bounding_box()
    assert button is not None and button["width"] >= 40 and button["height"] >= 40
    screenshot(page, "gil-ennis-packing-phone")
    click_action(page, re.compile("Pack Gil's dice"))
    expect(page.locator(".recent li.new")).to_contain_text("Gil packed")
