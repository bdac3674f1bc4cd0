"""The Machina board in a real browser: an expedition of two explorers created in the lobby, played
by clicking on the map and the board in two browsers (the partner joins by the invite link); the
grid, the explorers, the monsters, the chapter card, the sliders and the clock follow the view,
and nothing face down reaches the page."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from playwright.sync_api import Browser, Page, expect

from domain.core.engine import evolve
from domain.machina import GAME
from domain.machina.content_load import CONTENT
from domain.machina.state import MachinaState
from tests.recorded import streams
from tests.server.conftest import Live
from tests.web.conftest import VIEWPORT, Problems, create, open_as, screenshot, version_of
from tests.web.test_layout import machina_monsters, play

SEED = 31
MOST_ROUNDS = 12
"""Rounds of ending turns before the test gives up waiting for a monster (the Gatehouse spawns one
on a die roll of 5 or more each round)."""


def _clicked(page: Page, button: Any) -> None:
    """Click an action button and wait until the page shows a later version."""
    version = version_of(page)
    button.click()
    expect(page.locator(".campaign-status")).not_to_have_attribute("data-version", str(version))


def _view(server: Live, campaign: str) -> dict[str, Any]:
    state = httpx.get(f"{server.http}/api/campaigns/{campaign}/state", timeout=10).json()
    view: dict[str, Any] = state["view"]
    return view


def test_an_expedition_of_two_is_drawn_and_played_by_clicking(
    server: Live, page: Page, browser: Browser, problems: Problems
) -> None:
    frames: list[dict[str, Any]] = []
    page.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda data: frames.append(json.loads(data))),
    )
    page.goto(server.http + "/")
    form = page.locator('form.game-card[data-game="machina"]')
    form.locator('input[name="seed"]').fill(str(SEED))
    form.locator('select[name="layout"]').select_option(index=1)  # ada and bram
    form.locator('button[type="submit"]').click()
    expect(page.locator(".campaign-status")).to_have_attribute("data-seat", "ada")
    campaign = re.search(r"#/c/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]

    board = page.locator(".board-machina")
    expect(board.locator("svg.machina-grid")).to_be_visible()
    expect(board.locator(".m-tile")).to_have_count(1)
    expect(board.locator('.m-tile[data-tile="gatehouse"]')).to_have_count(1)
    expect(board.locator(".explorer-token")).to_have_count(2)
    expect(board.locator(".explorer-card")).to_have_count(2)
    expect(board.locator(".chapter-card h3")).to_have_text("The Gatehouse")
    expect(board.locator(".chapter-card .chapter-kind")).to_have_text("Regular chapter")
    expect(board.locator(".rating-slider")).to_have_count(2)
    expect(board.locator(".slider-spawn")).to_have_attribute("data-rating", "5")
    expect(board.locator(".slider-horror")).to_have_attribute("data-rating", "6")
    expect(board.locator(".clock-text")).to_contain_text("0 of 80 · 80 rounds left")
    ada = board.locator('.explorer-card[data-explorer="ada"]')
    expect(ada.locator(".stamina-value")).to_have_text("4/4")
    expect(ada.locator('.item.equipped[data-item="spanner"]')).to_contain_text("Heavy Spanner")
    bram = board.locator('.explorer-card[data-explorer="bram"]')
    expect(bram.locator('[data-item="lamp-pistol"] .charges')).to_have_text("4/4")
    expect(board.locator(".machina-deck")).to_have_count(5)

    # ada walks by clicking a space next to her on the map
    moves = board.locator("button.on-space.move-here")
    expect(moves.first).to_be_visible()
    _clicked(page, moves.first)
    expect(ada.locator(".stamina-value")).to_have_text("3/4")
    expect(page.locator(".recent li.new").first).to_contain_text("Ada")

    # the partner joins bram's seat by the invite link, in a browser of their own
    link = page.locator('.invite-link[data-seat="bram"]').input_value()
    partner_context = browser.new_context(viewport=VIEWPORT)  # type: ignore[arg-type]
    try:
        partner = problems.watch(partner_context.new_page())
        partner.goto(link)
        expect(partner.locator(".campaign-status")).to_have_attribute("data-seat", "bram")
        bram_moves = partner.locator(".board-machina button.on-space.move-here")
        expect(bram_moves.first).to_be_visible()
        _clicked(partner, bram_moves.first)
        expect(partner.locator('.explorer-card[data-explorer="bram"] .stamina-value')).to_have_text(
            "3/4"
        )
        expect(bram.locator(".stamina-value")).to_have_text("3/4")

        # both end their turns, round after round, until a monster is on the map
        for _ in range(MOST_ROUNDS):
            for player in (page, partner):
                end = player.locator('.board-machina button.action[data-action="end-turn"]')
                _clicked(player, end)
            expect(page.locator(".campaign-status")).to_have_attribute(
                "data-version", str(version_of(partner))
            )
            if _view(server, campaign)["monsters"]:
                break
    finally:
        partner_context.close()

    view = _view(server, campaign)
    assert view["monsters"], f"no monster appeared in {MOST_ROUNDS} rounds"
    expect(board.locator(".monster-token")).to_have_count(len(view["monsters"]))
    rows = board.locator(".machina-monsters .monster")
    expect(rows).to_have_count(len(view["monsters"]))
    first = view["monsters"][0]
    expect(rows.first).to_contain_text(first["name"])
    expect(rows.first).to_contain_text(f"health {first['health']}/{first['max_health']}")
    expect(board.locator(".clock-text")).to_contain_text(f"{view['clock']} of 80")
    expect(board.locator(".chapter-head")).to_contain_text(f"Round {view['round']}")
    screenshot(page, "machina-board")

    # nothing face down: no card of a deck by name, and no deck order on the wire
    in_play = {tile["tile"] for tile in view["tiles"]}
    hidden = [tile.name for key, tile in CONTENT.map_tiles.items() if key not in in_play]
    seen_items = {item["card"] for item in view["items"]} | set(view["item_discard"])
    hidden += [item.name for key, item in CONTENT.items.items() if key not in seen_items]
    upcoming = [c.title for c in CONTENT.scenario.chapters if c.id != "gates"]
    hidden += upcoming if view["chapter"]["id"] == "gates" else []
    hidden += [h.name for key, h in CONTENT.horrors.items() if key not in view["horror_discard"]]
    text = page.locator("body").inner_text()
    for name in hidden:
        assert name not in text, f"{name!r} is face down, yet the page shows it"
    for message in frames:
        for seen in message.get("events", []) + message.get("missed", []):
            assert not seen["event"].get("order"), "the deck order never leaves the server"


def _recorded_states(scenario: str) -> Iterator[MachinaState]:
    """The state after every event of a recorded expedition, from the end of set-up on."""
    recording = next(
        r
        for _, r in streams.recordings()
        if (r.game, r.scenario, r.ruleset) == ("machina", scenario, GAME.info.ruleset)
    )
    state = None
    for _, event in streams.decoded(GAME, recording):
        state = evolve(GAME, state, event)
        if state.phase != "setup":
            yield state


def _recorded_views(scenario: str, seat: str) -> list[dict[str, Any]]:
    """The view ``seat`` had after every event of a recorded expedition, set-up to the end."""
    return [msgspec.to_builtins(GAME.view(state, seat)) for state in _recorded_states(scenario)]


def test_every_view_of_recorded_expeditions_is_drawn(server: Live, page: Page) -> None:
    """Every phase the board can meet (placing a chapter tile, an Eternity chapter, the endgame,
    explorers out, the end) is drawn without an error, with each tile and unit in its place."""
    page.goto(server.http + "/")
    expect(page.locator("form.game-card")).not_to_have_count(0)
    for scenario in ("duo-heuristic", "trio-random"):
        views = _recorded_views(scenario, "ada")
        phases = {view["phase"] for view in views}
        assert {"placing", "explorers", "over"} <= phases, phases
        problems = page.evaluate(
            """async (views) => {
              const board = await import("/boards/machina.js");
              const { ActionSink } = await import("/boards/common.js");
              const found = [];
              views.forEach((view, i) => {
                try {
                  const node = board.render({ view, seat: "ada", seats: view.seats, content: {},
                    info: null, sink: new ActionSink([], { act: null, busy: false }),
                    memory: new Map(), live: true });
                  const on = (selector) => node.querySelectorAll(selector).length;
                  const units = view.explorers.filter((e) => e.status === "map").length;
                  if (on(".m-tile") !== view.tiles.length) found.push(`${i}: tiles`);
                  if (on(".explorer-token") !== units) found.push(`${i}: explorers`);
                  if (on(".monster-token") !== view.monsters.length) found.push(`${i}: monsters`);
                  if (on(".rating-slider") !== 2) found.push(`${i}: sliders`);
                } catch (error) {
                  found.push(`${i}: ${error}`);
                }
              });
              return found;
            }""",
            views,
        )
        assert problems == [], f"{scenario}: {problems[:5]}"


def _recorded_choices(scenario: str, seat: str, tags: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each view of a recorded expedition at which ``seat`` may take an action tagged one of
    ``tags``, with all of that seat's legal actions then."""
    found = []
    for state in _recorded_states(scenario):
        legal = [{"id": a.id, "label": a.label} for a in GAME.legal_actions(state, seat)]
        if any(action["id"].split(":")[0] in tags for action in legal):
            found.append({"view": msgspec.to_builtins(GAME.view(state, seat)), "legal": legal})
    return found


