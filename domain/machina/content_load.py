"""Loading Machina's content folder: typed decoding per card, then the checks across files.

Each card is converted on its own with msgspec, so one pass reports every broken card; a msgspec
error's path (``$.effect.amount``) becomes the field of the :class:`ContentError`, and the card's
``id`` (or its place in the list) names the card. :func:`check_content` returns every problem,
:func:`load_content` refuses content with any.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from domain.core.errors import ContentError
from domain.core.packs import InPlay
from domain.machina.content import (
    SYMBOLS,
    ChapterCard,
    ChapterTileCard,
    Content,
    ExplorerCard,
    HorrorCard,
    ItemCard,
    MapTileCard,
    MonsterCard,
    PlaceMonster,
    Ruleset,
    Scenario,
    TreatAsExit,
)

CONTENT_DIR = Path(__file__).parent / "content"
FILES = (
    "ruleset.json",
    "explorers.json",
    "items.json",
    "monsters.json",
    "horrors.json",
    "map_tiles.json",
    "chapter_tiles.json",
    "scenario.json",
)
MAX_CHAPTER_TILE = (5, 4)
"""A chapter tile is at most 5 spaces wide and 4 tall (before it is turned)."""

T = TypeVar("T")
_AT = re.compile(r"^(?P<problem>.*) - at `\$(?P<path>[^`]*)`$")
_UNKNOWN = re.compile(r"(?:unknown|missing required) field `([^`]*)`")


class _Reader:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.errors: list[ContentError] = []

    def error(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.errors.append(ContentError(file, card, field, problem))

    def raw(self, file: str) -> Any:
        try:
            return msgspec.json.decode((self.root / file).read_bytes())
        except FileNotFoundError:
            self.error(file, None, None, f"The file is missing from the content at {self.root}.")
        except msgspec.DecodeError as exc:
            self.error(file, None, None, f"The file is not valid JSON ({exc}).")
        return None

    def typed(self, data: Any, kind: type[T], file: str, card: str | None, prefix: str = "") -> T:
        """``data`` converted to ``kind``, or None after recording where it went wrong."""
        try:
            return msgspec.convert(data, kind)
        except msgspec.ValidationError as exc:
            message = str(exc)
            found = _AT.match(message)
            problem, path = (found["problem"], found["path"]) if found else (message, "")
            unknown = _UNKNOWN.search(problem)
            if unknown:
                path += f".{unknown[1]}"
            field = (prefix + path).lstrip(".") or None
            self.error(file, card, field, problem.rstrip(".") + ".")
            return None  # type: ignore[return-value]

    def cards(self, file: str, key: str, kind: type[T]) -> list[T]:
        """The list under ``key`` in ``file``, each card typed on its own."""
        data = self.raw(file)
        if data is None:
            return []
        if not isinstance(data, dict) or not isinstance(data.get(key), list):
            self.error(file, None, key, f"Expected an object with a list of cards under {key!r}.")
            return []
        out: list[T] = []
        seen: set[str] = set()
        for index, raw in enumerate(data[key]):
            name = raw.get("id") if isinstance(raw, dict) else None
            card = name if isinstance(name, str) else f"#{index + 1}"
            typed = self.typed(raw, kind, file, card)
            if typed is None:
                continue
            if card in seen:
                self.error(file, card, "id", "This id is used by another card of the file.")
                continue
            seen.add(card)
            out.append(typed)
        return out


def _rows(
    reader: _Reader,
    file: str,
    card: str,
    rows: tuple[str, ...],
    actions: dict[str, Any],
    size: tuple[int, int] | None,
) -> None:
    """A tile's grid: rectangular, known symbols, action spaces described, one entry token."""
    if not rows or not rows[0]:
        reader.error(file, card, "rows", "A tile needs at least one row of spaces.")
        return
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        reader.error(file, card, "rows", "Every row of a tile must have the same length.")
    if size is not None and (width, len(rows)) != size:
        reader.error(file, card, "rows", f"Map tiles are {size[0]}x{size[1]} spaces.")
    if size is None and (width > MAX_CHAPTER_TILE[0] or len(rows) > MAX_CHAPTER_TILE[1]):
        reader.error(file, card, "rows", "A chapter tile is at most 5 spaces wide and 4 tall.")
    letters: set[str] = set()
    for y, row in enumerate(rows):
        for x, symbol in enumerate(row):
            if symbol.islower():
                letters.add(symbol)
            elif symbol not in SYMBOLS:
                where = f"rows[{y}][{x}]"
                reader.error(file, card, where, f"{symbol!r} is not a space symbol.")
    for letter in sorted(letters - set(actions)):
        reader.error(file, card, "actions", f"The action space {letter!r} is not described.")
    for letter in sorted(set(actions) - letters):
        reader.error(file, card, f"actions.{letter}", "This action space is not on the tile.")
    if sum(row.count("E") for row in rows) != 1:
        reader.error(file, card, "rows", "A tile shows exactly one entry token (E).")


