"""Every page at a phone's, a tablet's, a laptop's and a wide screen's size: the lobby, each game's
board in real states (set-up, mid-game, a choice inside an effect, the end) and the timeline open.

At every size: no page-level sideways scroll (a board may scale, or scroll inside its own frame),
and axe-core, run in the page, finds no violation of WCAG 2.2 A and AA, of any impact. At the
phone's size also: no text under 11 CSS px, and every visible control at least 40 px each way.

The campaigns are created through the API and played to their states over HTTP once per module;
each size has one browser context, in which the lobby's form holds the seats of a campaign of four
explorers, so the lobby lists a campaign with a button per seat."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Browser, BrowserContext, Page, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running
from tests.web.conftest import Problems, create

SIZES = {
    "phone": {"width": 390, "height": 844},
    "tablet": {"width": 768, "height": 1024},
    "laptop": {"width": 1280, "height": 800},
    "wide": {"width": 1920, "height": 1080},
}
SMALLEST_TEXT = 11.0
"""CSS px: the smallest text the phone may show."""
SMALLEST_TARGET = 40.0
"""CSS px: the least width and height of a control on the phone."""
MOST_ACTIONS = 600
"""Random play ends every game here in well under this many actions."""
SHOTS = Path("/tmp/shots")
QUIET = ("abandon", "skip-dream", "end-climb", "wake")
"""Actions a player seldom takes, left out of random play unless nothing else is legal."""
AXE = Axe()
AXE_OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]},
    "resultTypes": ["violations"],
}


@dataclass(frozen=True)
class Seat:
    """A campaign at a version, opened as one of its seats."""

    campaign: str
    seat: str
    token: str
    version: int


def play(
    live: Live,
    created: dict[str, Any],
    seed: int,
    until: Callable[[dict[str, Any]], bool],
    *,
    seat: str | None = None,
    quiet: tuple[str, ...] = QUIET,
) -> Seat:
    """Play random legal actions over HTTP, each by whichever seat has one, until the state as
    some seat sees it satisfies ``until``; returns that seat (``seat``, if given) at that
    version."""
    seats: dict[str, str] = created["seats"]
    policy = random.Random(seed)
    with httpx.Client(base_url=live.http, timeout=10) as http:
        for _ in range(MOST_ACTIONS):
            states = {
                name: http.get(
                    f"/api/campaigns/{created['id']}/state",
                    headers={"Authorization": f"Bearer {token}"},
                ).json()
                for name, token in seats.items()
            }
            for name, state in states.items():
                if until(state) and seat in (None, name):
                    return Seat(created["id"], name, seats[name], state["version"])
            mover = next((n for n, s in states.items() if s["legal_actions"]), None)
            assert mover is not None, "the campaign ended before it reached the state asked for"
            legal = states[mover]["legal_actions"]
            chosen = policy.choice([a for a in legal if not a["id"].startswith(quiet)] or legal)
            body = {"action": chosen["id"], "expected_version": states[mover]["version"]}
            headers = {"Authorization": f"Bearer {seats[mover]}"}
            answer = http.post(
                f"/api/campaigns/{created['id']}/actions", json=body, headers=headers
            )
            assert answer.status_code == 200, answer.text
    raise AssertionError(f"not reached in {MOST_ACTIONS} actions")


def ended(state: dict[str, Any]) -> bool:
    return bool(state["outcome"] != "running")


def started(state: dict[str, Any]) -> bool:
    return True


def phase(*names: str, day: int = 0) -> Callable[[dict[str, Any]], bool]:
    def reached(state: dict[str, Any]) -> bool:
        view = state["view"]
        return (
            bool(state["legal_actions"])
            and view.get("phase") in names
            and (view.get("day") or 0) >= day
        )

    return reached


def eila_resolving(state: dict[str, Any]) -> bool:
    """Inside a card's option: the chapter waits on a choice the option asks for."""
    return bool(state["legal_actions"]) and bool(state["view"].get("pending"))


def machina_monsters(state: dict[str, Any]) -> bool:
    return bool(state["legal_actions"]) and bool(state["view"].get("monsters"))


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as server:
        yield server


@pytest.fixture(scope="module")
def seats(live: Live) -> dict[str, Seat]:
    """Each page's campaign, played to its state."""
    found: dict[str, Seat] = {}

    def fresh(name: str, game: str, seed: int, **body: Any) -> None:
        found[name] = play(live, create(live, game, seed=seed, **body), seed, started)

    def played(name: str, game: str, seed: int, until: Callable[..., bool], **body: Any) -> None:
        found[name] = play(live, create(live, game, seed=seed, **body), seed, until)

    fresh("gil-ennis-solo-setup", "gil-ennis", 5)
    played("gil-ennis-solo-end", "gil-ennis", 1, ended)
    played("gil-ennis-coop-pitch", "gil-ennis", 2, phase("pitch", day=3), seats=["gil", "ennis"])
    played("gil-ennis-coop-final", "gil-ennis", 2, phase("final_night"), seats=["gil", "ennis"])
    fresh("eila-setup", "eila", 3, options={"chapter": 2})
    played("eila-option", "eila", 1, eila_resolving, options={"chapter": 0})
    played("eila-mine", "eila", 1, phase("day"), options={"chapter": 3})
    # a chapter given up: random play loses one in other ways only after many actions
    created = create(live, "eila", seed=1, options={"chapter": 1})
    found["eila-end"] = play(live, created, 1, ended, quiet=())
    fresh("machina-setup", "machina", 31, seats=["ada", "bram", "cyra", "dov"])
    played("machina-mid", "machina", 1, machina_monsters, seats=["ada", "bram"])
    played("machina-placing", "machina", 1, phase("placing"), seats=["ada", "bram"])
    played("machina-end", "machina", 1, ended)
    return found


