"""The shipped content, and what a broken content folder reports."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from domain.core.ruleset import content_version
from domain.machina import GAME
from domain.machina.content import PlaceMonster, SealWhileCurrent, TakeItem, TreatAsExit
from domain.machina.content_load import CONTENT, CONTENT_DIR, check_content, load_content
from tests.domain.machina.helpers import tag_of


def test_the_shipped_content_loads_without_a_problem() -> None:
    assert check_content() == []
    assert load_content() == CONTENT


def test_the_ruleset_names_the_rules_and_the_content_version() -> None:
    assert content_version(CONTENT_DIR) == 2
    assert GAME.info.ruleset == "machina/2+content.2"


def test_to_eternity_has_five_to_eight_chapters_then_an_endgame() -> None:
    scenario = CONTENT.scenario
    assert scenario.title == "To Eternity"
    assert 5 <= len(scenario.chapters) <= 8
    assert scenario.endgame.cards and not scenario.endgame.back_tile


def test_the_scenario_uses_every_eternity_rule() -> None:
    chapters = (*CONTENT.scenario.chapters, CONTENT.scenario.endgame)
    kinds = {c.kind for c in chapters}
    assert kinds == {"regular", "eternity"}
    abilities = {type(a) for c in chapters for a in c.enters_play}
    assert {PlaceMonster, TreatAsExit, TakeItem, SealWhileCurrent} <= abilities
    backs = [CONTENT.chapter_tiles[c.back_tile] for c in chapters if c.back_tile]
    assert {b.symbol for b in backs} == {"diamond", "circle"}
    assert any(c.back_text for c in chapters)  # a flip to the chapter board
    assert any(b.unexplored for b in backs)  # exploring through a chapter tile
    assert {c.objective.kind for c in chapters} == {"escape", "explore", "activate", "slay"}
    assert any(c.charges for c in chapters) and any(
        c.charges for c in CONTENT.scenario.endgame.cards
    )
    assert any(i.charges for i in CONTENT.items.values())
    assert any(i.charges == 0 for i in CONTENT.items.values())
    horror_kinds = {tag_of(h.effect) for h in CONTENT.horrors.values()}
    assert horror_kinds == {"hit_cost", "seal", "scope_hit", "rust", "spawn_weakest", "clock"}


def test_seat_layouts_seat_one_to_four_explorers() -> None:
    assert [len(layout) for layout in CONTENT.seat_layouts] == [1, 2, 3, 4]


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, target)
    return target


def _edit(folder: Path, file: str, change: object) -> None:
    path = folder / file
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    path.write_text(json.dumps(data))


def test_every_problem_names_the_file_the_card_and_the_field(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "monsters.json", lambda d: d["monsters"][0].update(health="lots"))
    _edit(folder, "items.json", lambda d: d["items"][1].update(sparkle=True))
    _edit(folder, "horrors.json", lambda d: d["horrors"][0].update(effect={"kind": "glitter"}))
    errors = check_content(folder)
    found = {(e.file, e.card, e.field) for e in errors}
    assert ("monsters.json", "cog-rat", "health") in found
    assert ("items.json", "lamp-pistol", "sparkle") in found
    assert ("horrors.json", "teeth-in-the-gears", "effect.kind") in found
    assert all(str(e).startswith(e.file) for e in errors)


def test_references_across_files_are_checked(tmp_path: Path) -> None:
    folder = _copy(tmp_path)

    def unknown_label(data: dict[str, object]) -> None:
        data["chapters"][1]["enters_play"][1]["label"] = "nowhere"  # type: ignore[index]

    _edit(folder, "scenario.json", unknown_label)
    _edit(folder, "chapter_tiles.json", lambda d: d["chapter_tiles"][0].update(rows=["......"]))
    errors = {(e.file, e.card, e.field) for e in check_content(folder)}
    assert ("scenario.json", "orrery", "enters_play[1]") in errors
    assert ("chapter_tiles.json", "orrery-hall", "rows") in errors


def test_a_missing_file_is_reported(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "horrors.json").unlink()
    assert [e.file for e in check_content(folder)] == ["horrors.json"]