def test_exploring_and_connecting_a_tile_are_buttons_on_the_sides_they_go_through(
    server: Live, page: Page
) -> None:
    """Every explore and place-tile action of two recorded expeditions is a button across the
    middle of the side of the tile it names (the explorer's own tile when exploring, the anchor
    when connecting), laid out in the browser where that side is drawn."""
    page.goto(server.http + "/")
    expect(page.locator("form.game-card")).not_to_have_count(0)
    for scenario in ("duo-heuristic", "trio-random"):
        choices = _recorded_choices(scenario, "ada", ("explore", "place-tile"))
        assert any(c["view"]["phase"] == "placing" for c in choices), scenario
        assert any(c["view"]["phase"] == "explorers" for c in choices), scenario
        problems = page.evaluate(
            """async (choices) => {
              const board = await import("/boards/machina.js");
              const { ActionSink } = await import("/boards/common.js");
              const found = [];
              choices.forEach(({ view, legal }, i) => {
                const node = board.render({ view, seat: "ada", seats: view.seats, content: {},
                  info: null, sink: new ActionSink(legal, { act: null, busy: false }),
                  memory: new Map(), live: true });
                document.body.replaceChildren(node);
                const me = view.explorers.find((who) => who.id === "ada");
                const byOrder = new Map(view.tiles.map((tile) => [String(tile.order), tile]));
                for (const action of legal) {
                  const [tag, ...rest] = action.id.split(":");
                  if (tag !== "explore" && tag !== "place-tile") continue;
                  const side = tag === "explore" ? rest[0] : rest[1];
                  const tile = tag === "explore"
                    ? view.tiles.find((t) => me.x >= t.x && me.x < t.x + t.width
                        && me.y >= t.y && me.y < t.y + t.height)
                    : byOrder.get(rest[0]);
                  const button = node.querySelector(`button.on-side[data-action="${action.id}"]`);
                  if (!button) { found.push(`${i}: ${action.id} is not on the map`); continue; }
                  const { tile: onTile, side: onSide } = button.dataset;
                  if (onTile !== tile.tile || onSide !== side) {
                    found.push(`${i}: ${action.id} is on ${onTile}/${onSide}`);
                  }
                  const drawn = node
                    .querySelector(`.m-tile[data-tile="${tile.tile}"] rect.tile-ground`)
                    .getBoundingClientRect();
                  const box = button.getBoundingClientRect();
                  const [x, y] = [box.left + box.width / 2, box.top + box.height / 2];
                  const middle = {
                    n: [drawn.left + drawn.width / 2, drawn.top],
                    s: [drawn.left + drawn.width / 2, drawn.bottom],
                    w: [drawn.left, drawn.top + drawn.height / 2],
                    e: [drawn.right, drawn.top + drawn.height / 2],
                  }[side];
                  if (Math.abs(x - middle[0]) > 2 || Math.abs(y - middle[1]) > 2) {
                    found.push(`${i}: ${action.id} at ${x},${y}, its side's middle at ${middle}`);
                  }
                  if (node.querySelectorAll(`[data-action="${action.id}"]`).length !== 1) {
                    found.push(`${i}: ${action.id} is offered twice`);
                  }
                }
              });
              document.body.replaceChildren();
              return found;
            }""",
            choices,
        )
        assert problems == [], f"{scenario}: {problems[:5]}"


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)])
def test_the_map_labels_the_coordinates_the_hints_and_moves_name(
    server: Live, browser: Browser, problems: Problems, size: tuple[int, int]
) -> None:
    created = create(server, "machina", seed=1, seats=["ada", "bram"])
    seat = play(server, created, 1, machina_monsters)
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = problems.watch(context.new_page())
        open_as(page, server, seat.campaign, seat.seat, seat.token)
        view = _view(server, seat.campaign)
        columns = max(len(row) for row in view["map"])
        xs = [str(view["map_x"] + c) for c in range(columns)]
        ys = [str(view["map_y"] + r) for r in range(len(view["map"]))]
        labels = page.locator(".machina-grid .coords text.coord")
        expect(labels).to_have_text(xs + ys)
        # every space a move or a unit is named by ("Move north to 1,0", "at 3,-2") is labelled
        state = httpx.get(
            f"{server.http}/api/campaigns/{seat.campaign}/state",
            headers={"Authorization": f"Bearer {seat.token}"},
            timeout=10,
        ).json()
        named = [
            match.groups()
            for action in state["legal_actions"]
            for match in re.finditer(r"(-?\d+),(-?\d+)", action["label"])
        ]
        units = [(str(m["x"]), str(m["y"])) for m in view["monsters"]]
        for x, y in named + units:
            assert x in xs and y in ys, (x, y)
        expect(page.locator(".grid-legend")).to_contain_text("a space is named x,y")
        screenshot(page, f"machina-coordinates-{size[0]}")
    finally:
        context.close()
