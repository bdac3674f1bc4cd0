"""Eila's board in a real browser, chapter by chapter: chapter 2's quiz card and combat as they come
up in play, chapter 3's mine map with the Eila & Leo token and its face-down tiles, and nothing
the player may not see (the upcoming deck's order, undrawn quiz cards, the quiz answers, face-down
map tiles) anywhere in the page; the night's submissions counted down only where the chapter
limits them; chapter 4's markets and chapter 5's trail as their campaigns set them up, and their
buttons (which come up only at some cards' options) on views shaped by the view's own types."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from playwright.sync_api import Page, expect

from domain.eila import GAME
from domain.eila.state import EilaState
from domain.eila.view_areas import ElementArea, HeldCard, LocationView, MarketView
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running
from tests.web.conftest import create, open_as, screenshot, version_of

ROOT = Path(__file__).resolve().parents[2]
MOST_CLICKS = 40
"""Chapter 2 seeded below reaches a quiz card in a few actions and a combat in about twenty."""
EXPLORED = 4
"""Face-up tiles for the mine's screenshot: the entrance and three found by exploring."""
QUIET = ("abandon", "discard", "convert", "answer", "use")


class Table:
    """A live server on an in-memory store the test can look behind, for what the page must not
    show."""

    def __init__(self, live: Live, store: MemoryStore) -> None:
        self.live = live
        self.store = store

    def hidden_state(self, campaign: str) -> EilaState:
        """The campaign's whole state, secrets included, read from the store on a loop of its own
        (the server's loop runs in another thread)."""

        async def read() -> Any:
            return (await CampaignService(self.store).state_at(campaign))[1]

        with ThreadPoolExecutor(1) as pool:
            state: EilaState = pool.submit(asyncio.run, read()).result()
        return state

    def seat_state(self, created: dict[str, Any]) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {created['seats']['player']}"}
        url = f"{self.live.http}/api/campaigns/{created['id']}/state"
        answer: dict[str, Any] = httpx.get(url, headers=headers, timeout=10).json()
        return answer


@pytest.fixture
def table() -> Iterator[Table]:
    store = MemoryStore()
    with running(create_app(CampaignService(store, fresh=Reproducible()))) as live:
        yield Table(live, store)


def choose(buttons: list[list[str]]) -> str:
    """The action a steady player takes: draw a quiz card or fight when offered, else the first
    choice on the board that is not a side action."""
    for action, label in buttons:
        if "quiz card" in label or action in ("roll", "fight"):
            return action
    for action, _ in buttons:
        if not action.startswith(QUIET):
            return action
    return buttons[0][0]


def play_until(page: Page, reached: Callable[[], bool]) -> None:
    """Click legal actions on the board until ``reached``, at most :data:`MOST_CLICKS` times."""
    for _ in range(MOST_CLICKS):
        if reached():
            return
        enabled = page.locator("button.action:not([disabled])")
        expect(enabled.first).to_be_attached()  # not while the last action is still on its way
        buttons = enabled.evaluate_all("bs => bs.map(b => [b.dataset.action, b.textContent])")
        action = choose(buttons)
        button = page.locator(f'button.action[data-action="{action}"]').first
        group = page.locator("details.action-group", has=button)
        if group.count() and not group.first.evaluate("node => node.open"):
            group.first.locator("summary").click()
        version = version_of(page)
        button.click()
        expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(version))
    assert reached(), f"not reached in {MOST_CLICKS} clicks"


def assert_nothing_hidden(page: Page, table: Table, created: dict[str, Any]) -> None:
    state = table.hidden_state(created["id"])
    view = table.seat_state(created)["view"]
    shown = json.dumps(view)
    text = page.locator("body").inner_text()
    html = page.content()
    unseen = state.upcoming[state.known_on_top : len(state.upcoming) - state.known_at_bottom]
    names = {GAME.pack.card(number, state.mode).name for number in unseen}
    for name in names - {n for n in names if n in shown}:
        assert name not in text, f"{name!r} lies unseen in the upcoming deck, yet the page shows it"
    for _, deck in state.quiz_decks:
        for quiz in deck:
            question = GAME.pack.quizzes[quiz].question
            assert question not in html, f"{quiz} is undrawn, yet the page asks {question!r}"
    assert page.locator("[data-answer], [data-correct], .correct").count() == 0
    for quiz in state.quiz_open:
        answers = page.locator(f'.quiz-card[data-quiz="{quiz}"] button.action')
        classes = answers.evaluate_all("bs => bs.map(b => b.className)")
        assert len(set(classes)) <= 1, "the answer buttons look alike whatever the key says"
    if state.mine is not None:
        mine = GAME.pack.chapters[state.chapter].mine
        assert mine is not None
        for slot, tile in enumerate(state.mine.tiles):
            if slot not in state.mine.face_up:
                assert mine.tiles[tile].name not in html, f"face-down {tile} shows its name"
                assert f'data-tile="{tile}"' not in html, f"face-down {tile} shows its id"


