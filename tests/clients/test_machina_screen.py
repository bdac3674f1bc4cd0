"""Machina in the terminal: the grid drawn from the view with explorers and lettered monsters on
their spaces, the chapter card, the sliders and the clock; and the board in ``tabletale play``."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pexpect
import pytest

from clients.screens import board, numbered
from clients.screens.machina import slider
from domain.bots import make_bot
from domain.core.engine import evolve
from domain.core.events import CampaignCreated
from domain.machina import GAME
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.server.conftest import Live, Reproducible, running

ROOT = Path(__file__).resolve().parents[2]
GRID_ROW = re.compile(r"^\s+(-?\d+)((?:  .)+)$")


def _expedition(until: Any, seed: int = 3) -> Any:
    """A two-explorer expedition played by the heuristic bot until ``until(state)`` holds."""
    created = CampaignCreated("machina", GAME.info.ruleset, seed, "s", ("ada", "bram"), {})
    state = evolve(GAME, None, created)
    for event in GAME.setup(state):
        state = evolve(GAME, state, event)
    bot = make_bot("heuristic", GAME, 0)
    for _ in range(400):
        if until(state) or GAME.outcome(state) != "running":
            break
        seat, choice = bot.choose(GAME, state)
        for event in GAME.decide(state, seat, choice.action):
            state = evolve(GAME, state, event)
    assert until(state), "the expedition never reached the state the test needs"
    return state


def _view(state: Any, seat: str | None = "ada") -> dict[str, Any]:
    view: dict[str, Any] = msgspec.to_builtins(GAME.view(state, seat))
    return view


def _grid(lines: list[str]) -> dict[tuple[int, int], str]:
    """The grid's cells by (x, y), read back from the screen."""
    header = next(i for i, line in enumerate(lines) if re.fullmatch(r"\s+(-?\d+\s*)+", line))
    xs = [int(x) for x in lines[header].split()]
    cells: dict[tuple[int, int], str] = {}
    for line in lines[header + 1 :]:
        found = GRID_ROW.match(line)
        if found is None:
            break
        y = int(found.group(1))
        for x, cell in zip(xs, found.group(2)[2::3], strict=False):
            cells[(x, y)] = cell
    return cells


def test_the_grid_puts_explorers_and_lettered_monsters_on_their_spaces() -> None:
    state = _expedition(lambda s: len(s.monsters) >= 1 and s.phase == "explorers")
    view = _view(state)
    lines = board("machina", view, {}, "ada")
    cells = _grid(lines)
    for number, who in enumerate(view["explorers"], start=1):
        if who["status"] == "map":
            assert cells[(who["x"], who["y"])] == str(number)
    for letter, monster in zip("abcdefgh", view["monsters"], strict=False):
        assert cells[(monster["x"], monster["y"])] == letter
        assert any(
            line.startswith(f"  {letter} monster") and monster["name"] in line for line in lines
        )
    # every other space is the view's own symbol, blank where no tile lies
    units = {(m["x"], m["y"]) for m in view["monsters"]}
    for y, text in enumerate(view["map"], start=view["map_y"]):
        for x, symbol in enumerate(text, start=view["map_x"]):
            if (x, y) not in units and symbol != " ":
                assert cells[(x, y)] == symbol


def test_the_chapter_the_clock_the_sliders_and_the_explorers_are_spelled_out() -> None:
    state = _expedition(lambda s: s.chapter == "bridge" and s.phase == "explorers")
    view = _view(state, "bram")
    text = "\n".join(board("machina", view, {}, "bram"))
    left = view["clock_limit"] - view["clock"]
    assert re.search(
        rf"The Gear Bridge \(eternity chapter\) - round \d+, explorer phase; "
        rf"clock {view['clock']} of 80 \({left} rounds left\)",
        text,
    )
    # the rating in brackets on its track, wherever it stands (the Gear Bridge starts low)
    assert re.search(rf"Spawn\s+[\d \[\]]*\[{view['spawn_rating']}\]", text)
    assert re.search(rf"Horror\s+[\d \[\]]*\[{view['horror_rating']}\]", text)
    assert re.search(r"exploring\s+is\s+prevented", text)
    assert re.search(r"2 Bram\s+you; health \d+/11, stamina \d/4, defense 5", text)
    # whatever Bram has in hand by now (the Warden may have emptied his Lamp Pistol)
    hand = next(i for i in view["items"] if i["holder"] == "bram" and i["equipped"])
    assert re.search(r"in\s+hand:\s+" + r"\s+".join(hand["name"].split()), text)
    assert "Objective Every surviving explorer leaves" in text


def test_a_slider_marks_the_rating_on_its_track() -> None:
    assert slider(3, 8) == "1 2 [3] 4 5 6 7 8"
    assert slider(9, 8).endswith("8 [9]")


def test_a_regular_chapter_shows_its_die_targets_not_sliders() -> None:
    state = _expedition(lambda s: s.chapter != "" and s.phase == "explorers")
    view = _view(state)
    assert view["chapter_kind"] == "regular"
    text = "\n".join(board("machina", view, {}, "ada"))
    assert f"a monster on a die roll of {view['spawn_rating']}+" in text
    assert "The Gatehouse (regular chapter)" in text


def test_nothing_face_down_reaches_the_screen() -> None:
    state = _expedition(lambda s: s.chapter == "bridge")
    text = "\n".join(board("machina", _view(state), {}, "ada"))
    assert "Decks     chapters 2, map tiles" in text
    for hidden in (*state.map_deck, *state.monster_deck, *state.item_deck, *state.horror_deck):
        assert hidden not in text


def test_actions_are_listed_under_their_kinds() -> None:
    state = _expedition(lambda s: s.phase == "explorers")
    view = _view(state)
    actions = [{"id": a.id, "label": a.label} for a in GAME.legal_actions(state, "ada")]
    lines = numbered("machina", view, actions)
    assert "  Move:" in lines and "  Done for the round:" in lines
    assert lines[-1].endswith("End your turn")


@pytest.fixture
def server() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as live:
        yield live


def test_tabletale_play_draws_the_machina_board(server: Live) -> None:
    command = ["-m", "cli.main", "play", "--game", "machina", "--seed", "5", "--server"]
    child = pexpect.spawn(
        sys.executable,
        [*command, server.http],
        cwd=str(ROOT),
        encoding="utf-8",
        timeout=60,
        dimensions=(80, 120),
    )
    try:
        child.expect(r"\r\n> ")
        first = child.before
        moves = re.findall(r"^\s+(\d+)\. Move (\w+) to", first.rsplit("Actions:", 1)[-1], re.M)
        assert moves, first
        child.sendline(moves[0][0])
        child.expect(r"\r\n> ")
        after = child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert "The Gatehouse (regular chapter) - round 1, explorer phase; clock 0 of 80" in first
    assert re.search(r"1 Ada\s+you; health 10/10, stamina 4/4", first)
    assert "E entry token" in first and "  Move:" in first
    assert re.search(r"1 Ada\s+you; health 10/10, stamina 3/4", after)
    assert "What just happened:" in after
