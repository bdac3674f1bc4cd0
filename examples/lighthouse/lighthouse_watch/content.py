"""The lamps and the storms, read from the JSON files beside this module into frozen Structs.

Every problem is reported with the file, the card and the field (``check``), so a content pack can
be edited without reading the rules code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, TypeVar

import msgspec
from domain.core.errors import ContentError

CONTENT_DIR = Path(__file__).parent / "content"

Id = Annotated[str, msgspec.Meta(pattern=r"^[a-z0-9-]+$")]


class Lamp(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    light: Annotated[int, msgspec.Meta(ge=1, le=9)]


class Storm(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    id: Id
    name: str
    strength: Annotated[int, msgspec.Meta(ge=1, le=18)]


class LampsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    lamps: tuple[Lamp, ...]


class StormsFile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    storms: tuple[Storm, ...]


class Content(msgspec.Struct, frozen=True):
    lamps: dict[str, Lamp]
    storms: dict[str, Storm]


MOST_NIGHTS = 10
"""The longest watch a campaign may ask for; the storm deck must hold that many storms."""
HAND = 3


T = TypeVar("T")


def _read(folder: Path, name: str, kind: type[T]) -> T:
    try:
        return msgspec.json.decode((folder / name).read_bytes(), type=kind)
    except OSError as error:
        raise ContentError(name, None, None, f"cannot be read: {error}") from None
    except msgspec.ValidationError as error:
        raise ContentError(name, None, None, str(error)) from None
    except msgspec.DecodeError as error:
        raise ContentError(name, None, None, f"is not JSON: {error}") from None


def check(folder: Path = CONTENT_DIR) -> list[ContentError]:
    """Every problem of the pack in ``folder``."""
    errors: list[ContentError] = []
    try:
        lamps = _read(folder, "lamps.json", LampsFile)
        storms = _read(folder, "storms.json", StormsFile)
    except ContentError as error:
        return [error]
    for file, cards in (("lamps.json", lamps.lamps), ("storms.json", storms.storms)):
        seen: set[str] = set()
        for card in cards:
            if card.id in seen:
                errors.append(ContentError(file, card.id, "id", "is used by another card."))
            seen.add(card.id)
    if len(storms.storms) < MOST_NIGHTS:
        errors.append(
            ContentError("storms.json", None, "storms", f"must hold at least {MOST_NIGHTS} storms.")
        )
    if len(lamps.lamps) < 2 * HAND + 2:
        errors.append(ContentError("lamps.json", None, "lamps", "cannot fill two hands."))
    return errors


def load(folder: Path = CONTENT_DIR) -> Content:
    errors = check(folder)
    if errors:
        raise errors[0]
    lamps = _read(folder, "lamps.json", LampsFile)
    storms = _read(folder, "storms.json", StormsFile)
    return Content(
        lamps={lamp.id: lamp for lamp in lamps.lamps},
        storms={storm.id: storm for storm in storms.storms},
    )


CONTENT = load()
