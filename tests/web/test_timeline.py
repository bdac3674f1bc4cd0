"""The timeline in the browser: scrub back through every version, replay at a speed, fork from a
past version and play the fork, rewind (what a spectator is offered: test_spectator_offers.py).

Only decision points (versions where a seat had a decision to make) may be forked or rewound to:
the page offers fork and rewind at the versions the server lists, says why at any other, and never
rewinds a finished campaign (it forks it with new luck instead)."""

from __future__ import annotations

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from tests.server.conftest import Live
from tests.web.conftest import (
    act_over_http,
    at_version,
    click_action,
    create,
    move_at,
    move_name,
    open_as,
    screenshot,
    version_of,
)

JOURNEY = (
    "Pack Gil's dice",
    "Pack Ennis's dice",
    "Hike to Hollow Creek",
    "Use Steady Hands",
    "Turn in for the night",
    "Do not dream",
    "Eat breakfast",
    "Hike to Lantern Rock",
)
"""Set-up, then a first day: each action by the kind of label it has. Not dreaming and breakfast
append several events each, so the versions they pass through are not decision points."""
DECISION = re.compile(r"\bdecision\b")
MOST_ACTIONS = 500
"""A solo journey ends in well under this many actions; this only stops a runaway test."""


def played(server: Live) -> tuple[dict[str, Any], int]:
    """A solo Gil & Ennis campaign played through ``JOURNEY``; returns it and its head."""
    created = create(server, "gil-ennis", seed=11)
    token = created["seats"]["player"]
    version = created["version"]
    for label in JOURNEY:
        version = act_over_http(server, created["id"], token, label=label)
    return created, version


def points(server: Live, created: dict[str, Any]) -> dict[str, Any]:
    """The timeline as the campaign's seat reads it: lines, fork and rewind points."""
    headers = {"Authorization": f"Bearer {created['seats']['player']}"}
    answer: dict[str, Any] = httpx.get(
        f"{server.http}/api/campaigns/{created['id']}/timeline", headers=headers, timeout=10
    ).json()
    return answer


def versions(runs: list[list[int]]) -> list[int]:
    """Every version of runs ``[first, last]`` of points."""
    return [v for first, last in runs for v in range(first, last + 1)]


def inside_an_action(timeline: dict[str, Any]) -> int:
    """The first version after the first decision point that is not a decision point itself."""
    forks = versions(timeline["points"]["fork"])
    return next(v for v in range(forks[0], timeline["head"]) if v not in forks)


def open_timeline(page: Page, head: int) -> None:
    page.get_by_role("button", name="Timeline").click()
    expect(page.locator(".timeline .position")).to_have_attribute("data-version", str(head))


def scrub_to(page: Page, version: int, head: int) -> None:
    page.locator(".timeline .scrubber").fill(str(version))
    position = page.locator(".timeline .position")
    expect(position).to_have_attribute("data-version", str(version))
    expect(position).to_have_attribute("data-head", str(head))
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(version))


