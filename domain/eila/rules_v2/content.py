"""Content packs: the cards, goals, items, habits and ruleset data of Eila, validated at load.

A pack is a folder with a ``pack.json`` manifest naming its files (chapters in order), so loading
never depends on directory listing order. Each file decodes through its Struct in
:mod:`domain.eila.rules_v2.content_files`, then :mod:`domain.eila.rules_v2.content_checks`
judges what no type can.
:func:`check_pack` reports every problem it finds, each naming the file, the card and the field;
:func:`load_pack` refuses a pack with any problem. Rules code imports the pack's types from here.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from domain.core.content_decode import ContentDecoder, FieldPath, Invalid, Problem
from domain.core.errors import ContentError
from domain.eila.rules_v2.content_checks import (
    check_card,
    check_chapter_cards,
    check_conversions,
    check_references,
)
from domain.eila.rules_v2.content_files import (
    Amounts,
    CardFile,
    CardsFile,
    ChapterFile,
    EffectFile,
    GoalSideFile,
    HabitFile,
    ItemsFile,
    LenientCards,
    PackFile,
    RulesetFile,
)
from domain.eila.rules_v2.content_types import (
    DESTINATIONS,
    EFFECT_KINDS,
    INTANGIBLE,
    RESOURCE_LABELS,
    RESOURCES,
    TANGIBLE,
    Card,
    Chapter,
    ContentPack,
    Conversion,
    Effect,
    GoalSide,
    Item,
    Option,
    Ruleset,
)

__all__ = [
    "DEFAULT_PACK",
    "DESTINATIONS",
    "EFFECT_KINDS",
    "INTANGIBLE",
    "RESOURCES",
    "RESOURCE_LABELS",
    "TANGIBLE",
    "Card",
    "Chapter",
    "ContentPack",
    "Conversion",
    "Effect",
    "GoalSide",
    "Item",
    "Option",
    "Ruleset",
    "check_pack",
    "load_pack",
]

T = TypeVar("T")

DEFAULT_PACK = Path(__file__).parents[1] / "packs" / "1"
"""The pack rules 2 were released with (eila/2+content.1)."""
MANIFEST = "pack.json"

_MANIFEST = ContentDecoder(PackFile)
_RULESET = ContentDecoder(RulesetFile)
_ITEMS = ContentDecoder(ItemsFile)
_ITEM = ContentDecoder(Item)
_HABITS = ContentDecoder(CardsFile)
_HABIT = ContentDecoder(HabitFile)
_CHAPTER = ContentDecoder(ChapterFile)
_CARD = ContentDecoder(CardFile)
_LENIENT_CARDS = msgspec.json.Decoder(LenientCards)


def check_pack(path: Path | str) -> list[ContentError]:
    """Every problem of the pack at ``path``; an empty list means it loads."""
    return _PackReader(Path(path)).read()[1]


def load_pack(path: Path | str = DEFAULT_PACK) -> ContentPack:
    pack, errors = _PackReader(Path(path)).read()
    if errors or pack is None:
        first = errors[0]
        more = f" ({len(errors) - 1} more problems follow it)" if len(errors) > 1 else ""
        raise ContentError(first.file, first.card, first.field, first.problem + more)
    return pack


class _PackReader:
    """One pass over a pack, collecting every problem instead of stopping at the first."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.errors: list[ContentError] = []
        self.cards: dict[str, Card] = {}
        self.files: dict[str, str] = {}
        """The file of each card built."""
        self.numbers: set[str] = set()
        """Every card number met, broken cards included."""
        self.item_ids: set[str] | None = None
        """Every item id met, broken items included; None when the items file is unreadable."""

    def read(self) -> tuple[ContentPack | None, list[ContentError]]:
        manifest = self._file(MANIFEST, _MANIFEST)
        if manifest is None:
            return None, self.errors
        ruleset = self._ruleset(manifest.ruleset)
        items = self._items(manifest.items)
        habits = self._habits(manifest.habits)
        chapters: dict[int, Chapter] = {}
        for file in manifest.chapters:
            chapter = self._chapter(file)
            if chapter is not None and chapter.number in chapters:
                problem = f"Chapter {chapter.number} appears in two files."
                self.errors.append(ContentError(file, None, "chapter", problem))
            elif chapter is not None:
                chapters[chapter.number] = chapter
        if not chapters and not self.errors:
            problem = "A pack needs at least one chapter."
            self.errors.append(ContentError(MANIFEST, None, "chapters", problem))
        numbers = sorted(chapters)
        if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            problem = f"Chapters must follow each other, found {numbers}."
            self.errors.append(ContentError(MANIFEST, None, "chapters", problem))
        self.errors += check_references(
            self.files, self.cards, self.numbers, self.item_ids, habits is not None
        )
        if self.errors or ruleset is None or items is None or habits is None:
            return None, self.errors
        conversions = {c.id: c for c in ruleset.conversions}
        return ContentPack(ruleset, chapters, self.cards, items, habits, conversions), self.errors

    def _ruleset(self, file: str) -> Ruleset | None:
        raw = self._file(file, _RULESET)
        if raw is None:
            return None
        self.errors += check_conversions(file, raw.conversions)
        nights = raw.night_submissions
        return Ruleset(
            raw.storage.tangible,
            raw.storage.intangible,
            raw.storage.fear,
            raw.time_track,
            raw.conversions,
            tuple(sorted((n.chapter, n.limit) for n in nights.chapters)),
            nights.default,
            raw.habits_join_green_deck_from_chapter,
        )

    def _items(self, file: str) -> dict[str, Item] | None:
        raw = self._file(file, _ITEMS)
        if raw is None:
            return None
        items: dict[str, Item] = {}
        self.item_ids = set()
        for index, data in enumerate(raw.items):
            try:
                item = _ITEM.decode(data)
            except Invalid as exc:
                item_id = _text(exc.value, "id")
                self._problems(file, item_id or f"items[{index}]", exc.problems)
                if item_id:
                    self.item_ids.add(item_id)
                continue
            if item.id in self.item_ids:
                problem = "This item id is used more than once."
                self.errors.append(ContentError(file, item.id, "id", problem))
            self.item_ids.add(item.id)
            items[item.id] = item
        return items

    def _habits(self, file: str) -> tuple[str, ...] | None:
        raw = self._file(file, _HABITS)
        if raw is None:
            return None
        built = [n for n in self._cards(file, raw.cards, _HABIT, None) if n in self.cards]
        return tuple(sorted(built, key=lambda h: int(h[1:])))

    def _chapter(self, file: str) -> Chapter | None:
        data = self._read(file)
        if data is None:
            return None
        raw = self._decode(file, data, _CHAPTER)
        if raw is None:
            # The cards of a chapter whose other fields are broken still get checked.
            # A file that is not JSON, or whose cards are no list, has been reported already.
            with contextlib.suppress(msgspec.DecodeError):
                self._cards(file, _LENIENT_CARDS.decode(data).cards, _CARD, None)
            return None
        colours = self._cards(file, raw.cards, _CARD, raw.chapter)
        self.errors += check_chapter_cards(file, raw.chapter, colours)
        own = sorted(number for number in colours if number in self.cards)
        return Chapter(
            raw.chapter,
            raw.title,
            () if raw.prologue is None else _amounts(raw.prologue.resources),
            _goal_side(raw.goal.normal),
            _goal_side(raw.goal.advanced),
            green=tuple(n for n in own if self.cards[n].colour == "green"),
            blue=tuple(n for n in own if self.cards[n].colour == "blue"),
            red=tuple(n for n in own if self.cards[n].colour == "red"),
        )

    def _cards(
        self,
        file: str,
        raws: tuple[msgspec.Raw, ...],
        decoder: ContentDecoder[CardFile] | ContentDecoder[HabitFile],
        chapter: int | None,
    ) -> dict[str, str | None]:
        """Decode, check and keep each card; the colour of every card met, broken or not."""
        colours: dict[str, str | None] = {}
        for index, data in enumerate(raws):
            raw: CardFile | HabitFile | None = None
            try:
                raw = decoder.decode(data)
            except Invalid as exc:
                number, colour = _text(exc.value, "number"), _text(exc.value, "colour")
                self._problems(file, number or f"cards[{index}]", exc.problems)
            else:
                number, colour = raw.number, raw.colour
            if not number:
                continue
            if number in self.numbers:
                problem = "This card number is used more than once."
                self.errors.append(ContentError(file, number, "number", problem))
                continue
            self.numbers.add(number)
            colours[number] = colour
            if raw is not None:
                self.errors += check_card(file, raw, chapter)
                card = _card(raw, chapter)
                if card is not None:
                    self.cards[number] = card
                    self.files[number] = file
        return colours

    def _file(self, file: str, decoder: ContentDecoder[T]) -> T | None:
        data = self._read(file)
        return None if data is None else self._decode(file, data, decoder)

    def _read(self, file: str) -> bytes | None:
        try:
            return (self.root / file).read_bytes()
        except FileNotFoundError:
            problem = f"The file is missing from the pack at {self.root}."
            self.errors.append(ContentError(file, None, None, problem))
            return None

    def _decode(self, file: str, data: bytes, decoder: ContentDecoder[T]) -> T | None:
        try:
            return decoder.decode(data)
        except Invalid as exc:
            self._problems(file, None, exc.problems)
        except msgspec.DecodeError as exc:
            problem = f"The file is not valid JSON ({exc})."
            self.errors.append(ContentError(file, None, None, problem))
        return None

    def _problems(self, file: str, card: str | None, problems: list[Problem]) -> None:
        for problem in problems:
            self.errors.append(ContentError(file, card, _field(problem.path), problem.message))


