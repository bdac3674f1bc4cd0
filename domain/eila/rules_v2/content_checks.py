"""The rules of a content pack that no type can say, each problem a :class:`ContentError`.

Card numbering, option lettering, what an effect symbol is made of, chapter 0's card set, and
references from cards to other cards, to items and to habits.
"""

from __future__ import annotations

import msgspec

from domain.core.errors import ContentError
from domain.eila.rules_v2.content_files import CardFile, EffectFile, HabitFile, OptionFile
from domain.eila.rules_v2.content_types import EFFECT_KINDS, Card, Conversion

# The set-up the rulebook lists for chapter 0: which numbers, which colours.
CHAPTER_ZERO = {
    **{f"{n:03d}": "green" for n in range(1, 6)},
    **{f"{n:03d}": "blue" for n in range(6, 9)},
    **{f"{n:03d}": "red" for n in range(9, 12)},
}
# The field an effect needs besides its kind: a gain's maximum, a loss's amount, a discard's count.
COMPANIONS = {"gain": "max", "lose": "amount", "discard_item": "count"}


def check_card(file: str, card: CardFile | HabitFile, chapter: int | None) -> list[ContentError]:
    """The problems of one card; ``chapter`` is None for a habit card."""
    errors: list[ContentError] = []

    def fail(field: str, problem: str) -> None:
        errors.append(ContentError(file, card.number, field, problem))

    if chapter is not None and card.number[0] != str(chapter):
        fail("number", f"A chapter {chapter} card is numbered {chapter}01, ...")
    for i, option in enumerate(card.options):
        for j, effect in enumerate(option.effects):
            for field, problem in _effect_problems(effect):
                fail(f"options[{i}].effects[{j}]{field}", problem)
    letters = [o.letter for o in card.options]
    if letters != [chr(ord("A") + i) for i in range(len(letters))]:
        fail("options", f"Options must be lettered A, B, C, ... in order, found {letters}.")
    for option in card.options:
        if option.destination == "return" and card.colour == "green":
            problem = "A green card cannot return to its deck: that deck is the upcoming deck."
            fail(f"option {option.letter}.destination", problem)
    if not any(_always_open(o) for o in card.options):
        problem = (
            "At least one option must have no prerequisite, so the card can always be resolved."
        )
        fail("options", problem)
    return errors


def _effect_problems(effect: EffectFile) -> list[tuple[str, str]]:
    """``(".field" or "", problem)`` pairs: one kind per symbol, with its companion and no other."""
    present = {k: v for k, v in msgspec.structs.asdict(effect).items() if v is not None}
    kinds = [k for k in present if k in EFFECT_KINDS]
    if len(kinds) != 1:
        known = ", ".join(EFFECT_KINDS)
        return [("", f"An effect needs exactly one kind out of {known}; found {sorted(present)}.")]
    kind = kinds[0]
    wanted = COMPANIONS.get(kind)
    found = [
        (f".{field}", f"A {kind} effect takes no {field}.")
        for field in COMPANIONS.values()
        if field in present and field != wanted
    ]
    if wanted is not None and wanted not in present:
        found.append((f".{wanted}", "This required field is missing."))
    if kind == "discard_item" and effect.discard_item and effect.count:
        listed = len(effect.discard_item)
        if effect.count > min(2, listed):
            found.append((".count", f"Cannot discard {effect.count} of {listed} listed items."))
    return found


def _always_open(option: OptionFile) -> bool:
    return not option.requires.items and not any(
        e.lose is not None and e.lose != "fear" for e in option.effects
    )


def check_chapter_cards(
    file: str, chapter: int, colours: dict[str, str | None]
) -> list[ContentError]:
    """The problems of a chapter's card set, from every card's number and colour."""
    errors: list[ContentError] = []
    if chapter == 0:
        for wanted, colour in CHAPTER_ZERO.items():
            if wanted not in colours:
                errors.append(ContentError(file, wanted, None, "Chapter 0 must contain this card."))
            elif colours[wanted] != colour:
                problem = f"Chapter 0 card {wanted} must be {colour}."
                errors.append(ContentError(file, wanted, "colour", problem))
        for extra in sorted(set(colours) - set(CHAPTER_ZERO)):
            problem = "Chapter 0 holds only cards 001 to 011."
            errors.append(ContentError(file, extra, None, problem))
    if "green" not in colours.values():
        problem = "A chapter needs at least one green card for its upcoming deck."
        errors.append(ContentError(file, None, "cards", problem))
    return errors


def check_conversions(file: str, conversions: tuple[Conversion, ...]) -> list[ContentError]:
    errors: list[ContentError] = []
    for index, conversion in enumerate(conversions):
        if any(c.id == conversion.id for c in conversions[:index]):
            problem = f"The conversion id {conversion.id!r} is used twice."
            errors.append(ContentError(file, None, f"conversions[{index}].id", problem))
    return errors


def check_references(
    files: dict[str, str],
    cards: dict[str, Card],
    numbers: set[str],
    items: set[str] | None,
    habits: bool,
) -> list[ContentError]:
    """Every card's references to other cards and to items.

    ``numbers`` holds every card number in the pack, including cards too broken to build, whose
    own problems are reported already; ``items`` is None, and ``habits`` False, when that file
    could not be read at all, so references into it cannot be judged.
    """
    errors: list[ContentError] = []
    for number, card in sorted(cards.items()):
        for field, problem in _references(card, cards, numbers, items, habits):
            errors.append(ContentError(files[number], number, field, problem))
    return errors


def _references(
    card: Card, cards: dict[str, Card], numbers: set[str], items: set[str] | None, habits: bool
) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for option in card.options:
        where = f"option {option.letter}"
        for item in option.requires_items:
            if items is not None and item not in items:
                found.append((f"{where}.requires.items", f"Unknown item {item!r}."))
        for index, effect in enumerate(option.effects):
            field = f"{where}.effects[{index}]"
            for item in effect.items:
                if items is not None and item not in items:
                    found.append((field, f"Unknown item {item!r}."))
            target = cards.get(effect.card)
            if effect.kind in ("blue", "red"):
                if target is None and effect.card not in numbers:
                    found.append((field, f"Unknown card {effect.card!r}."))
                elif target is not None and target.colour != effect.kind:
                    problem = f"Card {effect.card} is {target.colour}, not {effect.kind}."
                    found.append((field, problem))
                elif target is not None and card.chapter not in (None, target.chapter):
                    found.append((field, f"Card {effect.card} is in another chapter's box."))
            if effect.kind == "habit" and habits and effect.card not in numbers:
                found.append((field, f"Unknown habit card {effect.card!r}."))
    return found
