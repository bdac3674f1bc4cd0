"""The pack-level readers: manifest, ruleset, items and habits, and the cross-reference checks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.core.errors import ContentError
from domain.eila.content_parse import HABIT_NUMBER, ITEM_ID, Reader, read_card, read_chapter
from domain.eila.content_types import (
    RESOURCES,
    Card,
    Chapter,
    ContentPack,
    Conversion,
    Item,
    Ruleset,
)

MANIFEST = "pack.json"


def _ruleset(r: Reader, file: str) -> Ruleset | None:
    raw = r.load(file)
    if not isinstance(raw, dict):
        if raw is not None:
            r.error(file, None, None, "The ruleset file must hold an object.")
        return None
    storage = r.field(raw, "storage", dict, file, None) or {}
    tangible = r.count(storage, "tangible", file, None, "storage")
    intangible = r.count(storage, "intangible", file, None, "storage")
    fear = r.count(storage, "fear", file, None, "storage")
    track = r.count(raw, "time_track", file, None)
    from_chapter = r.count(raw, "habits_join_green_deck_from_chapter", file, None, minimum=0)
    conversions: list[Conversion] = []
    for index, conv in enumerate(r.field(raw, "conversions", list, file, None) or []):
        where = f"conversions[{index}]"
        if not isinstance(conv, dict):
            r.error(file, None, where, "A conversion must be an object.")
            continue
        cid = r.field(conv, "id", str, file, None, where)
        give = r.field(conv, "give", str, file, None, where)
        get = r.field(conv, "get", str, file, None, where)
        give_amount = r.count(conv, "give_amount", file, None, where)
        get_amount = r.count(conv, "get_amount", file, None, where)
        for key, value in (("give", give), ("get", get)):
            if value is not None and value not in RESOURCES:
                r.error(file, None, f"{where}.{key}", f"{value!r} is not a resource.")
        if "fear" in (give, get):
            r.error(file, None, where, "Fear cannot be converted.")
        if cid is not None and any(c.id == cid for c in conversions):
            r.error(file, None, f"{where}.id", f"The conversion id {cid!r} is used twice.")
        elif (
            None not in (cid, give, get, give_amount, get_amount)
            and give in RESOURCES
            and get in RESOURCES
            and "fear" not in (give, get)
        ):
            conversions.append(Conversion(cid, give, give_amount, get, get_amount))  # type: ignore[arg-type]
    nights = r.field(raw, "night_submissions", dict, file, None) or {}
    default = r.count(nights, "default", file, None, "night_submissions")
    limits: list[tuple[int, int]] = []
    for index, entry in enumerate(nights.get("chapters", [])):
        where = f"night_submissions.chapters[{index}]"
        if not isinstance(entry, dict):
            r.error(file, None, where, "Expected an object with 'chapter' and 'limit'.")
            continue
        chapter = r.count(entry, "chapter", file, None, where, minimum=0)
        limit = r.count(entry, "limit", file, None, where)
        if chapter is not None and limit is not None:
            limits.append((chapter, limit))
    if (
        tangible is None
        or intangible is None
        or fear is None
        or track is None
        or default is None
        or from_chapter is None
    ):
        return None
    return Ruleset(
        tangible,
        intangible,
        fear,
        track,
        tuple(conversions),
        tuple(sorted(limits)),
        default,
        from_chapter,
    )


def _items(r: Reader, file: str) -> dict[str, Item]:
    raw = r.load(file)
    items: dict[str, Item] = {}
    if raw is None:
        return items
    entries = r.field(raw, "items", list, file, None) if isinstance(raw, dict) else None
    for index, entry in enumerate(entries or []):
        where = f"items[{index}]"
        if not isinstance(entry, dict):
            r.error(file, None, where, "An item must be an object.")
            continue
        iid = r.field(entry, "id", str, file, None, where)
        name = r.field(entry, "name", str, file, iid, where)
        text = r.field(entry, "text", str, file, iid, where)
        if iid is not None and not ITEM_ID.fullmatch(iid):
            r.error(file, iid, "id", "An item is numbered I01, I02, ...")
        elif iid in items:
            r.error(file, iid, "id", "This item id is used more than once.")
        elif None not in (iid, name, text):
            items[iid] = Item(iid, name, text)
    return items


def _habits(r: Reader, file: str, cards: dict[str, Card]) -> tuple[str, ...]:
    raw = r.load(file)
    if raw is None:
        return ()
    entries = r.field(raw, "cards", list, file, None) if isinstance(raw, dict) else None
    habits: list[str] = []
    for index, entry in enumerate(entries or []):
        card = read_card(r, entry, file, index, None)
        raw_number = entry.get("number") if isinstance(entry, dict) else None
        if isinstance(raw_number, str) and not r.claim(raw_number, file):
            continue
        if card is None:
            continue
        cards[card.number] = card
        habits.append(card.number)
    return tuple(sorted(habits, key=lambda h: int(h[1:])))


def _references(
    r: Reader, files: dict[str, str], cards: dict[str, Card], items: dict[str, Item]
) -> None:
    for number, card in sorted(cards.items()):
        file = files[number]
        for option in card.options:
            where = f"option {option.letter}"
            for item in option.requires_items:
                if item not in items:
                    r.error(file, number, f"{where}.requires.items", f"Unknown item {item!r}.")
            for index, effect in enumerate(option.effects):
                field = f"{where}.effects[{index}]"
                for item in effect.items:
                    if item not in items:
                        r.error(file, number, field, f"Unknown item {item!r}.")
                if effect.kind in ("blue", "red"):
                    target = cards.get(effect.card)
                    if target is None:
                        r.error(file, number, field, f"Unknown card {effect.card!r}.")
                    elif target.colour != effect.kind:
                        r.error(
                            file,
                            number,
                            field,
                            f"Card {effect.card} is {target.colour}, not {effect.kind}.",
                        )
                    elif card.chapter is not None and target.chapter != card.chapter:
                        r.error(
                            file, number, field, f"Card {effect.card} is in another chapter's box."
                        )
                if effect.kind == "habit" and (
                    not HABIT_NUMBER.fullmatch(effect.card) or effect.card not in cards
                ):
                    r.error(file, number, field, f"Unknown habit card {effect.card!r}.")


def parse_pack(root: Path) -> tuple[ContentPack | None, list[ContentError]]:
    r = Reader(root)
    manifest: Any = r.load(MANIFEST)
    if not isinstance(manifest, dict):
        if manifest is not None:
            r.error(MANIFEST, None, None, "The manifest must hold an object.")
        return None, r.errors
    names = {
        key: r.field(manifest, key, str, MANIFEST, None) for key in ("ruleset", "items", "habits")
    }
    chapter_files = r.field(manifest, "chapters", list, MANIFEST, None) or []
    ruleset = _ruleset(r, names["ruleset"]) if names["ruleset"] else None
    items = _items(r, names["items"]) if names["items"] else {}
    cards: dict[str, Card] = {}
    files: dict[str, str] = {}
    habits: tuple[str, ...] = ()
    if names["habits"]:
        habits = _habits(r, names["habits"], cards)
        files.update(dict.fromkeys(habits, names["habits"]))
    chapters: dict[int, Chapter] = {}
    for file in chapter_files:
        if not isinstance(file, str):
            r.error(MANIFEST, None, "chapters", f"Expected file names, found {file!r}.")
            continue
        before = set(cards)
        chapter = read_chapter(r, file, cards)
        files.update(dict.fromkeys(set(cards) - before, file))
        if chapter is None:
            continue
        if chapter.number in chapters:
            r.error(file, None, "chapter", f"Chapter {chapter.number} appears in two files.")
        chapters[chapter.number] = chapter
    if not chapters and not r.errors:
        r.error(MANIFEST, None, "chapters", "A pack needs at least one chapter.")
    numbers = sorted(chapters)
    if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
        r.error(MANIFEST, None, "chapters", f"Chapters must follow each other, found {numbers}.")
    _references(r, files, cards, items)
    if r.errors or ruleset is None:
        return None, r.errors
    conversions = {c.id: c for c in ruleset.conversions}
    return ContentPack(ruleset, chapters, cards, items, habits, conversions), r.errors
