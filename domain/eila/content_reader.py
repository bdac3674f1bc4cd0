"""Reading a content pack: one pass over its files, each decoded through its Struct, every
problem collected (with the file, the card and the field) instead of stopping at the first."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from domain.core.content_decode import ContentDecoder, FieldPath, Invalid, Problem
from domain.core.errors import ContentError
from domain.eila import content_build as build
from domain.eila.content_checks import (
    Known,
    check_card,
    check_chapter_cards,
    check_conversions,
    check_references,
    effect_references,
    effects_problems,
)
from domain.eila.content_elements import check_advanced, check_elements
from domain.eila.content_files import (
    CardFile,
    CardsFile,
    ChapterFile,
    EnemiesFile,
    HabitFile,
    ItemsFile,
    LenientCards,
    PackFile,
    QuizFile,
    RulesetFile,
    SupportsFile,
)
from domain.eila.content_types import (
    Card,
    Chapter,
    ContentPack,
    Die,
    Effect,
    Enemy,
    Item,
    QuizCard,
    Ruleset,
    Support,
)

T = TypeVar("T")

MANIFEST = "pack.json"

_MANIFEST = ContentDecoder(PackFile)
_RULESET = ContentDecoder(RulesetFile)
_ITEMS = ContentDecoder(ItemsFile)
_ITEM = ContentDecoder(Item)
_SUPPORTS = ContentDecoder(SupportsFile)
_SUPPORT = ContentDecoder(Support)
_ENEMIES = ContentDecoder(EnemiesFile)
_ENEMY = ContentDecoder(Enemy)
_CARDS = ContentDecoder(CardsFile)
_HABIT = ContentDecoder(HabitFile)
_CHAPTER = ContentDecoder(ChapterFile)
_CARD = ContentDecoder(CardFile)
_QUIZ = ContentDecoder(QuizFile)
_LENIENT_CARDS = msgspec.json.Decoder(LenientCards)


class PackReader:
    """One pass over a pack, collecting every problem instead of stopping at the first."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.errors: list[ContentError] = []
        self.cards: dict[str, Card] = {}
        self.advanced: dict[str, Card] = {}
        self.advanced_files: dict[str, str] = {}
        """The file of each replacement card built."""
        self.quizzes: dict[str, QuizCard] = {}
        self.files: dict[str, str] = {}
        """The file of each card and quiz card built."""
        self.numbers: set[str] = set()
        """Every card number met, broken cards included."""
        self.ids: dict[str, set[str]] = {}
        """Every item, support and enemy id met, broken entries included, by kind."""
        self.quiz_chapter: dict[str, int] = {}
        self.roles: dict[str, str] = {}
        """The file of the items, habits and supports, by role."""

    def read(self) -> tuple[ContentPack | None, list[ContentError]]:
        manifest = self._file(MANIFEST, _MANIFEST)
        if manifest is None:
            return None, self.errors
        self.roles = {"items": manifest.items, "habits": manifest.habits}
        self.roles["supports"] = manifest.supports or "supports"
        ruleset = self._ruleset(manifest.ruleset)
        items = self._entries(manifest.items, _ITEMS, _ITEM, "items")
        supports = (
            {}
            if manifest.supports is None
            else self._entries(manifest.supports, _SUPPORTS, _SUPPORT, "supports")
        )
        enemies = (
            {}
            if manifest.enemies is None
            else self._entries(manifest.enemies, _ENEMIES, _ENEMY, "enemies")
        )
        habits = self._habits(manifest.habits)
        chapters: dict[int, Chapter] = {}
        chapter_files: dict[int, str] = {}
        for file in manifest.chapters:
            chapter = self._chapter(file)
            if chapter is not None and chapter.number in chapters:
                problem = f"Chapter {chapter.number} appears in two files."
                self.errors.append(ContentError(file, None, "chapter", problem))
            elif chapter is not None:
                chapters[chapter.number] = chapter
                chapter_files[chapter.number] = file
        if not chapters and not self.errors:
            problem = "A pack needs at least one chapter."
            self.errors.append(ContentError(MANIFEST, None, "chapters", problem))
        numbers = sorted(chapters)
        if numbers and numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            problem = f"Chapters must follow each other, found {numbers}."
            self.errors.append(ContentError(MANIFEST, None, "chapters", problem))
        for number, chapter in chapters.items():
            self.errors += check_elements(chapter_files[number], chapter, self.cards)
        if manifest.advanced is not None:
            self._advanced(manifest.advanced)
        known = Known(
            numbers=self.numbers,
            items=None if items is None else self.ids["items"],
            supports=None if supports is None else self.ids.get("supports", set()),
            enemies=None if enemies is None else self.ids.get("enemies", set()),
            habits=habits is not None,
            dice=set() if ruleset is None else set(ruleset.dice),
            chapters=chapters,
        )
        self.errors += check_references(self.files, self.cards, known)
        self.errors += check_references(self.advanced_files, self.advanced, known, among=self.cards)
        for quiz_id, quiz in sorted(self.quizzes.items()):
            chapter_number = self.quiz_chapter[quiz_id]
            self.errors += [
                ContentError(self.files[quiz_id], quiz_id, field, problem)
                for field, problem in effect_references(
                    quiz.reward, "reward", chapter_number, self.cards, known
                )
            ]
        for item_id, item in sorted((items or {}).items()):
            for part in item.needs:
                if part not in (items or {}):
                    problem = f"Unknown item {part!r}."
                    self.errors.append(ContentError(manifest.items, item_id, "needs", problem))
        fights = any(e.kind == "fight" for e in _all_effects(self))
        if ruleset is not None and "red" not in ruleset.dice and (supports or fights):
            problem = "Combats need Eila's red die among the ruleset's dice."
            self.errors.append(ContentError(manifest.ruleset, None, "combat.dice", problem))
        if self.errors or ruleset is None or items is None or habits is None:
            return None, self.errors
        if supports is None or enemies is None:
            return None, self.errors
        conversions = {c.id: c for c in ruleset.conversions}
        pack = ContentPack(
            ruleset,
            chapters,
            self.cards,
            items,
            habits,
            conversions,
            supports=supports,
            enemies=enemies,
            quizzes=self.quizzes,
            advanced=self.advanced,
        )
        return pack, self.errors

    def _ruleset(self, file: str) -> Ruleset | None:
        raw = self._file(file, _RULESET)
        if raw is None:
            return None
        self.errors += check_conversions(file, raw.conversions)
        nights = raw.night_submissions
        dice: dict[str, Die] = {}
        boost = 2
        if raw.combat is not None:
            boost = raw.combat.energy_boost
            dice = {name: Die(name, faces) for name, faces in sorted(raw.combat.dice.items())}
        return Ruleset(
            raw.storage.tangible,
            raw.storage.intangible,
            raw.storage.fear,
            raw.time_track,
            raw.conversions,
            tuple(sorted((n.chapter, n.limit) for n in nights.chapters)),
            nights.default,
            raw.habits_join_green_deck_from_chapter,
            boost,
            dice,
        )

    def _entries(
        self, file: str, outer: ContentDecoder[Any], inner: ContentDecoder[T], field: str
    ) -> dict[str, T] | None:
        """Items, supports or enemies by id; None when the file is unreadable."""
        raw = self._file(file, outer)
        if raw is None:
            return None
        found: dict[str, T] = {}
        ids = self.ids.setdefault(field, set())
        for index, data in enumerate(getattr(raw, field)):
            try:
                entry = inner.decode(data)
            except Invalid as exc:
                entry_id = _text(exc.value, "id")
                self._problems(file, entry_id or f"{field}[{index}]", exc.problems)
                if entry_id:
                    ids.add(entry_id)
                continue
            entry_id = entry.id  # type: ignore[attr-defined]
            if entry_id in found:
                problem = "This id is used more than once."
                self.errors.append(ContentError(file, entry_id, "id", problem))
            found[entry_id] = entry
            ids.add(entry_id)
        return found

    def _habits(self, file: str) -> tuple[str, ...] | None:
        raw = self._file(file, _CARDS)
        if raw is None:
            return None
        built = [n for n in self._cards(file, raw.cards, _HABIT, None) if n in self.cards]
        return tuple(sorted(built, key=lambda h: int(h[1:])))

    def _advanced(self, file: str) -> None:
        raw = self._file(file, _CARDS)
        if raw is None:
            return
        found: dict[str, Card] = {}
        for index, data in enumerate(raw.cards):
            try:
                card_raw = _CARD.decode(data)
            except Invalid as exc:
                self._problems(file, _text(exc.value, "number") or f"cards[{index}]", exc.problems)
                continue
            number = card_raw.number
            chapter = int(number[0]) if number[0].isdigit() else None
            if number in found:
                problem = "This card number is used more than once."
                self.errors.append(ContentError(file, number, "number", problem))
                continue
            self.errors += check_card(file, card_raw, chapter)
            card = build.card(card_raw, chapter)
            if card is not None:
                found[number] = card
                self.files.setdefault(number, file)
                self.advanced_files[number] = file
        self.errors += check_advanced(file, found, self.cards)
        self.advanced = found

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
        night = build.effects_of(raw.night)
        for field, problem in effects_problems(raw.night, "night"):
            self.errors.append(ContentError(file, None, field, problem))
        quizzes = self._quizzes(file, raw.quizzes)
        for deck in quizzes.values():
            self.quiz_chapter.update(dict.fromkeys(deck, raw.chapter))
        own = sorted(number for number in colours if number in self.cards)

        def of(colour: str) -> tuple[str, ...]:
            return tuple(n for n in own if self.cards[n].colour == colour)

        return Chapter(
            raw.chapter,
            raw.title,
            () if raw.prologue is None else build.amounts(raw.prologue.resources),
            build.goal_side(raw.goal.normal),
            build.goal_side(raw.goal.advanced),
            green=of("green"),
            blue=of("blue"),
            red=of("red"),
            locations=of("location"),
            night=night or (),
            quizzes=quizzes,
            mine=None if raw.mine is None else build.mine(raw.mine),
            markets=tuple(build.market(m) for m in raw.markets),
            trail=()
            if raw.trail is None
            else (raw.trail, *(n for n in of("trail") if n != raw.trail)),
        )

    def _quizzes(self, file: str, raws: tuple[msgspec.Raw, ...]) -> dict[str, tuple[str, ...]]:
        decks: dict[str, list[str]] = {}
        for index, data in enumerate(raws):
            try:
                raw = _QUIZ.decode(data)
            except Invalid as exc:
                self._problems(file, _text(exc.value, "id") or f"quizzes[{index}]", exc.problems)
                continue
            if raw.id in self.quizzes or raw.id in self.numbers:
                problem = "This quiz id is used more than once."
                self.errors.append(ContentError(file, raw.id, "id", problem))
                continue
            if raw.answer not in raw.choices:
                problem = f"The answer {raw.answer!r} is none of the choices."
                self.errors.append(ContentError(file, raw.id, "answer", problem))
            for field, problem in effects_problems(raw.reward, "reward"):
                self.errors.append(ContentError(file, raw.id, field, problem))
            reward = build.effects_of(raw.reward)
            if reward is None:
                continue
            quiz = build.quiz(raw, reward)
            self.quizzes[raw.id] = quiz
            self.files[raw.id] = file
            decks.setdefault(quiz.deck, []).append(raw.id)
        return {deck: tuple(sorted(ids, key=_quiz_order)) for deck, ids in sorted(decks.items())}

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
                card = build.card(raw, chapter)
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


def _all_effects(reader: PackReader) -> list[Effect]:
    found: list[Effect] = []
    stack = [e for c in reader.cards.values() for o in c.options for e in o.effects]
    while stack:
        effect = stack.pop()
        found.append(effect)
        stack += [*effect.won, *effect.lost, *effect.then]
    return found


def _quiz_order(quiz_id: str) -> tuple[str, int]:
    deck, _, number = quiz_id.partition("-")
    return deck, int(number)


def _text(value: Any, key: str) -> str | None:
    """``value[key]`` of an entry that does not decode, when it is a string to name it by."""
    found = value.get(key) if isinstance(value, dict) else None
    return found if isinstance(found, str) else None


def _field(path: FieldPath) -> str | None:
    """``options[0].effects[1].amount`` from the path of keys and indices."""
    text = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in path)
    return text.removeprefix(".") or None
