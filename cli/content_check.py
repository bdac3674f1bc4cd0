"""``tabletale content check [PATH]``: validate content packs and report every error."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from domain.core.errors import ContentError
from domain.eila import content as eila_content
from domain.gil_ennis import content as gil_ennis_content
from domain.machina import content_load as machina_content

Checker = Callable[[Path], list[ContentError]]


def _check_gil_ennis(path: Path) -> list[ContentError]:
    try:
        gil_ennis_content.load_content(path)
    except ContentError as error:
        return [error]
    return []


# (game, the file that marks a pack of that game, the shipped pack, the checker)
PACKS: tuple[tuple[str, str, Path, Checker], ...] = (
    ("eila", "pack.json", eila_content.DEFAULT_PACK, eila_content.check_pack),
    ("gil-ennis", "map.json", gil_ennis_content.CONTENT_DIR, _check_gil_ennis),
    ("machina", "scenario.json", machina_content.CONTENT_DIR, machina_content.check_content),
)


def check_content(path: Path | None) -> int:
    """Check ``path`` (or every shipped pack); print each error; exit status 1 if any."""
    if path is None:
        targets = [(game, pack, check) for game, _, pack, check in PACKS]
    else:
        matches = [
            (game, path, check) for game, marker, _, check in PACKS if (path / marker).exists()
        ]
        if not matches:
            markers = ", ".join(f"{marker} ({game})" for game, marker, _, _ in PACKS)
            print(f"{path}: not a content pack; expected one of {markers}.", file=sys.stderr)
            return 2
        targets = matches
    failed = False
    for game, pack, check in targets:
        errors = check(pack)
        if errors:
            failed = True
            print(f"{game} pack {pack}: {len(errors)} error(s)")
            for error in errors:
                print(f"  {error}")
        else:
            print(f"{game} pack {pack}: ok")
    return 1 if failed else 0
