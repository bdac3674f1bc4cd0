"""A co-operative table in two browsers: a rewind one seat asks for is declined by the other and
nothing changes; accepted, both pages show who rewound and what it undid; a seat takes back its
own last move alone; a bot seat leaves the decisions both seats share to the connected person;
and taking a seat someone plays asks first and tells them. Phone and laptop sizes, axe clean."""

from __future__ import annotations

import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.settings import BotSettings
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running
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
from tests.web.test_layout import check_page
from tests.web.test_timeline import open_timeline, scrub_to

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}
SHARED = {
    "gil-ennis/hiked",
    "gil-ennis/ate",
    "gil-ennis/forage_stowed",
    "gil-ennis/dreamers_chosen",
}
"""Events of the decisions either seat of Gil & Ennis may take for both."""


@pytest.fixture
def table() -> Iterator[Live]:
    settings = BotSettings(pace_ms=0, workers=0, poll_s=0.2)
    app = create_app(CampaignService(MemoryStore(), fresh=Reproducible()), bot_settings=settings)
    with running(app) as live:
        yield live


class Two:
    """Gil's and Ennis's pages, each in a browser context of its own."""

    def __init__(self, browser: Browser, problems: Problems, size: str) -> None:
        self.contexts: list[BrowserContext] = []
        self.gil = self.page(browser, problems, size)
        self.ennis = self.page(browser, problems, size)

    def page(self, browser: Browser, problems: Problems, size: str) -> Page:
        context = browser.new_context(viewport=SIZES[size])  # type: ignore[arg-type]
        self.contexts.append(context)
        return problems.watch(context.new_page())

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture(params=list(SIZES))
def two(browser: Browser, problems: Problems, request: pytest.FixtureRequest) -> Iterator[Two]:
    pages = Two(browser, problems, request.param)
    yield pages
    pages.close()


def packed_and_hiked(live: Live) -> tuple[str, dict[str, str], int]:
    """A Gil & Ennis campaign of two seats where Gil packed (the version returned), then Ennis
    packed and Gil hiked."""
    created = create(live, "gil-ennis", seats=["gil", "ennis"], seed=5)
    cid, seats = created["id"], created["seats"]
    packed = act_over_http(live, cid, seats["gil"], label="Pack Gil's dice")
    act_over_http(live, cid, seats["ennis"], label="Pack Ennis's dice")
    act_over_http(live, cid, seats["gil"], label="Hike to")
    return cid, seats, packed


def ask_to_rewind(page: Page, to: int) -> None:
    """Open the timeline, go to version ``to`` and rewind there, saying yes when asked."""
    head = version_of(page)
    open_timeline(page, head)
    scrub_to(page, to, head)
    page.locator(".timeline button.rewind").click()
    page.locator("dialog.danger-dialog button.danger").click()


def test_a_declined_rewind_changes_nothing_and_an_accepted_one_is_told_to_both(
    server: Live, two: Two
) -> None:
    cid, seats, packed = packed_and_hiked(server)
    gil, ennis = two.gil, two.ennis
    open_as(gil, server, cid, "gil", seats["gil"])
    open_as(ennis, server, cid, "ennis", seats["ennis"])
    head = version_of(gil)
    at_version(ennis, head)
    size = "phone" if (gil.viewport_size or {"width": 0})["width"] < 500 else "laptop"

    ask_to_rewind(gil, packed)
    expect(gil.locator(".proposal-line")).to_contain_text("waiting for Ennis to agree")
    asked = ennis.locator("dialog.proposal-dialog")
    expect(asked).to_be_visible()
    expect(asked.locator("h2")).to_have_text("Gil asks to rewind to move 1")
    expect(asked).to_contain_text("That undoes 2 moves for both of you")
    expect(asked.locator(".undone-moves")).to_contain_text("Ennis")
    keep = asked.get_by_role("button", name="Keep the game")
    expect(keep).to_be_focused()  # keeping the game is the default answer
    screenshot(gil, f"coop-asked-{size}")
    check_page(ennis, "coop-proposal")

    keep.click()
    expect(asked).to_have_count(0)
    expect(ennis.locator(".notices")).to_contain_text("You kept the game")
    expect(gil.locator(".notices")).to_contain_text("Ennis kept the game")
    expect(gil.locator(".proposal-line")).to_be_hidden()
    for page in (gil, ennis):
        at_version(page, head)
        expect(page.locator(".rewind-banner")).to_have_count(0)
    listed = httpx.get(f"{server.http}/api/campaigns/{cid}/state", timeout=10).json()
    assert listed["version"] == head, "a declined rewind changes nothing"

    ask_to_rewind(gil, packed)
    ennis.locator("dialog.proposal-dialog").get_by_role("button", name="Rewind to move 1").click()
    for page in (gil, ennis):
        at_version(page, head + 1)
    expect(gil.locator(".rewind-banner")).to_contain_text(
        "You rewound the game to move 1 with Ennis's agreement, undoing 2 moves."
    )
    banner = ennis.locator(".rewind-banner")
    expect(banner).to_contain_text("Gil rewound the game to move 1 with your agreement")
    expect(banner.locator(".undone-moves li").first).to_contain_text("Move 2")
    expect(banner).to_be_in_viewport()
    screenshot(ennis, f"coop-rewound-{size}")
    check_page(gil, "coop-rewound")


