"""The timeline in the browser: scrub back through every version, replay at a speed, fork from a
past version and play the fork, rewind, and the server's refusal shown when it says no."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect

from tests.server.conftest import Live
from tests.web.conftest import (
    act_over_http,
    at_version,
    click_action,
    create,
    open_as,
    screenshot,
)


def played(server: Live, actions: int = 8) -> tuple[dict[str, Any], int]:
    """A solo Gil & Ennis campaign with ``actions`` actions taken; returns it and its head."""
    created = create(server, "gil-ennis", seed=11)
    token = created["seats"]["player"]
    version = created["version"]
    for _ in range(actions):
        version = act_over_http(server, created["id"], token)
    return created, version


def open_timeline(page: Page, head: int) -> None:
    page.get_by_role("button", name="Timeline").click()
    expect(page.locator(".timeline .position")).to_have_text(f"version {head} of {head}")


def scrub_to(page: Page, version: int, head: int) -> None:
    page.locator(".timeline .scrubber").fill(str(version))
    expect(page.locator(".timeline .position")).to_have_text(f"version {version} of {head}")
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(version))


def test_scrubbing_shows_each_version_and_replay_plays_to_the_head(
    server: Live, page: Page
) -> None:
    created, head = played(server)
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    at_version(page, head)
    open_timeline(page, head)

    scrub_to(page, 4, head)
    expect(page.locator(".history-bar")).to_contain_text(f"Showing version 4 of {head}")
    expect(page.locator(".board-slot")).to_have_class("board-slot historic")
    expect(page.locator(".trail-map .map-day")).to_contain_text("Setting out")
    expect(page.locator(".timeline-lines li.current")).to_have_attribute("data-version", "4")
    expect(page.locator(".actions-panel")).to_contain_text("Viewing the past")
    screenshot(page, "timeline")

    page.locator(".timeline .step-on").click()
    expect(page.locator(".board-slot")).to_have_attribute("data-version", "5")
    expect(page.locator(".trail-map .map-day")).to_contain_text("Day 1")
    page.locator(".timeline .step-on").click()  # version 6: Gil's Steady Hands turns a die
    expect(page.locator(".board-slot")).to_have_attribute("data-version", "6")
    expect(page.locator(".character-gil .die.rolling")).to_have_count(1)

    page.locator(".timeline select.speed").select_option("1")
    page.locator(".timeline button.play").click()
    expect(page.locator(".timeline button.play")).to_have_text("⏸ Pause")
    page.locator(".timeline button.play").click()
    expect(page.locator(".timeline button.play")).to_have_text("▶ Play")
    expect(page.locator(".timeline .position")).not_to_have_text(f"version {head} of {head}")

    page.locator(".timeline select.speed").select_option("25")
    page.locator(".timeline button.play").click()
    expect(page.locator(".timeline .position")).to_have_text(f"version {head} of {head}")
    expect(page.locator(".timeline button.play")).to_have_text("▶ Play")
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(head))

    page.get_by_role("button", name="Back to live play").click()
    expect(page.locator(".timeline")).to_have_count(0)
    expect(page.locator(".board-slot")).not_to_have_class("board-slot historic")


def test_a_fork_from_a_past_version_is_played_on_its_own(server: Live, page: Page) -> None:
    created, head = played(server)
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    open_timeline(page, head)
    scrub_to(page, 5, head)
    page.get_by_role("button", name="Fork from here").click()

    expect(page).not_to_have_url(f"{server.http}/#/c/{created['id']}")
    expect(page.locator(".campaign-status")).to_contain_text("playing as player")
    at_version(page, 5)
    fork = page.url.rsplit("/", 1)[-1]
    assert fork != created["id"]
    page.locator(".board-slot button.action:not([disabled]):visible").first.click()
    at_version(page, 6)
    parent = page.request.get(f"{server.http}/api/campaigns/{created['id']}").json()
    assert parent["entry"]["version"] == head, "the parent is untouched"


def test_rewinding_returns_the_live_board_to_a_past_version(server: Live, page: Page) -> None:
    created, head = played(server)
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    open_timeline(page, head)
    scrub_to(page, 5, head)
    page.get_by_role("button", name="Rewind to here").click()

    expect(page.locator(".notice")).to_contain_text("Rewound to version 5.")
    expect(page.locator(".timeline")).to_have_count(0)
    at_version(page, head + 1)
    expect(page.locator(".recent li.new")).to_contain_text("rewound to version 5")
    expect(page.locator(".trail-map .map-day")).to_contain_text("Day 1")
    click_action(page, "Turn in for the night")
    at_version(page, head + 2)


def test_a_refused_fork_shows_the_servers_reason(server: Live, page: Page) -> None:
    created = create(server, "gil-ennis", seed=3)
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    head = created["version"]
    open_timeline(page, head)
    # the page offers fork and rewind at every version; a spectator may not rewind at all
    page.goto(f"{server.http}/#/c/{created['id']}/watch")
    expect(page.locator(".campaign-status")).to_contain_text("watching")
    open_timeline(page, head)
    expect(page.get_by_role("button", name="Rewind to here")).to_be_disabled()
    page.get_by_role("button", name="Fork from here").click()
    expect(page.locator(".notice-error")).to_contain_text(
        f"Cannot fork at version {head}: Only a seat of the campaign may fork it while it runs"
    )