BOARDS = [
    "gil-ennis-solo-setup",
    "gil-ennis-solo-end",
    "gil-ennis-coop-pitch",
    "gil-ennis-coop-final",
    "eila-setup",
    "eila-option",
    "eila-mine",
    "eila-end",
    "machina-setup",
    "machina-mid",
    "machina-placing",
    "machina-end",
]


@pytest.fixture(scope="module", params=list(SIZES))
def sized(request: pytest.FixtureRequest, browser: Browser) -> Iterator[BrowserContext]:
    """One browser context per size, shared by the module's tests at that size."""
    context = browser.new_context(viewport=SIZES[request.param])  # type: ignore[arg-type]
    yield context
    context.close()


@pytest.fixture
def tab(sized: BrowserContext, problems: Problems) -> Iterator[Page]:
    page = problems.watch(sized.new_page())
    yield page
    page.close()


def size_of(page: Page) -> str:
    width = (page.viewport_size or {"width": 0})["width"]
    return next(name for name, size in SIZES.items() if size["width"] == width)


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}-{size_of(page)}.png"), full_page=True)


def open_seat(page: Page, live: Live, seat: Seat) -> None:
    page.goto(f"{live.http}/#/join/{seat.campaign}/{seat.seat}/{seat.token}")
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(seat.version))
    expect(page.locator(".board-slot .board")).to_be_visible()


# -- the measures --------------------------------------------------------------------------------

NAMED = """const named = (node) =>
  `${node.tagName.toLowerCase()}.${[...node.classList].join(".")}`;
"""

WIDER_THAN_PAGE = (
    "() => {"
    + NAMED
    + """
  const width = innerWidth;
  const wide = [...document.querySelectorAll("body *")].filter((node) => {
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.right > width + 0.5 && !node.closest("[data-scrolls]");
  });
  return {
    scrollWidth: document.documentElement.scrollWidth,
    width,
    wide: wide.slice(0, 8).map((node) =>
      `${named(node)} ${Math.round(node.getBoundingClientRect().right)}`),
  };
}"""
)

TEXT_SIZES = (
    "() => {"
    + NAMED
    + """
  const sizes = [];
  const walker = document.createTreeWalker(document.querySelector("#app"), NodeFilter.SHOW_TEXT);
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    if (!text.textContent.trim()) continue;
    const node = text.parentElement;
    if (!node || node.closest("title, style, script, .sr-only, option")) continue;
    const style = getComputedStyle(node);
    if (style.visibility === "hidden" || style.display === "none") continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const box = range.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    let size = parseFloat(style.fontSize);
    if (node instanceof SVGElement) {
      const matrix = node.getScreenCTM();
      size *= Math.hypot(matrix.c, matrix.d);
    }
    const words = text.textContent.trim().slice(0, 24);
    sizes.push([Math.round(size * 100) / 100, `${named(node)}: ${words}`]);
  }
  return sizes;
}"""
)