def test_chapter_two_shows_the_quiz_card_and_the_combat_as_they_come_up(
    table: Table, page: Page
) -> None:
    created = create(table.live, "eila", options={"chapter": 2}, seed=3)
    open_as(page, table.live, created["id"], "player", created["seats"]["player"])
    board = page.locator(".board-eila")
    expect(board.locator(".chapter-head h2")).to_contain_text("Chapter 2")
    decks = board.locator(".quiz-area .deck-quiz")
    expect(decks).to_have_count(2)

    quiz = board.locator(".quiz-card")
    play_until(page, lambda: quiz.count() > 0)
    view = table.seat_state(created)["view"]
    drawn = view["chapter_element_area"]["quizzes_open"][0]
    card = board.locator(f'.quiz-card[data-quiz="{drawn["id"]}"]')
    expect(card.locator(".quiz-question")).to_have_text(drawn["question"])
    expect(card.locator(".quiz-reward")).to_contain_text(drawn["reward"])
    answers = card.locator("button.action")
    expect(answers).to_have_count(len(drawn["choices"]))
    for choice in drawn["choices"]:
        answer = f"answer:{drawn['id']}:{choice['letter']}"
        expect(card.locator(f'button.action[data-action="{answer}"]')).to_contain_text(
            choice["text"]
        )
    assert_nothing_hidden(page, table, created)

    combat = board.locator(".combat")
    play_until(page, lambda: combat.locator(".combat-die .die:not(.die-empty)").count() > 0)
    view = table.seat_state(created)["view"]
    fight = view["combat"]
    expect(combat.locator(".enemy-card h3")).to_have_text(fight["enemy_name"])
    expect(combat.locator(".enemy-value strong")).to_have_text(str(fight["enemy_value"]))
    red = next(die for die in fight["rolled"] if die["die"] == "red")
    expect(combat.locator('[data-die="combat.red"]')).to_have_attribute(
        "data-value", str(red["value"])
    )
    expect(combat.locator(".combat-value")).to_have_text(str(fight["combat_value"]))
    expect(combat.locator(".energy-spent")).to_have_text(str(fight["energy_spent"]))
    expect(combat.locator('button.action[data-action="fight"]')).to_contain_text(
        f"Fight with combat value {fight['combat_value']}"
    )
    expect(board.locator(".item-support-area")).to_contain_text("Eila's red die")
    assert_nothing_hidden(page, table, created)
    screenshot(page, "eila-factory")

    # chapter 2 sets no limit to the night's submissions: the goal card counts none down
    play_until(page, lambda: page.locator(".board-eila.phase-night").count() > 0)
    assert table.seat_state(created)["view"]["night_submissions_left"] is None
    expect(board.locator(".goal button.action", has_text="End the night")).to_be_visible()
    expect(board.locator(".submissions-left")).to_have_count(0)


def test_a_chapter_with_a_limit_counts_the_nights_submissions_down(
    table: Table, page: Page
) -> None:
    created = create(table.live, "eila", options={"chapter": 0}, seed=21)
    open_as(page, table.live, created["id"], "player", created["seats"]["player"])
    play_until(page, lambda: page.locator(".board-eila.phase-night").count() > 0)
    left = table.seat_state(created)["view"]["night_submissions_left"]
    assert left == 2
    expect(page.locator(".goal .submissions-left")).to_have_text("2 submissions left tonight")


