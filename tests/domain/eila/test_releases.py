"""Eila's older rulesets play as they did: the switches of today's rules set to their version."""

from __future__ import annotations

from pathlib import Path

from domain.eila.content import load_pack
from domain.eila.events import FearTaken
from domain.eila.game import EilaGame
from domain.eila.state import Resources
from domain.games import game_for
from tests.domain.eila.helpers import Table, chapter_zero, option, write_pack


def _fear_then_coin(tmp_path: Path, rules: int) -> Table:
    options = {"001": [option("A", [{"gain": "fear", "max": 1}, {"gain": "coin", "max": 1}])]}
    folder = write_pack(tmp_path, [chapter_zero(options)])
    return Table(EilaGame(load_pack(folder), rules=rules))


def test_under_rules_3_a_conversion_at_a_fear_pause_leaves_the_fear_waiting(
    tmp_path: Path,
) -> None:
    """Rules 4 take the Fear once a conversion at its pause makes the room; rules 3 did not."""
    for rules, resumed in ((3, False), (4, True)):
        table = _fear_then_coin(tmp_path / str(rules), rules)
        table.give(knowledge=5, fear=3)
        table.do("A:")
        events = table.do("Convert 5 Knowledge into 1 Magical Stone")
        assert (FearTaken(1, 0) in events) is resumed, rules
        if not resumed:
            assert table.state.resources == Resources(stone=1, fear=3)
            assert "Take 1 Coin (of +1)" not in table.labels()


def test_an_old_ruleset_names_its_rules_and_its_pack() -> None:
    old = game_for("eila", "eila/3+content.2")
    assert isinstance(old, EilaGame)
    assert (old.pack.rules, old.folder and old.folder.name) == (3, "2")
    assert game_for("eila", "eila/4+content.4").pack.rules == 4  # type: ignore[attr-defined]
