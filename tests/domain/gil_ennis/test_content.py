from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest

from domain.core.errors import ContentError
from domain.gil_ennis.content import (
    CONTENT,
    CONTENT_DIR,
    SPECIALS,
    load_content,
)


def test_six_dream_cards_with_high_alone_costs_and_low_together_costs() -> None:
    assert len(CONTENT.dreams) == 6
    for dream in CONTENT.dreams:
        assert all(4 <= r.low <= r.high <= 6 for r in dream.alone)
        assert all(1 <= r.low <= r.high <= 4 for r in dream.together)


def test_the_map_has_four_campsites_then_two_paths_and_all_four_special_actions() -> None:
    assert len(CONTENT.map.trail) == 4
    assert len(CONTENT.map.paths) == 2
    sites = [*CONTENT.map.trail, *(s for p in CONTENT.map.paths for s in p.campsites)]
    assert len({s.id for s in sites}) == len(sites)
    assert {s.special for s in sites if s.special} == set(SPECIALS)


def test_each_character_has_two_once_per_game_abilities() -> None:
    # Since content 2: an ability spent on the trail is not there on the final night.
    assert [c.id for c in CONTENT.characters] == ["gil", "ennis"]
    for character in CONTENT.characters:
        assert [a.frequency for a in character.abilities] == ["game", "game"]


def test_the_longest_path_needs_no_more_dreams_than_the_deck_holds() -> None:
    longest = max(len(CONTENT.map.route(p.id)) for p in CONTENT.map.paths)
    assert longest <= len(CONTENT.dreams)


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, target)
    return target


def _edit(directory: Path, name: str, change: Callable[[Any], None]) -> None:
    path = directory / name
    data = msgspec.json.decode(path.read_bytes())
    change(data)
    path.write_bytes(msgspec.json.encode(data))


def _dream(data: Any, index: int) -> Any:
    return data["dreams"][index]


@pytest.mark.parametrize(
    ("file", "change", "card", "field"),
    [
        (
            "dreams.json",
            lambda d: _dream(d, 1).update(alone=[3]),
            "clockmakers-orchard",
            "alone[0]",
        ),
        (
            "dreams.json",
            lambda d: _dream(d, 0).update(together=[[4, 2]]),
            "lantern-under-water",
            "together[0]",
        ),
        (
            "dreams.json",
            lambda d: _dream(d, 2)["insight"].update(step="dawn"),
            "door-in-the-riverbank",
            "step",
        ),
        (
            "dreams.json",
            lambda d: _dream(d, 3)["worry"].update(kind="haunt"),
            "salt-choir",
            "kind",
        ),
        ("dreams.json", lambda d: _dream(d, 4).update(id="salt-choir"), "salt-choir", "id"),
        (
            "characters.json",
            lambda d: d["characters"][0]["abilities"][0].update(frequency="daily"),
            "gil",
            "frequency",
        ),
        (
            "characters.json",
            lambda d: d["characters"][1]["abilities"][1]["power"].update(value=9),
            "ennis",
            "value",
        ),
        ("map.json", lambda d: d["trail"][1].update(special="teleport"), "lantern-rock", "special"),
        ("map.json", lambda d: d["trail"].pop(), None, "trail"),
        ("map.json", lambda d: d["paths"][0].update(id=""), None, "id"),
        ("humbaba.json", lambda d: d.pop("won"), "humbaba", "won"),
    ],
)
def test_broken_content_names_file_card_and_field(
    tmp_path: Path,
    file: str,
    change: Callable[[Any], None],
    card: str | None,
    field: str,
) -> None:
    directory = _copy(tmp_path)
    _edit(directory, file, change)
    with pytest.raises(ContentError) as caught:
        load_content(directory)
    assert (caught.value.file, caught.value.card, caught.value.field) == (file, card, field)
    assert file in str(caught.value)


def test_a_file_that_is_not_json_is_reported_by_name(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    (directory / "dreams.json").write_text("{ not json")
    with pytest.raises(ContentError, match=r"dreams\.json: The file is not valid JSON"):
        load_content(directory)


def test_a_missing_file_is_reported_by_name(tmp_path: Path) -> None:
    directory = _copy(tmp_path)
    (directory / "humbaba.json").unlink()
    with pytest.raises(ContentError, match=r"humbaba\.json: The file cannot be read"):
        load_content(directory)


def test_the_shipped_files_load_the_same_as_at_import(tmp_path: Path) -> None:
    assert load_content(_copy(tmp_path)) == CONTENT