def test_chapter_three_draws_the_mine_with_the_token_and_face_down_tiles(
    table: Table, page: Page
) -> None:
    created = create(table.live, "eila", options={"chapter": 3}, seed=6)
    open_as(page, table.live, created["id"], "player", created["seats"]["player"])
    board = page.locator(".board-eila")
    mine = board.locator(".mine-map")
    expect(mine).to_be_visible()
    view = table.seat_state(created)["view"]
    laid = view["chapter_element_area"]["mine"]
    down = [tile for tile in laid["tiles"] if not tile["face_up"]]
    assert down, "the mine starts with tiles face down"
    expect(mine.locator(".mine-tile.face-down")).to_have_count(len(down))
    expect(mine.locator(".mine-tile.face-up")).to_have_count(len(laid["tiles"]) - len(down))
    expect(mine.locator(".mine-grid")).to_have_count(len(laid["grids"]))
    events = view["chapter_element_area"]["location_deck_count"]
    expect(board.locator(".location-events")).to_have_text(
        f"{events} location event cards face down"
    )
    token = mine.locator(".mine-token")
    expect(token).to_have_attribute("data-x", str(laid["token"][0]))
    expect(token).to_have_attribute("data-y", str(laid["token"][1]))
    assert_nothing_hidden(page, table, created)

    # exploring: the steps are buttons on the grids they lead to, and a step moves the token
    play_until(page, lambda: board.locator(".mine-move button.action").count() > 0)
    move = board.locator(".mine-move button.action").first
    direction = move.get_attribute("data-action") or ""
    assert re.match(r"^step:(north|east|south|west):", direction)
    before = table.seat_state(created)["view"]["chapter_element_area"]["mine"]["token"]
    version = version_of(page)
    move.click()
    expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(version))
    after = table.seat_state(created)["view"]["chapter_element_area"]["mine"]
    assert after["token"] != before or len(after["grids"]) > len(laid["grids"])
    expect(token).to_have_attribute("data-x", str(after["token"][0]))
    expect(token).to_have_attribute("data-y", str(after["token"][1]))
    expect(mine.locator(".mine-grid")).to_have_count(len(after["grids"]))
    assert_nothing_hidden(page, table, created)

    # deeper in: more tiles turned face up, their walls, cliffs and dark grids drawn
    play_until(
        page,
        lambda: (
            mine.locator(".mine-tile.face-up").count() >= EXPLORED
            and board.locator(".mine-move button.action").count() > 0
        ),
    )
    laid = table.seat_state(created)["view"]["chapter_element_area"]["mine"]
    sides = [side for grid in laid["grids"] for side in grid["sides"] if side != "open"]
    expect(mine.locator(".mine-side")).to_have_count(len(sides))
    expect(mine.locator(".mine-grid.dark")).to_have_count(sum(g["dark"] for g in laid["grids"]))
    expect(mine.locator(".cover-token")).to_have_count(sum(g["covered"] for g in laid["grids"]))
    assert_nothing_hidden(page, table, created)
    screenshot(page, "eila-mine")

    # a spectator sees the same mine, with no steps to take and nothing more
    page.goto(f"{table.live.http}/#/c/{created['id']}/watch")
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "")
    expect(mine.locator(".mine-tile.face-up")).to_have_count(
        sum(t["face_up"] for t in laid["tiles"])
    )
    expect(page.locator("button.action")).to_have_count(0)
    assert_nothing_hidden(page, table, created)


RENDER = """async ([view, content, actions]) => {
  const board = await import("/boards/eila.js");
  const { ActionSink } = await import("/boards/common.js");
  window.acted = [];
  const sink = new ActionSink(actions, { act: (id) => window.acted.push(id), busy: false });
  const slot = document.createElement("div");
  slot.className = "board-slot drawn-here";
  slot.append(board.render({ view, content, sink, memory: new Map(), live: true }));
  document.querySelector("#app").hidden = true;
  document.body.append(slot);
  return sink.left.map((action) => action.id);
}"""


def test_a_chapter_four_campaign_lays_out_its_markets_face_up(table: Table, page: Page) -> None:
    created = create(table.live, "eila", options={"chapter": 4}, seed=6)
    open_as(page, table.live, created["id"], "player", created["seats"]["player"])
    markets = table.seat_state(created)["view"]["chapter_element_area"]["markets"]
    assert [m["name"] for m in markets] == ["contracts", "privileges"]
    board = page.locator(".board-eila .chapter-element-area")
    for market in markets:
        shown = board.locator(f'.market[data-market="{market["name"]}"]')
        assert len(market["cards"]) == 5, "five of each drawn at set-up"
        expect(shown.locator(".market-card")).to_have_count(5)
        for card in market["cards"]:
            expect(shown.locator(f'.market-card[data-card="{card["id"]}"]')).to_contain_text(
                card["name"]
            )
    state = table.hidden_state(created["id"])
    drawn = {n for _, cards in state.markets for n in cards}
    pack = GAME.pack.chapters[4]
    out_of_play = {c for m in pack.markets for c in m.cards} - drawn
    text = page.locator("body").inner_text()
    for number in out_of_play:
        assert GAME.pack.cards[number].name not in text, f"{number} is out of play, yet shown"
    assert_nothing_hidden(page, table, created)


def test_a_chapter_five_campaign_shows_its_first_location(table: Table, page: Page) -> None:
    created = create(table.live, "eila", options={"chapter": 5}, seed=6)
    open_as(page, table.live, created["id"], "player", created["seats"]["player"])
    area = table.seat_state(created)["view"]["chapter_element_area"]
    assert area["trail"] == ["L01"] and area["location"]["number"] == "L01"
    card = page.locator('.board-eila .eila-trail .location-card[data-location="L01"]')
    expect(card).to_contain_text(area["location"]["name"])
    expect(card.locator(".location-actions li")).to_have_count(len(area["location"]["actions"]))
    assert_nothing_hidden(page, table, created)