def test_a_seat_takes_back_its_own_last_move_alone(server: Live, two: Two) -> None:
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=5)
    cid, seats = created["id"], created["seats"]
    act_over_http(server, cid, seats["gil"], label="Pack Gil's dice")
    act_over_http(server, cid, seats["ennis"], label="Pack Ennis's dice")
    gil, ennis = two.gil, two.ennis
    open_as(gil, server, cid, "gil", seats["gil"])
    open_as(ennis, server, cid, "ennis", seats["ennis"])
    before = version_of(gil)
    click_action(gil, "Hike to")  # draws no luck
    at_version(gil, before + 1)
    at_version(ennis, before + 1)

    ask_to_rewind(gil, before)
    expect(gil.locator(".notices")).to_contain_text("Rewound to move 2.")
    for page in (gil, ennis):
        at_version(page, before + 2)
    expect(ennis.locator("dialog.proposal-dialog")).to_have_count(0)
    expect(ennis.locator(".rewind-banner")).to_contain_text(
        "Gil rewound the game to move 2, undoing 1 move."
    )
    expect(ennis.locator(".rewind-banner")).to_contain_text("hiked to Hollow Creek")
    expect(gil.get_by_role("button", name=re.compile("Hike to"))).to_be_enabled()


def test_a_bot_seat_leaves_the_shared_decisions_to_the_connected_person(
    table: Live, two: Two
) -> None:
    created = create(
        table,
        "gil-ennis",
        seats=["gil", "ennis"],
        seed=5,
        bots={"ennis": {"bot": "search", "level": 1}},
    )
    cid, seats = created["id"], created["seats"]
    gil = two.gil
    open_as(gil, table, cid, "gil", seats["gil"])
    click_action(gil, "Pack Gil's dice")
    # The bot packs Ennis's dice (its own decision), then waits on the hike, which is both seats'.
    waits = gil.locator('.turn-bar .bot-waits[data-seat="ennis"]')
    expect(waits).to_contain_text("It would choose: Hike to Hollow Creek")
    expect(waits).to_be_in_viewport()
    waiting = version_of(gil)
    listing = httpx.get(f"{table.http}/api/campaigns/{cid}/bots", timeout=10).json()
    assert [w["version"] for w in listing["waiting"]] == [waiting]
    state = httpx.get(f"{table.http}/api/campaigns/{cid}/state", timeout=10).json()
    assert state["version"] == waiting, "the bot did not hike for both"
    size = "phone" if (gil.viewport_size or {"width": 0})["width"] < 500 else "laptop"
    screenshot(gil, f"coop-bot-waits-{size}")
    check_page(gil, "coop-bot-waits")

    click_action(gil, "Hike to")
    expect(waits).to_have_count(0)
    # Gil's hike is taken (the bot may play its own moves at camp right after it)
    expect(gil.locator(".campaign-status")).not_to_have_attribute("data-version", str(waiting))
    events = httpx.get(f"{table.http}/api/campaigns/{cid}/events", timeout=10).json()["events"]
    by_bot = [e for e in events if e["by"]]
    assert by_bot and all(e["seat"] == "ennis" for e in by_bot)
    assert not {e["event"]["type"] for e in by_bot} & SHARED
    hiked = [e for e in events if e["event"]["type"] == "gil-ennis/hiked"]
    assert [e["seat"] for e in hiked] == ["gil"] and hiked[0]["by"] is None


def test_taking_a_seat_someone_plays_asks_first_and_tells_them(server: Live, two: Two) -> None:
    created = create(server, "gil-ennis", seats=["gil", "ennis"], seed=5)
    cid, seats = created["id"], created["seats"]
    holder, taker = two.ennis, two.gil
    open_as(holder, server, cid, "ennis", seats["ennis"])
    # The taker's browser holds both seats' links and plays Gil.
    open_as(taker, server, cid, "ennis", seats["ennis"])
    open_as(taker, server, cid, "gil", seats["gil"])
    expect(taker.locator('.seats li[data-seat="ennis"]')).to_have_class(re.compile("present"))
    play_as = taker.get_by_role("button", name="Play as Ennis")
    play_as.click()
    dialog = taker.locator("dialog.danger-dialog")
    expect(dialog.locator("h2")).to_have_text("Play as Ennis?")
    expect(dialog).to_contain_text("Ennis is being played by another player, connected now")
    expect(dialog.get_by_role("button", name="Stay as Gil")).to_be_focused()
    check_page(taker, "coop-take-seat")
    dialog.get_by_role("button", name="Stay as Gil").click()
    expect(taker.locator(".campaign-status")).to_have_attribute("data-seat", "gil")

    play_as.click()
    taker.locator("dialog.danger-dialog").get_by_role("button", name="Play as Ennis").click()
    expect(taker.locator(".campaign-status")).to_have_attribute("data-seat", "ennis")
    told = holder.locator('.notices [data-notice="seat-shared"]')
    expect(told).to_contain_text("Someone also plays Ennis now, from another page")