def _check_chapter(
    reader: _Reader, content: dict[str, Any], chapter: ChapterCard, labels: set[str]
) -> None:
    file, card = "scenario.json", chapter.id
    ruleset: Ruleset = content["ruleset"]
    is_endgame = chapter.id == content["scenario"].endgame.id
    if chapter.kind == "regular" and max(chapter.spawn, chapter.horror) > ruleset.game_die:
        reader.error(file, card, "spawn", "A regular chapter's ratings must be die results.")
    if chapter.back_tile and chapter.back_text:
        reader.error(file, card, "back_tile", "A chapter's back is a tile or a text, not both.")
    if chapter.back_tile and chapter.back_tile not in content["chapter_tiles"]:
        reader.error(file, card, "back_tile", f"There is no chapter tile {chapter.back_tile!r}.")
    if is_endgame and (chapter.back_tile or chapter.back_text):
        reader.error(file, card, "back_tile", "The endgame is never flipped.")
    if is_endgame != bool(chapter.cards):
        reader.error(file, card, "cards", "The endgame, and only the endgame, has cards.")
    placed = set()
    for n, ability in enumerate(chapter.enters_play):
        where = f"enters_play[{n}]"
        if isinstance(ability, PlaceMonster):
            monster = content["monsters"].get(ability.monster)
            if monster is None or monster.tier != 0:
                reader.error(file, card, where, "Only a unique (tier 0) monster can be placed.")
            placed.add(ability.monster)
        if isinstance(ability, PlaceMonster | TreatAsExit) and ability.label not in labels:
            reader.error(file, card, where, f"No tile has an action space {ability.label!r}.")
    objective = chapter.objective
    holders = {c.id: c.charges for c in chapter.cards} | {chapter.id: chapter.charges}
    match objective.kind:
        case "activate":
            if objective.label not in labels:
                reader.error(file, card, "objective.label", "No tile has this action space.")
            if holders.get(objective.card, 0) < 1:
                problem = "The card whose charges the objective removes must enter with some."
                reader.error(file, card, "objective.card", problem)
        case "slay" if objective.monster not in placed:
            problem = "The monster to slay must be placed by the chapter's enters play abilities."
            reader.error(file, card, "objective.monster", problem)


def _cross_check(reader: _Reader, content: dict[str, Any]) -> None:
    ruleset: Ruleset = content["ruleset"]
    size = (ruleset.map_tile_size, ruleset.map_tile_size)
    for tile in content["map_tiles"].values():
        _rows(reader, "map_tiles.json", tile.id, tile.rows, tile.actions, size)
    for ct in content["chapter_tiles"].values():
        _rows(reader, "chapter_tiles.json", ct.id, ct.rows, ct.actions, None)
        if (ct.symbol == "circle") != bool(ct.symbol_name):
            problem = "A circle symbol has a name; a diamond has none."
            reader.error("chapter_tiles.json", ct.id, "symbol_name", problem)
    labels: dict[str, str] = {}
    tiles = [*content["map_tiles"].values(), *content["chapter_tiles"].values()]
    for tile in tiles:
        for space in tile.actions.values():
            if space.label in labels:
                file = "map_tiles.json" if tile.id in content["map_tiles"] else "chapter_tiles.json"
                problem = f"The label {space.label!r} is also used on {labels[space.label]}."
                reader.error(file, tile.id, "actions", problem)
            labels[space.label] = tile.id
    for explorer in content["explorers"].values():
        if explorer.defense > ruleset.game_die:
            reader.error("explorers.json", explorer.id, "defense", "No die result reaches it.")
        for item in explorer.items:
            if item not in content["items"]:
                reader.error("explorers.json", explorer.id, "items", f"No item {item!r}.")
    for n, layout in enumerate(content["seat_layouts"]):
        if not layout or len(set(layout)) != len(layout):
            reader.error("explorers.json", None, f"seat_layouts[{n}]", "Seats are distinct.")
        for seat in layout:
            if seat not in content["explorers"]:
                reader.error("explorers.json", None, f"seat_layouts[{n}]", f"No {seat!r}.")
    for item in content["items"].values():
        weapon_ok = item.dice >= 1 and item.range >= 1 and item.effect == "none"
        if item.kind == "weapon" and not weapon_ok:
            problem = "A weapon rolls dice at a range and has no effect."
            reader.error("items.json", item.id, "dice", problem)
        if item.kind == "tool" and (item.effect == "none" or item.amount < 1):
            reader.error("items.json", item.id, "effect", "A tool has an effect and an amount.")
    tiers = sorted({m.tier for m in content["monsters"].values() if m.tier > 0})
    if tiers != list(range(1, len(tiers) + 1)):
        reader.error("monsters.json", None, "tier", "Monster tiers run 1, 2, 3... without gaps.")
    scenario: Scenario = content["scenario"]
    if scenario.start_tile not in content["map_tiles"]:
        reader.error("scenario.json", scenario.id, "start_tile", "There is no such map tile.")
    ids = [c.id for c in scenario.chapters] + [scenario.endgame.id]
    if len(set(ids)) != len(ids):
        reader.error("scenario.json", scenario.id, "chapters", "Chapter ids are distinct.")
    backs = [c.back_tile for c in scenario.chapters if c.back_tile]
    if len(set(backs)) != len(backs):
        reader.error("scenario.json", scenario.id, "chapters", "A tile is on one chapter only.")
    for chapter in (*scenario.chapters, scenario.endgame):
        _check_chapter(reader, content, chapter, set(labels))