def element_area(**fields: Any) -> dict[str, Any]:
    empty = ElementArea(
        quiz_decks=(),
        quizzes_open=(),
        quizzes_turned_over=(),
        mine=None,
        location_deck_count=0,
        markets=(),
        location=None,
        trail=(),
    )
    built: dict[str, Any] = msgspec.to_builtins(msgspec.structs.replace(empty, **fields))
    return built


def draw(page: Page, table: Table, view: dict[str, Any], actions: list[dict[str, str]]) -> None:
    """Draw ``view`` with the board module itself, in a page of the real client, with an ``act``
    that records the ids clicked; every action must find its place on the board."""
    content = httpx.get(f"{table.live.http}/api/games/eila/content", timeout=10).json()
    page.goto(f"{table.live.http}/")
    expect(page.locator("form.game-card").first).to_be_visible()
    left = page.evaluate(RENDER, [view, content, actions])
    assert left == [], f"actions with no place on the board: {left}"


def acted(page: Page) -> list[str]:
    ids: list[str] = page.evaluate("window.acted")
    return ids


def test_chapter_four_markets_show_their_cards_prices_and_buy_buttons(
    table: Table, page: Page
) -> None:
    # buying comes up only at the Opportunities card: its view, shaped by the view's own types
    created = create(table.live, "eila", options={"chapter": 2}, seed=3)
    contracts = MarketView(
        "contracts",
        "Contracts",
        (("knowledge", 1),),
        (
            HeldCard("C03", "Night Watch", "Each night, +1 Coin."),
            HeldCard("C07", "Courier Work", "+2 Coin when you move."),
        ),
    )
    privileges = MarketView(
        "privileges",
        "Privileges",
        (("coin", 3),),
        (HeldCard("P02", "Library Pass", "+1 Knowledge."),),
    )
    view = table.seat_state(created)["view"]
    view["chapter_element_area"] = element_area(markets=(contracts, privileges))
    actions = [
        {"id": "buy:C07", "label": "Buy C07 (Courier Work)"},
        {"id": "buy:P02", "label": "Buy P02 (Library Pass)"},
        {"id": "stop_buying", "label": "Stop buying"},
    ]
    draw(page, table, view, actions)
    board = page.locator(".drawn-here .chapter-element-area")
    market = board.locator('.market[data-market="contracts"]')
    expect(market.locator(".market-card")).to_have_count(2)
    expect(market.locator(".market-price")).to_contain_text("1 Knowledge")
    expect(board.locator('.market[data-market="privileges"] .market-price')).to_contain_text(
        "3 Coin"
    )
    expect(market.locator('.market-card[data-card="C03"]')).to_contain_text("Night Watch")
    expect(market.locator('.market-card[data-card="C03"] button.action')).to_have_count(0)
    market.locator('.market-card[data-card="C07"] button.action').click()
    board.get_by_role("button", name="Stop buying").click()
    assert acted(page) == ["buy:C07", "stop_buying"]
    screenshot(page, "eila-markets")


def test_chapter_five_trail_shows_the_location_card_its_shelter_and_actions(
    table: Table, page: Page
) -> None:
    created = create(table.live, "eila", options={"chapter": 2}, seed=3)
    location = LocationView(
        "L03",
        "The Frozen Lake",
        "The ice groans under every step.",
        True,
        ("A: Cross the ice (+1 Fear, to the next location)", "B: Stay in the shelter (+1 Energy)"),
    )
    view = table.seat_state(created)["view"]
    view["chapter_element_area"] = element_area(
        location=location, trail=("L01", "L02", "L03"), location_deck_count=7
    )
    actions = [
        {"id": "location_action:A", "label": "Location action " + location.actions[0]},
        {"id": "location_action:", "label": "Take no location action"},
    ]
    draw(page, table, view, actions)
    trail = page.locator(".drawn-here .eila-trail")
    card = trail.locator('.location-card[data-location="L03"]')
    expect(card.locator("h3")).to_have_text("The Frozen Lake")
    expect(card.locator(".shelter-chip")).to_be_visible()
    expect(card.locator(".location-actions li")).to_have_count(2)
    expect(card.locator(".location-actions li").nth(1)).to_have_text(location.actions[1])
    expect(trail.locator(".trail-past .trail-card")).to_have_count(2)
    expect(trail).to_contain_text("Location deck: 7 cards face down")
    card.locator('button.action[data-action="location_action:A"]').click()
    card.get_by_role("button", name="Take no location action").click()
    assert acted(page) == ["location_action:A", "location_action:"]