def _card(raw: CardFile | HabitFile, chapter: int | None) -> Card | None:
    """The card the rules read; None when one of its effects is malformed."""
    options = []
    for option in raw.options:
        effects = [_effect(e) for e in option.effects]
        if None in effects:
            return None
        options.append(
            Option(
                option.letter,
                option.label,
                option.requires.items,
                tuple(e for e in effects if e is not None),
                option.destination,
            )
        )
    return Card(raw.number, raw.colour, raw.name, raw.text, tuple(options), chapter)


def _effect(raw: EffectFile) -> Effect | None:
    match raw:
        case EffectFile(gain=str(resource), max=int(amount)):
            return Effect("gain", resource=resource, amount=amount)
        case EffectFile(lose=str(resource), amount=int(amount)):
            return Effect("lose", resource=resource, amount=amount)
        case EffectFile(blue=str(card)):
            return Effect("blue", card=card)
        case EffectFile(red=str(card)):
            return Effect("red", card=card)
        case EffectFile(habit=str(card)):
            return Effect("habit", card=card)
        case EffectFile(item=tuple(items)):
            return Effect("item", items=items)
        case EffectFile(discard_item=tuple(items), count=int(count)):
            return Effect("discard_item", items=items, count=count)
        case EffectFile(heart=int(amount)):
            return Effect("heart", amount=amount)
        case EffectFile(broken_heart=int(amount)):
            return Effect("broken_heart", amount=amount)
    return None


def _goal_side(raw: GoalSideFile) -> GoalSide:
    return GoalSide(_amounts(raw.submit), raw.hearts)


def _amounts(amounts: Amounts) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(amounts.items(), key=lambda pair: RESOURCES.index(pair[0])))


def _text(value: Any, key: str) -> str | None:
    """``value[key]`` of an entry that does not decode, when it is a string to name it by."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def _field(path: FieldPath) -> str | None:
    """``options[0].effects[1].amount`` from the path of keys and indices."""
    text = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)
    return text.removeprefix(".") or None
