"""What a pack's content makes unreachable: items, support cards, habit cards and event cards
that no option that can be chosen ever brings into play, and options whose prerequisites can
never be met.

The search runs chapter by chapter in each mode (Advanced Mode's replacement cards change what
is fetched and acquired), since items and supports acquired in a chapter stay for later ones and
habit cards fetched once come back. It is generous where play decides (any option of a reachable
card may be chosen, every fight may be won or lost, every ``if`` clause whose condition can hold
may run), so what it reports truly cannot happen.
"""

from __future__ import annotations

from collections.abc import Iterable

from domain.core.errors import ContentError
from domain.eila.content_types import Chapter, Condition, ContentPack, Effect

MODES = ("normal", "advanced")


class _Reach:
    """What one mode's playthrough of the whole pack can bring into play."""

    def __init__(self, pack: ContentPack, mode: str) -> None:
        self.pack = pack
        self.mode = mode
        self.items: set[str] = set()
        self.supports: set[str] = set()
        self.habits: set[str] = set()
        self.endings: set[str] = set()
        self.cards: set[str] = set()
        self.blocked: dict[tuple[str, str], tuple[int, Condition]] = {}
        """Options never open, by (card, letter): the chapter and what they require."""
        self.opened: set[tuple[str, str]] = set()

    def run(self) -> None:
        for number in self.pack.chapter_numbers:
            self._chapter(self.pack.chapters[number])

    def _chapter(self, chapter: Chapter) -> None:
        shelter = _has_shelter(self.pack, chapter)
        while True:
            before = self._size()
            cards = self._cards_in_play(chapter)
            for number in sorted(cards):
                for option in self.pack.card(number, self.mode).options:
                    if self._open(option.requires, shelter):
                        self.opened.add((number, option.letter))
                        self._take(option.effects, chapter, shelter)
                    else:
                        self.blocked.setdefault(
                            (number, option.letter), (chapter.number, option.requires)
                        )
            if self._size() == before:
                break
        for key in list(self.blocked):
            if key in self.opened:
                del self.blocked[key]

    def _size(self) -> int:
        return sum(map(len, (self.items, self.supports, self.habits, self.endings, self.cards)))

    def _cards_in_play(self, chapter: Chapter) -> set[str]:
        found = set(chapter.green) | self.habits
        found |= {
            n
            for n in self.cards
            if n in self.pack.cards and self.pack.cards[n].chapter == chapter.number
        }
        if chapter.trail:
            found.add(chapter.trail[0])
        self.cards |= found
        return found

    def _open(self, condition: Condition, shelter: bool) -> bool:
        return (
            set(condition.items) <= self.items
            and set(condition.supports) <= self.supports
            and set(condition.endings) <= self.endings
            and (shelter or not condition.shelter)
        )

    def _take(self, effects: Iterable[Effect], chapter: Chapter, shelter: bool) -> None:
        for effect in effects:
            match effect.kind:
                case "item":
                    self.items |= set(effect.items)
                case "support":
                    self.supports.add(effect.card)
                case "habit":
                    self.habits.add(effect.card)
                case "blue" | "red" | "onward":
                    self.cards.add(effect.card)
                case "ending":
                    self.endings.add(f"{chapter.number}{effect.name}")
                case "trigger":
                    self.cards |= set(chapter.locations)
                case "market":
                    self.cards |= {
                        n for m in chapter.markets if m.name == effect.name for n in m.cards
                    }
                case "quiz":
                    for quiz in chapter.quizzes.get(effect.name, ()):
                        self._take(self.pack.quizzes[quiz].reward, chapter, shelter)
                case "fight":
                    self._take((*effect.won, *effect.lost), chapter, shelter)
                case "if" if self._open(effect.when, shelter):
                    self._take(effect.then, chapter, shelter)


def _has_shelter(pack: ContentPack, chapter: Chapter) -> bool:
    if chapter.mine is not None:
        tiles = chapter.mine.tiles.values()
        if any(grid.shelter for tile in tiles for grid in tile.grids):
            return True
    return any(pack.cards[n].shelter for n in chapter.trail)


def unreachable(
    pack: ContentPack, roles: dict[str, str], files: dict[str, str]
) -> list[ContentError]:
    """Every item, support, habit and event card that no mode's play can bring into play, and
    every option that can never be chosen; ``roles`` names the items, habits and supports files
    and ``files`` the file of each card.
    """
    reaches = {mode: _Reach(pack, mode) for mode in MODES}
    for reach in reaches.values():
        reach.run()
    errors: list[ContentError] = []

    def missing(found: Iterable[str], attribute: str) -> list[tuple[str, str]]:
        out = []
        for key in found:
            modes = [m for m in MODES if key not in getattr(reaches[m], attribute)]
            if modes:
                out.append((key, "" if len(modes) == 2 else f" in {modes[0]} mode"))
        return out

    for item, where in missing(sorted(pack.items), "items"):
        problem = f"This item can never be acquired{where}: no option that can be chosen does."
        errors.append(ContentError(roles["items"], item, None, problem))
    for support, where in missing(sorted(pack.supports), "supports"):
        problem = f"This support card can never be acquired{where}."
        errors.append(ContentError(roles["supports"], support, None, problem))
    for habit, where in missing(pack.habits, "habits"):
        problem = f"This habit card is never fetched{where}: no option that can be chosen does."
        errors.append(ContentError(roles["habits"], habit, None, problem))
    for number, where in missing(_event_cards(pack), "cards"):
        card = pack.cards[number]
        problem = f"This {card.colour} card never comes into play{where}."
        errors.append(ContentError(files[number], number, None, problem))
    blocked = sorted({key for reach in reaches.values() for key in reach.blocked})
    for number, letter in blocked:
        modes = [
            m
            for m in MODES
            if (number, letter) in reaches[m].blocked and number in reaches[m].cards
        ]
        if not modes:
            continue
        chapter, requires = reaches[modes[0]].blocked[(number, letter)]
        why = _why(pack, reaches[modes[0]], requires, chapter)
        where = "" if len(modes) == 2 else f" in {modes[0]} mode"
        problem = f"Option {letter} can never be chosen{where}: {why}."
        errors.append(ContentError(files[number], number, f"option {letter}.requires", problem))
    return errors


def _event_cards(pack: ContentPack) -> list[str]:
    return sorted(
        n
        for n, c in pack.cards.items()
        if c.colour in ("blue", "red", "location", "market", "trail")
    )


def _why(pack: ContentPack, reach: _Reach, requires: Condition, chapter: int) -> str:
    lacking = [f"{pack.items[i].name} ({i})" for i in requires.items if i not in reach.items]
    lacking += [f"support card {s}" for s in requires.supports if s not in reach.supports]
    lacking += [f"ending {e}" for e in requires.endings if e not in reach.endings]
    if lacking:
        return f"it needs {', '.join(lacking)}, which cannot be had by chapter {chapter}"
    return "it needs a shelter, and this chapter has none"