def test_scrubbing_shows_each_version_and_replay_plays_to_the_head(
    server: Live, page: Page
) -> None:
    created, head = played(server)
    timeline = points(server, created)
    forks, rewinds = versions(timeline["points"]["fork"]), versions(timeline["points"]["rewind"])
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    at_version(page, head)
    # moves as players count them: the eight actions of the journey, not its versions
    assert head > len(JOURNEY)
    expect(page.locator(".campaign-status")).to_contain_text(f"Move {len(JOURNEY)} ·")
    open_timeline(page, head)
    position = page.locator(".timeline .position")
    expect(position).to_have_text(f"move {len(JOURNEY)} of {len(JOURNEY)}")
    # every run of decision points is marked under the scrubber, every point in the lines
    assert not timeline["points"]["more_before"] and not timeline["points"]["more_after"]
    expect(page.locator(".timeline .ticks .tick")).to_have_count(len(timeline["points"]["fork"]))
    for line in timeline["lines"]:
        mark = page.locator(f'.timeline-lines li[data-version="{line["version"]}"]')
        if line["version"] in forks:
            expect(mark).to_have_class(DECISION)
        else:
            expect(mark).not_to_have_class(DECISION)

    scrub_to(page, 5, head)  # Gil's dice are packed; Ennis's wait
    assert 5 in rewinds
    expect(position).to_have_text(f"move 1 of {len(JOURNEY)}")  # Gil's dice: the first move
    expect(page.locator(".history-bar")).to_contain_text(f"Showing move 1 of {len(JOURNEY)}")
    expect(page.locator(".board-slot")).to_have_class("board-slot historic")
    expect(page.locator(".trail-map .map-day")).to_contain_text("Setting out")
    expect(page.locator(".character-gil .packing")).to_have_count(0)
    expect(page.locator(".character-ennis .packing .rolled .die")).to_have_count(5)
    expect(page.locator(".timeline-lines li.current")).to_have_attribute("data-version", "5")
    expect(page.locator(".actions-panel")).to_contain_text("Looking at an earlier move")
    expect(page.get_by_role("button", name="Fork from here")).to_be_enabled()
    expect(page.get_by_role("button", name="Rewind to here")).to_be_enabled()
    screenshot(page, "timeline")

    page.locator(".timeline .step-on").click()
    expect(page.locator(".board-slot")).to_have_attribute("data-version", "6")
    expect(page.locator(".character-ennis .packing")).to_have_count(0)
    page.locator(".timeline .step-on").click()
    expect(page.locator(".board-slot")).to_have_attribute("data-version", "7")
    expect(page.locator(".trail-map .map-day")).to_contain_text("Day 1")
    page.locator(".timeline .step-on").click()  # version 8: Gil's Steady Hands turns a die
    expect(page.locator(".board-slot")).to_have_attribute("data-version", "8")
    expect(page.locator(".character-gil .die.rolling")).to_have_count(1)

    # a version inside the resolution of an action: no fork or rewind, and the page says why
    inside = inside_an_action(timeline)
    scrub_to(page, inside, head)
    expect(page.get_by_role("button", name="Fork from here")).to_be_disabled()
    expect(page.get_by_role("button", name="Rewind to here")).to_be_disabled()
    note = page.locator(".timeline .point-note")
    said = move_name(server, created["id"], inside)
    expect(note).to_contain_text(f"This is partway through {said}, not a decision point")
    below = max(v for v in forks if v < inside)
    above = min(v for v in forks if v > inside)
    named = [move_name(server, created["id"], v) for v in (below, above)]
    expect(note.locator("button.goto")).to_have_text([f"the end of {name}" for name in named])
    page.locator(".timeline .prev-point").click()
    expect(position).to_have_attribute("data-version", str(below))
    expect(position).to_have_text(f"{named[0]} of {len(JOURNEY)}")
    expect(page.get_by_role("button", name="Fork from here")).to_be_enabled()
    scrub_to(page, 2, head)  # set-up, before the first decision
    expect(position).to_have_text(f"set-up of {len(JOURNEY)}")
    first = move_name(server, created["id"], forks[0])
    expect(note).to_contain_text(f"This comes before {first}, the first place")
    expect(page.get_by_role("button", name="Fork from here")).to_be_disabled()

    page.locator(".timeline select.speed").select_option("1")
    page.locator(".timeline button.play").click()
    expect(page.locator(".timeline button.play")).to_have_text("Pause")
    page.locator(".timeline button.play").click()
    expect(page.locator(".timeline button.play")).to_have_text("Play")
    expect(position).not_to_have_attribute("data-version", str(head))
    # where the replay paused, fork is offered exactly if the server lists a fork point there
    paused = int(page.locator(".board-slot").get_attribute("data-version") or 0)
    fork_button = page.get_by_role("button", name="Fork from here")
    if paused in forks:
        expect(fork_button).to_be_enabled()
    else:
        expect(fork_button).to_be_disabled()

    page.locator(".timeline select.speed").select_option("25")
    page.locator(".timeline button.play").click()
    expect(position).to_have_attribute("data-version", str(head))
    expect(page.locator(".timeline button.play")).to_have_text("Play")
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(head))
    # the head is a decision point to fork at, but the campaign is already there: no rewind
    assert head in forks and head not in rewinds
    expect(page.get_by_role("button", name="Fork from here")).to_be_enabled()
    expect(page.get_by_role("button", name="Rewind to here")).to_be_disabled()
    expect(note).to_contain_text("the latest move, so there is nothing to rewind")

    page.get_by_role("button", name="Back to live play").click()
    expect(page.locator(".timeline")).to_have_count(0)
    expect(page.locator(".board-slot")).not_to_have_class("board-slot historic")


