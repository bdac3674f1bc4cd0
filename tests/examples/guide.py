"""The files ``docs/games.md`` builds, read from the guide itself: each is shown whole, under its
path in bold, in one fenced block."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "games.md"

_FILE = re.compile(r"^\*\*`(?P<path>[^`]+)`\*\*\n\n```[a-z]*\n(?P<text>.*?)^```$", re.M | re.S)


def guide_files(guide: Path = GUIDE) -> dict[str, str]:
    """Each file's path (inside the game's folder) -> its text, as the guide shows it."""
    return {m["path"]: m["text"] for m in _FILE.finditer(guide.read_text())}


def write_guide_files(folder: Path) -> None:
    """Follow the guide into ``folder``: every file it shows, where it says."""
    for path, text in guide_files().items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
