"""The family tree, two branches compared, and links to a moment, in a real browser against a real
server: a family of a campaign with a rewind, a fork from a move that rewind undid, a fork of that
fork, and a rewind on the fork, all made through the HTTP API.

The tree draws a lane per branch with its outcome in words, and every point opens that campaign's
timeline at that move; comparing two branches shows the move where they part and both boards at
the same move after it; a link to a moment opens the timeline there as whoever opens it may see it
(a spectator, unless they hold a seat), and says so in words when it cannot."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Response, Route, expect

from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running
from tests.web.conftest import Problems, act_over_http, create, move_at, move_name, open_as
from tests.web.test_layout import check_page
from tests.web.test_timeline import JOURNEY  # the root's moves (versions 5, 7: decision points)

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
PARTED_AT = 7
REWOUND_TO = 5


@dataclass(frozen=True)
class Family:
    """Root R rewound to move 5 (undoing 6 to ``root_undone_last``); fork A from R at move 7 (a
    move that rewind undid); fork B from A at A's first move; A rewound to that move."""

    root: str
    token: str
    root_head: int
    root_undone_last: int
    fork: str
    fork_token: str
    fork_first: int
    fork_head: int
    grandchild: str
    grandchild_first: int
    grandchild_head: int


def post(live: Live, path: str, token: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(
        f"{live.http}{path}", json=body, headers={"Authorization": f"Bearer {token}"}, timeout=10
    )
    assert answer.status_code in (200, 201), answer.text
    found: dict[str, Any] = answer.json()
    return found


def fork(live: Live, campaign: str, token: str, at: int) -> tuple[str, str]:
    created = post(live, f"/api/campaigns/{campaign}/fork", token, {"at": at, "reseed": False})
    return created["id"], created["seats"]["player"]


def rewind(live: Live, campaign: str, token: str, to: int) -> int:
    version: int = post(live, f"/api/campaigns/{campaign}/rewind", token, {"to": to})["version"]
    return version


def lineage(live: Live, campaign: str, token: str | None = None) -> list[dict[str, Any]]:
    """Every branch of ``campaign``'s family, page by page, as ``token`` (or a spectator) sees
    it."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    branches: list[dict[str, Any]] = []
    cursor: str | None = None
    while True:
        query = {"limit": "100", **({"after": cursor} if cursor else {})}
        answer = httpx.get(
            f"{live.http}/api/campaigns/{campaign}/lineage",
            params=query,
            headers=headers,
            timeout=10,
        )
        assert answer.status_code == 200, answer.text
        page = answer.json()
        branches += page["branches"]
        cursor = page["next"]
        if cursor is None:
            return branches


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as server:
        yield server


@pytest.fixture(scope="module")
def family(live: Live) -> Family:
    created = create(live, "gil-ennis", seed=11)
    root, token = created["id"], created["seats"]["player"]
    undone_last = created["version"]
    for label in JOURNEY:
        undone_last = act_over_http(live, root, token, label=label)
    child, child_token = fork(live, root, token, PARTED_AT)
    rewind(live, root, token, REWOUND_TO)
    root_head = act_over_http(live, root, token)
    child_first = act_over_http(live, child, child_token)
    grandchild, grandchild_token = fork(live, child, child_token, child_first)
    act_over_http(live, child, child_token)
    child_head = rewind(live, child, child_token, child_first)
    act_over_http(live, grandchild, grandchild_token)
    grandchild_head = act_over_http(live, grandchild, grandchild_token)
    return Family(
        root,
        token,
        root_head,
        undone_last,
        child,
        child_token,
        child_first,
        child_head,
        grandchild,
        child_first + 1,
        grandchild_head,
    )


@pytest.fixture
def laptop(browser: Browser) -> Iterator[BrowserContext]:
    context = browser.new_context(viewport=LAPTOP)  # type: ignore[arg-type]
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    yield context
    context.close()


@pytest.fixture
def tab(laptop: BrowserContext, problems: Problems) -> Page:
    return problems.watch(laptop.new_page())


def open_family(page: Page, live: Live, family: Family) -> None:
    """The root as its seat, its timeline open, then the family tree from it."""
    open_as(page, live, family.root, "player", family.token)
    page.keyboard.press("t")
    position = page.locator(".timeline .position")
    expect(position).to_have_attribute("data-version", str(family.root_head))
    moves = move_at(live, family.root, family.root_head)
    expect(position).to_have_text(f"move {moves} of {moves}")
    page.get_by_role("link", name="Family tree").click()
    expect(page).to_have_url(re.compile(rf"#/c/{family.root}/family/{family.root_head}$"))
    expect(page.locator(".branch-list li")).to_have_count(5)


def at_moment(
    page: Page,
    live: Live,
    campaign: str,
    version: int,
    head: int,
    who: str,
    token: str | None = None,
) -> None:
    """The page shows ``campaign``'s timeline at ``version`` as ``who`` sees it, its moves
    counted as players count them."""
    expect(page).to_have_url(re.compile(rf"#/c/{campaign}/at/{version}$"))
    position = page.locator(".timeline .position")
    expect(position).to_have_attribute("data-version", str(version))
    shown = move_name(live, campaign, version, token)
    last = move_at(live, campaign, head, token)
    expect(position).to_have_text(f"{shown} of {last}")
    expect(page.locator(".board-slot")).to_have_attribute("data-version", str(version))
    expect(page.locator(".history-bar")).to_contain_text(
        f"Showing {shown} of {last} as {who} sees it"
    )


# -- the family tree -------------------------------------------------------------------------------


def test_the_family_tree_draws_every_branch_and_a_point_opens_its_timeline(
    live: Live, family: Family, tab: Page
) -> None:
    branches = lineage(live, family.root, family.token)
    kinds = sorted(branch["kind"] for branch in branches)
    assert kinds == ["fork", "fork", "root", "undone", "undone"]
    open_family(tab, live, family)
    tree = tab.locator(".tree")
    expect(tree.locator("line.lane")).to_have_count(5)
    expect(tree.locator("line.lane.mine")).to_have_count(1)
    # outcomes in words beside a mark: three lines still played, two stretches undone
    expect(tree.locator("text.outcome", has_text="▶ still being played")).to_have_count(3)
    expect(tree.locator("text.outcome", has_text="↶ undone by a rewind")).to_have_count(2)
    expect(tab.locator(".branch-list li.mine")).to_contain_text("The original campaign")
    # the move the timeline showed is ringed
    ringed = tree.locator("a.joint.current")
    expect(ringed.first).to_have_attribute("href", f"#/c/{family.root}/at/{family.root_head}")
    # the rewind on the root is a point of its own, and the undone stretch parts where it went to
    rewound = tree.locator("a.joint.rewind")
    expect(rewound).to_have_count(2)
    expect(
        tree.locator(f'a.joint.parting[href="#/c/{family.root}/at/{REWOUND_TO}"]')
    ).to_have_count(1)

    # a click on where the fork of the fork starts opens that campaign's timeline there
    start = tree.locator(
        f'a.joint.start[href="#/c/{family.grandchild}/at/{family.grandchild_first}"]'
    )
    expect(start).to_have_count(1)
    start.click()
    at_moment(
        tab, live, family.grandchild, family.grandchild_first, family.grandchild_head, "a spectator"
    )

    # and from the keyboard: Enter on the fork's last move
    tab.go_back()
    expect(tab.locator(".tree")).to_be_visible()
    end = tab.locator(f'.tree a.joint.end[href="#/c/{family.fork}/at/{family.fork_head}"]')
    end.focus()
    expect(end).to_be_focused()
    tab.keyboard.press("Enter")
    at_moment(tab, live, family.fork, family.fork_head, family.fork_head, "a spectator")


def test_more_branches_are_fetched_on_demand_past_the_first_pages(
    live: Live, family: Family, tab: Page
) -> None:
    # pages of one branch: the tree fetches three at first, then offers the rest
    def small_pages(route: Route) -> None:
        route.continue_(url=re.sub(r"limit=\d+", "limit=1", route.request.url))

    tab.route(re.compile(r"/lineage\?"), small_pages)
    open_as(tab, live, family.root, "player", family.token)
    tab.goto(f"{live.http}/#/c/{family.root}/family")
    expect(tab.locator(".branch-list li")).to_have_count(3)
    expect(tab.get_by_role("status").filter(has_text="The first 3 branches")).to_have_text(
        "The first 3 branches; there are more."
    )
    tab.get_by_role("button", name="Show more branches").click()
    expect(tab.locator(".branch-list li")).to_have_count(5)
    expect(tab.locator(".tree line.lane")).to_have_count(5)
    expect(tab.get_by_role("button", name="Show more branches")).to_have_count(0)


def test_a_private_ancestor_is_a_placeholder_and_a_spectator_sees_no_private_tree(
    live: Live, browser: Browser, tab: Page
) -> None:
    hidden = create(live, "gil-ennis", seed=6, private=True)
    child, child_token = fork(live, hidden["id"], hidden["seats"]["player"], hidden["version"])
    # this browser holds the fork's seat only: the parent is listed, but not shown
    open_as(tab, live, child, "player", child_token)
    tab.goto(f"{live.http}/#/c/{child}/family")
    items = tab.locator(".branch-list li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_have_text("A private branch — its moves are not shown to this browser.")
    # seats named as the game names them, moves as players count them (none yet: the set-up)
    expect(items.nth(1)).to_contain_text("Fork 1 after set-up by Gil & Ennis")
    expect(items.nth(1)).to_contain_text("0 moves of its own")
    lane = tab.locator(".tree line.lane-fork")
    expect(lane).to_have_count(1)
    # a fork with no move of its own yet opens where it starts, its parent's last move
    end = tab.locator(f'.tree a.joint.end[href="#/c/{child}/at/{hidden["version"]}"]')
    end.click()
    at_moment(tab, live, child, hidden["version"], hidden["version"], "Gil & Ennis", child_token)

    fresh = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        stranger = fresh.new_page()
        stranger.goto(f"{live.http}/#/c/{child}/family")
        expect(stranger.locator("h1")).to_have_text("This family tree cannot be shown")
        expect(stranger.get_by_role("alert")).not_to_be_empty()
        expect(stranger.locator(".tree")).to_have_count(0)
    finally:
        fresh.close()


# -- two branches compared -------------------------------------------------------------------------


def test_comparing_shows_where_two_branches_part_and_both_boards(
    live: Live, family: Family, tab: Page
) -> None:
    open_family(tab, live, family)
    # the stretch the root's rewind undid, and the fork made from a move inside it
    tab.locator("#compare-a").select_option(f"{family.root}~{REWOUND_TO + 1}")
    tab.locator("#compare-b").select_option(family.fork)
    tab.get_by_role("button", name="Compare", exact=True).click()
    parting = tab.locator(".compare .parting")
    parted = move_name(live, family.fork, PARTED_AT)
    expect(parting.locator("h3")).to_have_text(f"They part after {parted}")
    moves = parting.locator(".parting-moves li")
    expect(moves).to_have_count(2)
    # each branch's first move apart, in the timeline's words
    words = httpx.get(
        f"{live.http}/api/campaigns/{family.fork}/timeline",
        params={"after": str(PARTED_AT), "limit": "1"},
        timeout=10,
    ).json()["lines"][0]
    assert words["version"] == PARTED_AT + 1
    apart = move_name(live, family.fork, PARTED_AT + 1)
    expect(moves.nth(1)).to_contain_text(f"{apart}, {words['text']}")
    expect(moves.nth(0)).to_contain_text(move_name(live, family.root, PARTED_AT + 1))
    boards = tab.locator(".compare-board .board-slot")
    expect(boards).to_have_count(2)
    expect(boards.locator(".board")).to_have_count(2)
    expect(boards.nth(0)).to_have_attribute("data-version", str(PARTED_AT + 1))
    expect(boards.nth(1)).to_have_attribute("data-version", str(PARTED_AT + 1))
    # one step on: the stretch's next step, and the fork's after its own rewind undid one
    tab.locator(".compare").get_by_role("button", name="One step on").click()
    expect(tab.locator(".compare-step")).to_have_text(
        "Showing step 2 after they part (each step one event of the game), on each branch."
    )
    expect(boards.nth(0)).to_have_attribute("data-version", str(PARTED_AT + 2))
    expect(boards.nth(1)).to_have_attribute("data-version", str(family.fork_head))
    # what differs between the two boards is listed, part by part, each side's value
    expect(tab.locator(".compare-differs h3")).to_contain_text("What differs here")
    expect(tab.locator(".compare-differs tr.differs")).not_to_have_count(0)
    tab.locator(".compare").get_by_role("button", name="One step back").click()
    tab.locator(".compare").get_by_role("button", name="One step back").click()
    expect(tab.locator(".compare-step")).to_have_text("Showing where they part, on both.")
    expect(tab.locator(".compare-differs h3")).to_have_text("Nothing differs here")
    expect(boards.nth(0)).to_have_attribute("data-version", str(PARTED_AT))
    expect(boards.nth(1)).to_have_attribute("data-version", str(PARTED_AT))


# -- links to a moment -----------------------------------------------------------------------------


def test_a_copied_link_opens_that_moment_in_a_fresh_browser_as_a_spectator(
    live: Live, family: Family, browser: Browser, tab: Page, problems: Problems
) -> None:
    open_as(tab, live, family.root, "player", family.token)
    tab.get_by_role("button", name="Timeline").click()
    tab.locator(".timeline .scrubber").fill(str(PARTED_AT))
    expect(tab.locator(".board-slot")).to_have_attribute("data-version", str(PARTED_AT))
    copy = tab.get_by_role("button", name="Copy a link to this moment")
    expect(copy).to_have_accessible_description(
        "This link opens the game as a spectator unless the person opening it holds a seat."
    )
    copy.click()
    expect(tab.locator(".copy-said")).to_have_text("Copied a link to this moment.")
    link = tab.evaluate("navigator.clipboard.readText()")
    assert link == f"{live.http}/#/c/{family.root}/at/{PARTED_AT}"
    assert family.token not in link

    fresh = browser.new_context(viewport=PHONE)  # type: ignore[arg-type]
    try:
        stranger = problems.watch(fresh.new_page())
        stranger.goto(link)
        at_moment(stranger, live, family.root, PARTED_AT, family.root_head, "a spectator")
        expect(stranger.locator(".campaign-status")).to_have_attribute("data-seat", "")
    finally:
        fresh.close()
    # the seat that opens the same link sees it as the seat
    tab.goto(link)
    at_moment(tab, live, family.root, PARTED_AT, family.root_head, "Gil & Ennis")


def test_a_spectators_link_shows_no_card_the_seat_cannot_see_either(
    live: Live, browser: Browser, tab: Page, problems: Problems
) -> None:
    created = create(live, "eila", seed=1, options={"chapter": 0})
    cid, token = created["id"], created["seats"]["player"]
    for _ in range(6):
        version = act_over_http(live, cid, token)
    items = httpx.get(f"{live.http}/api/games/eila/content", timeout=10).json()["items"]
    names = [item["name"] for item in items.values()]
    seat_view = httpx.get(
        f"{live.http}/api/campaigns/{cid}/state",
        params={"at": str(version)},
        headers={"Authorization": f"Bearer {token}"},
        timeout=10,
    ).json()["view"]
    assert seat_view["item_deck_count"] > 0 and not seat_view["item_support_area"]["items"]

    fresh = browser.new_context(viewport=LAPTOP)  # type: ignore[arg-type]
    try:
        stranger = problems.watch(fresh.new_page())
        answers: list[Response] = []
        stranger.on(
            "response", lambda r: answers.append(r) if re.search(r"/state\?at=", r.url) else None
        )
        stranger.goto(f"{live.http}/#/c/{cid}/at/{version}")
        at_moment(stranger, live, cid, version, version, "a spectator")
        shown = stranger.locator(".board-slot").inner_text()
        open_as(tab, live, cid, "player", token)
        tab.goto(f"{live.http}/#/c/{cid}/at/{version}")
        at_moment(tab, live, cid, version, version, "Eila")
        seen = tab.locator(".board-slot").inner_text()
        read = [answer.json() for answer in answers]
    finally:
        fresh.close()
    # the item deck lies face down: neither the seat nor the spectator reads a card of it
    assert [name for name in names if name in shown] == []
    assert [name for name in names if name in seen] == []
    assert read and all(answer["seat"] is None and answer["seed"] is None for answer in read)
    assert {k: v for k, v in read[-1]["view"].items() if k != "seat"} == {
        k: v for k, v in seat_view.items() if k != "seat"
    }


def test_a_link_to_a_moment_that_cannot_be_shown_says_why(
    live: Live, family: Family, tab: Page
) -> None:
    past = family.root_head + 50
    tab.goto(f"{live.http}/#/c/{family.root}/at/{past}")
    expect(tab.locator("h1")).to_have_text(f"Move {past} is not part of this campaign")
    expect(tab.get_by_role("alert")).to_have_text(
        f"This campaign has no move {past}: its moves run from 1 to {family.root_head}."
    )
    tab.get_by_role("link", name=f"Open its latest move, {family.root_head}").click()
    at_moment(tab, live, family.root, family.root_head, family.root_head, "a spectator")

    tab.goto(f"{live.http}/#/c/{family.root}/at/first")
    expect(tab.locator("h1")).to_have_text("Move first is not part of this campaign")

    tab.goto(f"{live.http}/#/c/no-such-campaign/at/3")
    expect(tab.locator("h1")).to_have_text("Move 3 of this campaign cannot be shown")
    expect(tab.get_by_role("alert")).not_to_be_empty()

    hidden = create(live, "gil-ennis", seed=4, private=True)
    tab.goto(f"{live.http}/#/c/{hidden['id']}/at/2")
    expect(tab.locator("h1")).to_have_text("Move 2 of this campaign cannot be shown")
    expect(tab.get_by_role("alert")).not_to_be_empty()
    expect(tab.locator(".board-slot")).to_have_count(0)
    tab.goto(f"{live.http}/#/c/{hidden['id']}/family")
    expect(tab.locator("h1")).to_have_text("This family tree cannot be shown")
    expect(tab.locator(".tree")).to_have_count(0)


# -- at a phone's size and a laptop's --------------------------------------------------------------


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_new_views_fit_and_pass_axe(
    live: Live, family: Family, browser: Browser, problems: Problems, size: str
) -> None:
    context = browser.new_context(viewport=PHONE if size == "phone" else LAPTOP)  # type: ignore[arg-type]
    try:
        page = problems.watch(context.new_page())
        open_family(page, live, family)
        box = page.locator(".tree-box")
        if size == "phone":
            # the lanes are wider than the phone: they scroll inside their box, not the page
            assert box.evaluate("node => node.scrollWidth > node.clientWidth")
        check_page(page, "lineage-family")
        page.locator("#compare-a").select_option(family.grandchild)
        page.get_by_role("button", name="Compare", exact=True).click()
        expect(page.locator(".compare-board .board")).to_have_count(2)
        page.locator(".compare-boards").scroll_into_view_if_needed()
        check_page(page, "lineage-compare")
        page.goto(f"{live.http}/#/c/{family.fork}/at/{family.fork_first}")
        at_moment(page, live, family.fork, family.fork_first, family.fork_head, "a spectator")
        check_page(page, "lineage-moment")
    finally:
        context.close()
