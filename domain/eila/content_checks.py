"""The rules of a content pack that no type can say, each problem a :class:`ContentError`.

Card numbering, option lettering, what an effect symbol is made of, chapter 0's card set, and
references from cards to other cards, to items, supports, enemies, dice and chapter elements.
Chapter elements (the mine, markets, quiz decks) are judged in
:mod:`domain.eila.content_elements`; what the content makes unreachable in
:mod:`domain.eila.content_reach`.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from domain.core.errors import ContentError
from domain.eila.content_files import CardFile, EffectFile, HabitFile, OptionFile
from domain.eila.content_types import EFFECT_KINDS, Card, Chapter, Condition, Conversion, Effect

# The set-up the rulebook lists for chapter 0: which numbers, which colours.
CHAPTER_ZERO = {
    **{f"{n:03d}": "green" for n in range(1, 6)},
    **{f"{n:03d}": "blue" for n in range(6, 9)},
    **{f"{n:03d}": "red" for n in range(9, 12)},
}
# The fields an effect may have besides its kind, and which of them it must have.
COMPANIONS = {
    "gain": ({"max"}, {"max"}),
    "lose": ({"amount"}, {"amount"}),
    "discard_item": ({"count"}, {"count"}),
    "pay_or_hp": ({"amount"}, {"amount"}),
    "fight": ({"won", "lost", "fight_on"}, set()),
    "if": ({"then"}, {"then"}),
}
_COMPANION_FIELDS = {"max", "amount", "count", "won", "lost", "fight_on", "then"}
_KIND_FIELDS = {kind: ("if_" if kind == "if" else kind) for kind in EFFECT_KINDS}


def check_card(file: str, card: CardFile | HabitFile, chapter: int | None) -> list[ContentError]:
    """The problems of one card; ``chapter`` is None for a habit card."""
    errors: list[ContentError] = []

    def fail(field: str, problem: str) -> None:
        errors.append(ContentError(file, card.number, field, problem))

    if chapter is not None and card.number[0].isdigit() and card.number[0] != str(chapter):
        fail("number", f"A chapter {chapter} card is numbered {chapter}01, ...")
    if (
        chapter is not None
        and not card.number[0].isdigit()
        and card.colour
        not in (
            "market",
            "trail",
        )
    ):
        fail("number", "Only market and trail cards are numbered with a letter.")
    for i, option in enumerate(card.options):
        for field, problem in effects_problems(option.effects, f"options[{i}].effects"):
            fail(field, problem)
    letters = [o.letter for o in card.options]
    if letters != [chr(ord("A") + i) for i in range(len(letters))]:
        fail("options", f"Options must be lettered A, B, C, ... in order, found {letters}.")
    for option in card.options:
        if option.destination == "return" and card.colour == "green":
            problem = "A green card cannot return to its deck: that deck is the upcoming deck."
            fail(f"option {option.letter}.destination", problem)
    if card.colour != "trail" and not any(_always_open(o) for o in card.options):
        problem = (
            "At least one option must have no prerequisite, so the card can always be resolved."
        )
        fail("options", problem)
    return errors


def effects_problems(effects: tuple[EffectFile, ...], where: str) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for j, effect in enumerate(effects):
        field = f"{where}[{j}]"
        found += [(field + sub, problem) for sub, problem in _effect_problems(effect)]
        for branch in ("won", "lost", "then"):
            nested = getattr(effect, branch)
            if nested:
                found += effects_problems(nested, f"{field}.{branch}")
    return found


def _effect_problems(effect: EffectFile) -> list[tuple[str, str]]:
    """``(".field" or "", problem)`` pairs: one kind per symbol, with its companions only."""
    present = {k for k, v in msgspec.structs.asdict(effect).items() if v is not None}
    kinds = [kind for kind, field in _KIND_FIELDS.items() if field in present]
    if len(kinds) != 1:
        known = ", ".join(EFFECT_KINDS)
        names = sorted("if" if p == "if_" else p for p in present)
        return [("", f"An effect needs exactly one kind out of {known}; found {names}.")]
    kind = kinds[0]
    allowed, required = COMPANIONS.get(kind, (set(), set()))
    found = [
        (f".{field}", f"A {kind} effect takes no {field}.")
        for field in sorted(_COMPANION_FIELDS)
        if field in present and field not in allowed
    ]
    found += [
        (f".{field}", "This required field is missing.") for field in sorted(required - present)
    ]
    if kind == "discard_item" and effect.discard_item and effect.count:
        listed = len(effect.discard_item)
        if effect.count > min(2, listed):
            found.append((".count", f"Cannot discard {effect.count} of {listed} listed items."))
    if kind == "fight" and effect.fight_on and not any(e.broken_heart for e in effect.lost or ()):
        problem = (
            "Fighting on despite injuries needs a lost branch that costs HP, or it never ends."
        )
        found.append((".lost", problem))
    return found


def _always_open(option: OptionFile) -> bool:
    return option.requires == Condition() and not any(
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


class Known(msgspec.Struct):
    """What a pack holds, for judging references; a None set could not be read at all."""

    numbers: set[str]
    """Every card number in the pack, including cards too broken to build."""
    items: set[str] | None
    supports: set[str] | None
    enemies: set[str] | None
    habits: bool
    dice: set[str]
    chapters: dict[int, Chapter]


def check_references(
    files: dict[str, str],
    cards: dict[str, Card],
    known: Known,
    *,
    among: dict[str, Card] | None = None,
) -> list[ContentError]:
    """Every card's references to other cards, items, supports, enemies, dice and elements.

    ``among`` holds the cards that references name (``cards`` itself when None): Advanced Mode's
    replacements are played among the pack's own cards, so they are judged against those.
    """
    errors: list[ContentError] = []
    for number, card in sorted(cards.items()):
        for field, problem in _references(card, cards if among is None else among, known):
            errors.append(ContentError(files[number], number, field, problem))
    return errors


def walk(effects: tuple[Effect, ...], where: str) -> Iterator[tuple[str, Effect]]:
    """Every effect of ``effects`` with its field path, nested branches and clauses included."""
    for index, effect in enumerate(effects):
        field = f"{where}[{index}]"
        yield field, effect
        yield from walk(effect.won, f"{field}.won")
        yield from walk(effect.lost, f"{field}.lost")
        yield from walk(effect.then, f"{field}.then")


def condition_problems(condition: Condition, known: Known) -> list[str]:
    found = [
        f"Unknown item {i!r}."
        for i in condition.items
        if known.items is not None and i not in known.items
    ]
    found += [
        f"Unknown support card {s!r}."
        for s in condition.supports
        if known.supports is not None and s not in known.supports
    ]
    for ending in condition.endings:
        chapter, letter = ending[:-1], ending[-1:]
        if not chapter.isdigit() or int(chapter) not in known.chapters or not letter.isupper():
            found.append(f"Unknown ending {ending!r}: a chapter and a letter, such as 2B.")
    return found


def _references(card: Card, cards: dict[str, Card], known: Known) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    chapter = known.chapters.get(card.chapter) if card.chapter is not None else None
    for option in card.options:
        where = f"option {option.letter}"
        found += [(f"{where}.requires", p) for p in condition_problems(option.requires, known)]
        if option.requires.shelter and chapter is not None and not _has_shelter(chapter, cards):
            found.append((f"{where}.requires.shelter", "This chapter has no shelter to be in."))
        found += effect_references(option.effects, f"{where}.effects", card.chapter, cards, known)
    return found


def effect_references(
    effects: tuple[Effect, ...],
    where: str,
    chapter: int | None,
    cards: dict[str, Card],
    known: Known,
) -> list[tuple[str, str]]:
    """``(field, problem)`` for every reference of ``effects`` that names nothing in the pack."""
    box = known.chapters.get(chapter) if chapter is not None else None
    return [
        (field, problem)
        for field, effect in walk(effects, where)
        for problem in _effect_references(chapter, effect, cards, known, box)
    ]


def _has_shelter(chapter: Chapter, cards: dict[str, Card]) -> bool:
    if chapter.mine is not None and any(
        g.shelter for t in chapter.mine.tiles.values() for g in t.grids
    ):
        return True
    return any(cards[n].shelter for n in chapter.trail if n in cards)


def _effect_references(
    number: int | None,
    effect: Effect,
    cards: dict[str, Card],
    known: Known,
    chapter: Chapter | None,
) -> list[str]:
    found: list[str] = []
    for item in effect.items:
        if known.items is not None and item not in known.items:
            found.append(f"Unknown item {item!r}.")
    target = cards.get(effect.card)
    match effect.kind:
        case "blue" | "red":
            if target is None and effect.card not in known.numbers:
                found.append(f"Unknown card {effect.card!r}.")
            elif target is not None and target.colour != effect.kind:
                found.append(f"Card {effect.card} is {target.colour}, not {effect.kind}.")
            elif target is not None and number not in (None, target.chapter):
                found.append(f"Card {effect.card} is in another chapter's box.")
        case "habit" if known.habits and effect.card not in known.numbers:
            found.append(f"Unknown habit card {effect.card!r}.")
        case "support" if known.supports is not None and effect.card not in known.supports:
            found.append(f"Unknown support card {effect.card!r}.")
        case "fight" if known.enemies is not None and effect.name not in known.enemies:
            found.append(f"Unknown enemy {effect.name!r}.")
        case "die" if effect.name not in known.dice or effect.name == "red":
            found.append(f"Unknown die {effect.name!r}: the ruleset's dice other than red.")
        case "if":
            found += condition_problems(effect.when, known)
        case "quiz" if chapter is None or effect.name not in chapter.quizzes:
            found.append(f"This chapter has no quiz deck {effect.name!r}.")
        case "market" if chapter is None or effect.name not in [m.name for m in chapter.markets]:
            found.append(f"This chapter has no market {effect.name!r}.")
        case "move" | "trigger" | "cover" if chapter is None or chapter.mine is None:
            found.append(f"A {effect.kind} effect needs a chapter with a mine.")
        case "onward" if target is None or target.colour != "trail":
            found.append(f"Card {effect.card!r} is no trail card of this pack.")
        case "onward" if target is not None and target.chapter != number:
            found.append(f"Card {effect.card} is in another chapter's box.")
        case "location_action" if chapter is None or not chapter.trail:
            found.append("A location action needs a chapter with trail cards.")
    return found