def _read(root: Path) -> tuple[Content | None, list[ContentError]]:
    reader = _Reader(root)
    content: dict[str, Any] = {}
    raw = reader.raw("ruleset.json")
    if raw is not None:
        content["ruleset"] = reader.typed(raw, Ruleset, "ruleset.json", None)
    raw = reader.raw("explorers.json")
    if isinstance(raw, dict):
        layouts = reader.typed(
            raw.get("seat_layouts"), tuple[tuple[str, ...], ...], "explorers.json", None
        )
        content["seat_layouts"] = layouts
    explorers = reader.cards("explorers.json", "explorers", ExplorerCard)
    content["explorers"] = {e.id: e for e in explorers}
    content["items"] = {i.id: i for i in reader.cards("items.json", "items", ItemCard)}
    content["monsters"] = {m.id: m for m in reader.cards("monsters.json", "monsters", MonsterCard)}
    content["horrors"] = {h.id: h for h in reader.cards("horrors.json", "horrors", HorrorCard)}
    maps = reader.cards("map_tiles.json", "map_tiles", MapTileCard)
    content["map_tiles"] = {t.id: t for t in maps}
    chapter_tiles = reader.cards("chapter_tiles.json", "chapter_tiles", ChapterTileCard)
    content["chapter_tiles"] = {t.id: t for t in chapter_tiles}
    raw = reader.raw("scenario.json")
    if isinstance(raw, dict):
        chapters = raw.get("chapters")
        if isinstance(chapters, list):
            # each chapter on its own first, so a broken one is named by its id
            for index, chapter in enumerate(chapters):
                name = chapter.get("id") if isinstance(chapter, dict) else None
                card = name if isinstance(name, str) else f"chapters[{index}]"
                reader.typed(chapter, ChapterCard, "scenario.json", card)
        if isinstance(raw.get("endgame"), dict):
            name = raw["endgame"].get("id")
            card = name if isinstance(name, str) else "endgame"
            reader.typed(raw["endgame"], ChapterCard, "scenario.json", card)
        if not reader.errors:
            content["scenario"] = reader.typed(raw, Scenario, "scenario.json", raw.get("id"))
    if reader.errors or any(v is None for v in content.values()) or len(content) < 9:
        if not reader.errors:
            reader.error("scenario.json", None, None, "The scenario could not be read.")
        return None, reader.errors
    _cross_check(reader, content)
    if reader.errors:
        return None, reader.errors
    return Content(**content), []


def check_content(path: Path | str = CONTENT_DIR) -> list[ContentError]:
    """Every problem of the content folder at ``path``; an empty list means it loads."""
    return _read(Path(path))[1]


def load_content(path: Path | str = CONTENT_DIR) -> Content:
    content, errors = _read(Path(path))
    if content is None:
        first = errors[0]
        more = f" ({len(errors) - 1} more problems follow it)" if len(errors) > 1 else ""
        raise ContentError(first.file, first.card, first.field, first.problem + more)
    return content


CONTENT = load_content()
"""The newest pack's content (the ruleset in force), loaded and checked once at import; rules
read :func:`content`, the pack in play."""


class Pack:
    """A content pack in play, with the rules version it is played by; compared by identity, so
    that caches of what the rules work out from it (tile shapes, boards) keep its answers apart."""

    def __init__(self, content: Content, rules: int = 2) -> None:
        self.content = content
        self.rules = rules
        """The rules version, for the rules' version switches (:func:`rules_version`)."""


IN_PLAY = InPlay("machina pack", Pack(CONTENT))
"""The pack in play: an older ruleset's game puts its own in play (:mod:`domain.core.packs`)."""


def content() -> Content:
    """The content of the pack in play."""
    return IN_PLAY.get().content


def rules_version() -> int:
    """The rules version in play: where today's rules differ from an older ruleset's, a switch
    reads it (``if rules_version() >= 2``)."""
    return IN_PLAY.get().rules
