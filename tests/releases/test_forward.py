"""The measure of moving the corpus forward (``forward.py``) says what it finds."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domain.games import game_for, get_game
from tests.releases.forward import CORPUS, forward, measure, stream_of


def in_force(folder: Path) -> bool:
    """Whether the entry's ruleset is the one its game has in force today."""
    made = json.loads((folder / "made.json").read_text())
    return bool(made["ruleset"] == get_game(made["game"]).info.ruleset)


TODAYS = [path.parent for path in sorted(CORPUS.glob("*/made.json")) if in_force(path.parent)]


@pytest.mark.parametrize("folder", TODAYS, ids=lambda folder: folder.name)
async def test_a_campaign_of_todays_ruleset_comes_out_identical(folder: Path) -> None:
    measured = await measure(folder)
    assert (measured.moves, measured.own_replay, measured.forward) == (16, "identical", "identical")


async def test_a_move_no_longer_legal_is_named_by_its_number() -> None:
    # Two released rulesets, which never change: content 2 made abilities dearer.
    created, events = await stream_of(CORPUS / "gil-ennis_2+content.1")
    old = game_for("gil-ennis", "gil-ennis/2+content.1")
    assert forward(old, old, created, events) == "identical"
    later = game_for("gil-ennis", "gil-ennis/2+content.2")
    said = forward(old, later, created, events)
    assert said.startswith("diverges at move 16 (") and "is not legal" in said


async def test_another_set_up_diverges_at_move_0() -> None:
    created, events = await stream_of(CORPUS / "gil-ennis_1")
    old = game_for("gil-ennis", "gil-ennis/1")
    later = game_for("gil-ennis", "gil-ennis/2+content.2")
    assert forward(old, later, created, events).startswith("diverges at move 0 ")