def test_a_fork_from_a_past_version_is_played_on_its_own(server: Live, page: Page) -> None:
    created, head = played(server)
    inside = inside_an_action(points(server, created))
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    open_timeline(page, head)
    scrub_to(page, inside, head)
    expect(page.get_by_role("button", name="Fork from here")).to_be_disabled()
    # the note offers the nearest decision points; the one before is where the fork starts
    nearest = page.locator(".timeline .point-note button.goto").first
    at = int(nearest.get_attribute("data-version") or 0)
    assert 0 < at < inside
    nearest.click()
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(at))
    page.get_by_role("button", name="Fork from here").click()

    expect(page).not_to_have_url(f"{server.http}/#/c/{created['id']}")
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "player")
    at_version(page, at)
    fork = page.url.rsplit("/", 1)[-1]
    assert fork != created["id"]
    page.locator(".board-slot button.action:not([disabled]):visible").first.click()
    at_version(page, at + 1)
    parent = page.request.get(f"{server.http}/api/campaigns/{created['id']}").json()
    assert parent["entry"]["version"] == head, "the parent is untouched"


def test_rewinding_returns_the_live_board_to_a_past_version(server: Live, page: Page) -> None:
    created, head = played(server)
    timeline = points(server, created)
    assert 7 in versions(timeline["points"]["rewind"])  # Day 1, pitching camp at Hollow Creek
    open_as(page, server, created["id"], "player", created["seats"]["player"])
    open_timeline(page, head)
    expect(page.get_by_role("button", name="Rewind to here")).to_be_disabled()  # the head
    scrub_to(page, inside_an_action(timeline), head)
    expect(page.get_by_role("button", name="Rewind to here")).to_be_disabled()
    scrub_to(page, 7, head)
    page.get_by_role("button", name="Rewind to here").click()
    dialog = page.locator("dialog.danger-dialog")
    seven = move_at(server, created["id"], 7)  # the hike to Hollow Creek: the third move
    assert seven == 3
    expect(dialog).to_contain_text(f"The last {len(JOURNEY) - seven} moves are undone")
    expect(dialog.locator("button:focus")).to_have_text("Keep playing")
    page.keyboard.press("Escape")  # nothing is undone without a yes
    expect(dialog).to_have_count(0)
    assert version_of(page) == head
    page.get_by_role("button", name="Rewind to here").click()
    dialog.get_by_role("button", name="Rewind to move 3").click()

    expect(page.locator(".notice")).to_contain_text("Rewound to move 3.")
    expect(page.locator(".timeline")).to_have_count(0)
    at_version(page, head + 1)
    expect(page.locator(".recent li.new")).to_contain_text("rewound to move 3")
    expect(page.locator(".campaign-status")).to_contain_text("Move 3 ·")
    expect(page.locator(".trail-map .map-day")).to_contain_text("Day 1")
    expect(page.locator('.pitch-step[data-step="campsite"]')).to_have_class("pitch-step current")
    click_action(page, "Turn in for the night")
    at_version(page, head + 2)
    expect(page.locator(".campaign-status")).to_contain_text("Move 4 ·")


def test_a_finished_campaign_is_not_rewound_but_forked_with_new_luck(
    server: Live, page: Page
) -> None:
    created = create(server, "gil-ennis", seed=5)
    cid, token = created["id"], created["seats"]["player"]
    headers = {"Authorization": f"Bearer {token}"}
    for _ in range(MOST_ACTIONS):
        state = httpx.get(f"{server.http}/api/campaigns/{cid}/state", headers=headers).json()
        if state["outcome"] != "running":
            break
        act_over_http(server, cid, token)
    else:
        raise AssertionError(f"The journey did not end within {MOST_ACTIONS} actions.")
    head = state["version"]
    fork_points = versions(state["points"]["fork"])
    assert state["points"]["rewind"] == [] and head in fork_points
    open_as(page, server, cid, "player", token)
    expect(page.locator(".end-panel")).to_be_visible()
    open_timeline(page, head)
    expect(page.get_by_role("button", name="Rewind to here")).to_be_hidden()
    note = page.locator(".timeline .point-note")
    expect(note).to_contain_text(
        "The campaign is over and its seed is revealed, so it is not rewound"
    )
    at = fork_points[len(fork_points) // 2]
    scrub_to(page, at, head)
    page.get_by_role("button", name="Fork with new luck from here").click()

    expect(page).not_to_have_url(f"{server.http}/#/c/{cid}")
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "player")
    at_version(page, at + 1)  # the fork's own first version: its new luck
    expect(page.locator(".recent li.new")).to_contain_text("forked with fresh luck")
    fork = page.url.rsplit("/", 1)[-1]
    about = httpx.get(f"{server.http}/api/campaigns/{fork}").json()
    assert about["entry"]["status"] == "running"
    assert about["seed_hash"] != created["seed_hash"], "the fork's luck is its own"
    page.locator(".board-slot button.action:not([disabled]):visible").first.click()
    expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(at + 1))
    assert version_of(page) > at + 1, "the fork plays on"