SMALL_TARGETS = (
    "(least) => {"
    + NAMED
    + """
  const controls = document.querySelectorAll(
    "button, a.button, summary, select, input[type=text], input:not([type])");
  const small = [];
  for (const node of controls) {
    const box = node.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (getComputedStyle(node).visibility === "hidden") continue;
    if (box.width < least - 0.01 || box.height < least - 0.01) {
      const name = (node.getAttribute("aria-label") || node.textContent).trim().slice(0, 30);
      small.push(`${named(node)} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""
)


def check_page(page: Page, name: str) -> None:
    """The measures every page must meet at the size of ``page``.

    Text size: an HTML text's size is its parent's computed ``font-size``; an SVG text's is its
    computed ``font-size`` (in the drawing's units) times the length of the vertical column of the
    text's screen transform (``getScreenCTM``), which is the CSS px one unit of the drawing takes
    on screen once the SVG is scaled to its box. That is the height the glyphs are drawn at (the
    text's ``getBoundingClientRect`` is that size times the font's line box, about 1.2). Only text
    that is laid out with a box of its own counts: not ``<title>`` tooltips, nor text hidden for
    screen readers only."""
    shot(page, name)
    faults: list[str] = []
    fits = page.evaluate(WIDER_THAN_PAGE)
    if fits["scrollWidth"] > fits["width"]:
        faults.append(
            f"{fits['scrollWidth']} px wide in a {fits['width']} px window: {fits['wide']}"
        )
    if size_of(page) == "phone":
        sizes = page.evaluate(TEXT_SIZES)
        assert sizes, "no text was measured"
        small = sorted({(size, what) for size, what in sizes if size < SMALLEST_TEXT})
        if small:
            faults.append(f"text under {SMALLEST_TEXT} px: {small[:12]}")
        targets = page.evaluate(SMALL_TARGETS, SMALLEST_TARGET)
        if targets:
            faults.append(f"controls under {SMALLEST_TARGET} px: {targets[:12]}")
    results = AXE.run(page, options=AXE_OPTIONS)
    found = [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes'][:4]]}"
        for v in results.response["violations"]
    ]
    if found:
        faults.append(f"axe found {found}")
    assert not faults, f"{name} at {size_of(page)}: " + "; ".join(faults)


# -- the pages -----------------------------------------------------------------------------------


def test_the_lobby_fits_with_a_campaign_of_four_seats_listed(
    live: Live, seats: dict[str, Seat], tab: Page
) -> None:
    tab.goto(live.http + "/")
    form = tab.locator('form.game-card[data-game="machina"]')
    form.locator('select[name="layout"]').select_option(index=3)
    form.locator('button[type="submit"]').click()
    expect(tab.locator(".board-slot .board-machina")).to_be_visible()
    tab.goto(live.http + "/#/")
    row = tab.locator("table.campaigns tbody tr").first
    expect(row.locator("a[data-seat]")).to_have_count(4)
    expect(row).to_contain_text("The Gatehouse · round 1")
    expect(row).not_to_contain_text("version")
    check_page(tab, "lobby")


@pytest.mark.parametrize("name", BOARDS)
def test_a_board_fits(live: Live, seats: dict[str, Seat], tab: Page, name: str) -> None:
    open_seat(tab, live, seats[name])
    check_page(tab, name)


def test_the_timeline_fits_open(live: Live, seats: dict[str, Seat], tab: Page) -> None:
    open_seat(tab, live, seats["gil-ennis-coop-pitch"])
    tab.get_by_role("button", name="Timeline").click()
    expect(tab.locator(".timeline .scrubber")).to_be_visible()
    lines = tab.locator("ol.timeline-lines")
    expect(lines.locator("li").first).to_be_visible()
    assert lines.get_attribute("tabindex") == "0", "the scrolling list takes the keyboard's focus"
    lines.focus()
    expect(lines).to_be_focused()
    # play and pause are drawn, not characters a font may lack
    expect(tab.locator(".timeline button.play svg")).to_have_count(1)
    expect(tab.locator(".timeline button.play")).to_have_text("Play")
    check_page(tab, "timeline")


def test_the_machina_timeline_fits_open_at_a_move_to_rewind_to(
    live: Live, seats: dict[str, Seat], tab: Page
) -> None:
    seat = seats["machina-mid"]
    open_seat(tab, live, seat)
    tab.get_by_role("button", name="Timeline").click()
    expect(tab.locator(".timeline .scrubber")).to_be_visible()
    # the decision point before the head: fork and rewind both offered, in their colours
    tab.locator(".timeline .prev-point").click()
    expect(tab.get_by_role("button", name="Rewind to here")).to_be_enabled()
    expect(tab.get_by_role("button", name="Fork from here")).to_be_enabled()
    expect(tab.locator(".board-slot .board-machina")).to_be_visible()
    check_page(tab, "machina-timeline")


def test_the_seed_is_sent_as_its_digits(live: Live, tab: Page) -> None:
    """A seed is a whole number up to 2**64 - 1: the lobby sends its decimal digits as a string,
    which no JavaScript number could carry exactly, and refuses anything else before sending (at
    every size: the form is laid out differently on a phone, and a skipped test is not a pass)."""
    sent: list[str] = []

    def hold(route: Any) -> None:
        sent.append(route.request.post_data or "")
        route.abort()

    tab.route(re.compile(r"/api/campaigns$"), hold)
    tab.goto(live.http + "/")
    form = tab.locator('form.game-card[data-game="gil-ennis"]')
    seed = form.locator('input[name="seed"]')
    assert seed.get_attribute("inputmode") == "numeric"
    seed.fill("18446744073709551616")
    form.locator('button[type="submit"]').click()
    expect(form.locator(".form-status")).to_contain_text("0 to 18446744073709551615")
    seed.fill("12ab")
    form.locator('button[type="submit"]').click()
    expect(form.locator(".form-status")).to_contain_text("0 to 18446744073709551615")
    seed.fill("0042")  # the seed shown back and hashed is the one typed: never read as 42
    form.locator('button[type="submit"]').click()
    expect(form.locator(".form-status")).to_contain_text("without leading zeros")
    assert sent == []
    seed.fill("13112283191526718841")
    form.locator('button[type="submit"]').click()
    expect(form.locator(".form-status")).to_contain_text("cannot be reached")
    assert len(sent) == 1
    assert '"seed":"13112283191526718841"' in sent[0].replace(" ", "")
