"""The guide (``docs/games.md``) and the example (``examples/lighthouse``) are the same game: every
file the guide shows is the example's, whole, and every file of the example is shown."""

from __future__ import annotations

from tests.examples.guide import guide_files
from tests.examples.lighthouse import FOLDER

KINDS = {".py", ".json", ".toml"}


def test_every_file_of_the_guide_is_the_examples_and_every_file_is_shown() -> None:
    shown = guide_files()
    example = {
        str(path.relative_to(FOLDER)): path.read_text()
        for path in sorted(FOLDER.rglob("*"))
        if path.is_file()
        and path.suffix in KINDS
        and not any(part.startswith(".") or part.endswith(".egg-info") for part in path.parts)
        and "build" not in path.relative_to(FOLDER).parts
    }
    assert sorted(shown) == sorted(example)
    for path, text in shown.items():
        assert text == example[path], f"docs/games.md shows another {path} than the example's"
