"""Eila's terminal board draws each chapter's element from the view as it comes over the wire: a
combat, chapter 2's quiz card, chapter 3's mine as a text map, chapter 4's markets and chapter 5's
trail (those two from views built with the view's own types: their content may not be in the
box yet)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import msgspec

from clients.screens import board
from clients.terminal import play, start
from domain.eila import GAME
from domain.eila.actions import Abandon
from domain.eila.box import box
from domain.eila.view_areas import ElementArea, HeldCard, LocationView, MarketView
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.domain.eila.helpers import Table
from tests.server.conftest import Reproducible, running

CONTENT: dict[str, Any] = msgspec.to_builtins(box(GAME.pack))
MOST_ACTIONS = 120


def played(chapter: int, seed: int, reached: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The seat's view (as JSON gives it) once ``reached``, playing a steady line: draw quiz cards
    and roll when offered, else the first legal choice."""
    table = Table(GAME, seed=seed, chapter=chapter)
    for _ in range(MOST_ACTIONS):
        view: dict[str, Any] = msgspec.to_builtins(GAME.view(table.state, "player"))
        if reached(view):
            return view
        legal = [la for la in table.legal() if not isinstance(la.action, Abandon)]
        eager = [la for la in legal if "quiz card" in la.label or la.id == "roll"]
        table.apply(GAME.decide(table.state, "player", (eager or legal)[0].action))
    raise AssertionError(f"not reached in {MOST_ACTIONS} actions")


def screen(view: dict[str, Any]) -> str:
    return "\n".join(board("eila", view, CONTENT, "player"))


def test_a_drawn_quiz_card_shows_its_question_choices_and_reward_never_its_answer() -> None:
    view = played(2, 1, lambda v: bool(v["chapter_element_area"]["quizzes_open"]))
    text = screen(view)
    quiz = view["chapter_element_area"]["quizzes_open"][0]
    card = GAME.pack.quizzes[quiz["id"]]
    assert re.search(r"Quiz\s+AQ deck \d+, EQ deck \d+ face down", text)
    assert quiz["question"] in text.replace("\n            ", " ")
    for letter, choice in card.choices:
        assert f"{letter}) {choice}" in text.replace("\n            ", " ")
    assert f"Reward: {card.reward_text}" in text.replace("\n            ", " ")
    assert "answer" not in text.lower()
    assert "Chapter element area" not in text, "the element area is drawn, not dumped"


def test_a_combat_shows_the_enemy_the_dice_and_the_sum_against_it() -> None:
    view = played(2, 1, lambda v: bool(v["combat"] and v["combat"]["rolled"]))
    fight = view["combat"]
    red = fight["rolled"][0]
    text = screen(view)
    assert f"Combat    {fight['enemy_name']} ({fight['enemy']}): combat value " in text
    assert f"red die [{red['value']}]" in text
    assert f"Energy spent {fight['energy_spent']}" in text
    total = f"= {fight['combat_value']} vs {fight['enemy_value']}"
    assert total in text
    assert "Dice      Eila's red die" in text


def test_the_mine_is_a_text_map_with_the_token_and_face_down_tiles() -> None:
    view = played(
        3, 4, lambda v: sum(t["face_up"] for t in v["chapter_element_area"]["mine"]["tiles"]) >= 3
    )
    mine = view["chapter_element_area"]["mine"]
    lines = board("eila", view, CONTENT, "player")
    start = next(i for i, line in enumerate(lines) if line.startswith("            +"))
    drawn = lines[start : start + 2 * mine["rows"] + 1]
    assert all(line.startswith("            +") for line in drawn[::4]), (
        "tile corners every 2 grids"
    )
    cells = [line[12:] for line in drawn[1::2]]
    assert len(cells) == mine["rows"]
    x, y = mine["token"]
    row_of_token = cells[mine["rows"] - 1 - y]
    assert row_of_token[1 + 7 * x] == "@", "the token sits in its grid, north up"
    assert sum(line.count("@") for line in cells) == 1
    down = [t for t in mine["tiles"] if not t["face_up"]]
    assert down and all(
        cells[mine["rows"] - 1 - 2 * t["row"]][1 + 14 * t["col"] : 14 * t["col"] + 7] == "░" * 6
        for t in down
    )
    for grid in mine["grids"]:
        if grid["location"]:
            assert grid["location"] in cells[mine["rows"] - 1 - grid["y"]]
    for tile in GAME.pack.chapters[3].mine.tiles.values():  # type: ignore[union-attr]
        if tile.id not in {t["tile"] for t in mine["tiles"]}:
            assert tile.name not in "\n".join(lines), f"face-down {tile.id} shows its name"
    assert "# wall  ~ cliff  = hidden passage" in "\n".join(lines)


def element_area(**fields: Any) -> dict[str, Any]:
    empty = ElementArea((), (), (), None, 0, (), None, ())
    built: dict[str, Any] = msgspec.to_builtins(msgspec.structs.replace(empty, **fields))
    return built


def test_markets_and_the_trail_show_their_cards_prices_and_location() -> None:
    view = played(2, 1, lambda v: True)
    contracts = MarketView(
        "contracts", "Contracts", (("knowledge", 1),), (HeldCard("C03", "Night Watch", "."),)
    )
    privileges = MarketView("privileges", "Privileges", (("coin", 3),), ())
    location = LocationView("L03", "The Frozen Lake", "Ice.", True, ("A: Cross (+1 Fear)",))
    view["chapter_element_area"] = element_area(
        markets=(contracts, privileges),
        location=location,
        trail=("L01", "L03"),
        location_deck_count=8,
    )
    text = screen(view)
    assert "Contracts each costs 1 Knowledge: C03 Night Watch" in text
    assert "Privileges each costs 3 Coin: none left" in text
    assert "Trail     L01 > L03; location deck 8 cards face down" in text
    assert "Location  L03 The Frozen Lake (shelter): Ice." in text
    assert "            A: Cross (+1 Fear)" in text


async def test_the_terminal_client_draws_the_mine_of_a_chapter_three_campaign() -> None:
    screen: list[str] = []
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as live:
        options = {"chapter": 3}
        campaign, token = await start(
            live.http, "eila", seed=4, options=options, write=screen.append
        )
        typed = iter(["1", "q"])  # A: explore the tunnels, then quit
        await play(live.http, campaign, token, read=lambda _: next(typed), write=screen.append)
    text = "\n".join(screen)
    assert "Chapter 3: The Mine" in text
    assert re.search(r"Mine\s+1 of 9 tiles face up; Eila & Leo at grid \(0, 0\)", text)
    unwrapped = text.replace("\n            ", " ")
    assert re.search(r"; \d+ location event cards face down", unwrapped)
    assert "░░░░░░" in text and "@" in text
    assert re.search(r"^\s+\d+\. Move (north|east)", text, re.MULTILINE)
