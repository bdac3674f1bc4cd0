"""The terminal client's screen: every game's fits 80x24 with its choices paged and none lost, long
labels wrap on word boundaries under a hanging indent, whose move it is by a person's name (from
the view's ``turn`` and the server's ``seat_names`` when they are there, without them when not),
the seed checked as a number or a decimal string, and colour only on a terminal without NO_COLOR."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any

import pexpect  # type: ignore[import-untyped]
import pytest

from clients.connection import Seat, create_campaign
from clients.screens import choices
from clients.screens.layout import Table, screen, seat_names, whose_move
from clients.terminal import _game_facts, seed_commitment
from server.app import create_app
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from tests.clients.test_terminal import ROOT, SEED, tabletale
from tests.server.conftest import Live, Reproducible, running

NUMBER = re.compile(r"^\s+(\d+)\. ", re.MULTILINE)


@pytest.fixture
def server() -> Iterator[Live]:
    with running(create_app(CampaignService(MemoryStore(), fresh=Reproducible()))) as live:
        yield live


async def first_table(live: Live, game: str) -> Table:
    created = await create_campaign(live.http, game, seed=SEED)
    token = next(iter(created["seats"].values()))
    content, title, names = await _game_facts(live.http, game)
    async with Seat.connect(live.ws, created["id"], token=token) as seat:
        return Table(
            game=game,
            title=title,
            version=seat.version,
            seat=seat.seat,
            view=seat.view,
            legal=seat.legal_actions,
            outcome=seat.outcome,
            content=content,
            names=names,
        )


@pytest.mark.parametrize("game", ["gil-ennis", "eila", "machina"])
async def test_every_page_fits_80_by_24_and_together_they_show_every_choice(
    server: Live, game: str
) -> None:
    table = await first_table(server, game)
    whole = screen(table, width=80, height=None)
    seen: list[int] = []
    board_seen: set[str] = set()
    first = screen(table, width=80, height=24)
    for page in range(first.choice_pages):
        for board_page in range(first.board_pages):
            shown = screen(table, width=80, height=24, page=page, board_page=board_page)
            text = [line.plain for line in shown.lines]
            assert len(text) <= 23, text  # the prompt takes the 24th row
            assert max(len(line) for line in text) <= 80
            assert text[0].startswith("== ") and "· move " in text[0]
            assert any(line.startswith(("Your move", "Waiting for")) for line in text)
            board_seen.update(text)
            if board_page == 0:
                seen += [
                    int(n) for n in NUMBER.findall("\n".join(text[text.index(_actions(text)) :]))
                ]
    assert sorted(seen) == list(range(1, len(table.legal) + 1))
    board_lines = [line.plain for line in whole.lines]
    board_lines = board_lines[1 : board_lines.index(_actions(board_lines))]
    missing = [line for line in board_lines if line not in board_seen]
    assert not missing, "every line of the board is on one of its pages"


def _actions(text: list[str]) -> str:
    return next(line for line in text if line.startswith("Actions:"))


def test_a_machina_board_too_tall_for_24_rows_is_paged() -> None:
    view: dict[str, Any] = {"explorers": [], "map": ["." * 8] * 30, "map_x": 0, "map_y": 0}
    legal = [{"id": f"move:{n}", "label": f"Move to {n},0"} for n in range(12)]
    table = Table(
        game="machina", title="Machina", version=9, seat="ada", view=view, legal=legal,
        outcome="running",
    )  # fmt: skip
    first = screen(table, width=80, height=24)
    assert first.board_pages > 1
    text = [line.plain for line in first.lines]
    assert len(text) <= 23
    assert any(line.startswith("  b: more of the board (lines 1-") for line in text)
    second = [line.plain for line in screen(table, width=80, height=24, board_page=1).lines]
    assert second != text and second[0] == text[0]


def test_long_labels_wrap_between_words_under_a_hanging_indent() -> None:
    label = "Use Steady Hands: Gil's backpack die 2 becomes 1, then rest by the creek until dawn"
    actions = [{"id": f"a{n}", "label": label} for n in range(12)]
    [(_, first), *_, (_, last)] = choices("dice-race", {}, actions, width=40)
    assert first[0].startswith("   1. Use Steady")
    assert last[0].startswith("  12. Use Steady")
    assert all(line.startswith("      ") and line[6] != " " for line in last[1:])
    assert all(len(line) <= 40 for line in first + last)
    assert " ".join(line.strip() for line in last).removeprefix("12. ") == label


def test_whose_move_names_the_seats_from_the_turn_and_the_server() -> None:
    turn = {
        "to_act": ["gil"],
        "asked": "Pack your five dice: one in the HAND, one in the POCKET, three in the BACKPACK",
        "waiting": "to pack their dice",
    }
    names = seat_names("gil-ennis", None, {"turn": turn})
    legal = [{"id": "x", "label": "X"}]
    mine = whose_move({"turn": turn}, "gil", names, legal)
    assert mine == (
        "Your move, Gil: Pack your five dice: one in the HAND, one in the POCKET, three in the "
        "BACKPACK.",
        True,
    )
    assert whose_move({"turn": turn}, "ennis", names, []) == (
        "Waiting for Gil to pack their dice.",
        False,
    )
    assert whose_move({"turn": turn}, None, names, []) == (
        "Waiting for Gil to pack their dice.",
        False,
    )
    listed = seat_names("gil-ennis", {"gil": "Gilgamesh"}, {})
    assert (
        whose_move({"turn": turn}, None, listed, [])[0]
        == "Waiting for Gilgamesh to pack their dice."
    )


def test_without_a_turn_field_the_move_is_still_said_by_name() -> None:
    assert whose_move({}, "player", seat_names("eila", None, {}), [{"id": "a", "label": "A"}]) == (
        "Your move, Eila: choose one of the actions.",
        True,
    )
    assert seat_names("gil-ennis", None, {})["player"] == "Gil & Ennis"
    explorers = {"explorers": [{"id": "ada", "name": "Ada Quill"}]}
    assert whose_move(explorers, "bram", seat_names("machina", None, explorers), []) == (
        "Waiting for the other seats...",
        False,
    )
    assert whose_move({"to_act": "ada"}, None, seat_names("machina", None, explorers), [])[0] == (
        "Waiting for Ada Quill to move."
    )
    assert whose_move({"to_act": "blue"}, "red", {}, [])[0] == "Waiting for Blue to move."


def test_the_header_says_the_move_and_the_person_never_the_version_or_seat_id() -> None:
    table = Table(
        game="eila", title="Eila and Something Shiny", version=37, seat="player", view={},
        legal=[], outcome="running",
    )  # fmt: skip
    header = screen(table, width=80, height=24).lines[0].plain
    assert header == "== Eila and Something Shiny · move 37 · you play Eila =="


def test_a_seed_as_a_decimal_string_checks_as_the_number_does() -> None:
    seed = 13112283191526718841
    assert seed_commitment(str(seed), "7e57") == seed_commitment(seed, "7e57")


def first_screen(live: Live, *, colour: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    if not colour:
        env["NO_COLOR"] = "1"
    env["TERM"] = "xterm-256color"
    command = tabletale("play", "--game", "eila", "--seed", str(SEED), "--server", live.http)
    child = pexpect.spawn(
        command[0], command[1:], cwd=str(ROOT), env=env, encoding="utf-8", timeout=60
    )
    try:
        child.expect(r"\r\n> ")
        shown: str = child.before
        child.sendline("q")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    return shown


def test_colour_on_a_terminal_and_none_with_no_color(server: Live) -> None:
    coloured = first_screen(server, colour=True)
    plain = first_screen(server, colour=False)
    assert "\x1b[" in coloured
    assert "\x1b[" not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).count("Your move, Eila") == 1
    assert "Your move, Eila" in plain


async def test_without_a_height_nothing_is_paged(server: Live) -> None:
    table = await first_table(server, "gil-ennis")
    lines = [line.plain for line in screen(table, width=80, height=None).lines]
    assert len([line for line in lines if NUMBER.match(line)]) == len(table.legal)
