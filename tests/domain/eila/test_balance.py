"""The balance the content is designed for (``RULES_NOTES.md``, "Balance"), pinned on the data.

The win rates themselves are measured by simulation (``docs/balance.md``); these tests pin the
properties of the goal cards and cards that those figures rest on, so that a change to the
content that breaks one is seen without playing a game.
"""

from __future__ import annotations

import pytest

from domain.eila.content import ContentPack, GoalSide, load_pack

PACK = load_pack()
CHAPTERS = PACK.chapter_numbers


def _total(side: GoalSide) -> int:
    return sum(amount for _, amount in side.submit)


@pytest.mark.parametrize("number", CHAPTERS)
def test_advanced_goal_asks_at_least_normals_of_every_resource_and_more_in_all(
    number: int,
) -> None:
    chapter = PACK.chapters[number]
    normal, advanced = dict(chapter.normal.submit), dict(chapter.advanced.submit)
    assert all(advanced.get(resource, 0) >= amount for resource, amount in normal.items())
    assert _total(chapter.advanced) > _total(chapter.normal)


@pytest.mark.parametrize("number", CHAPTERS)
def test_advanced_mode_gives_fewer_hearts_than_normal(number: int) -> None:
    chapter = PACK.chapters[number]
    assert 0 < chapter.advanced.hearts < chapter.normal.hearts


def test_the_finale_asks_the_most_of_any_chapter_in_normal_mode() -> None:
    finale = PACK.chapters[max(CHAPTERS)]
    earlier = [PACK.chapters[n] for n in CHAPTERS if n != finale.number]
    assert all(_total(finale.normal) > _total(chapter.normal) for chapter in earlier)
    assert all(_total(finale.advanced) > _total(chapter.advanced) for chapter in earlier)


def _open_stone_sources(pack: ContentPack, number: int) -> list[str]:
    """Options of the chapter's cards that give Magical Stone and require no item."""
    chapter = pack.chapters[number]
    return [
        f"{card} {option.letter}"
        for card in chapter.green + chapter.blue + chapter.red
        for option in pack.cards[card].options
        if not option.requires_items
        and any(e.kind == "gain" and e.resource == "stone" for e in option.effects)
    ]


def test_chapter_one_has_a_magical_stone_without_the_brass_key() -> None:
    """A chapter 1 played on its own starts with an empty save box: without chapter 0's brass
    key its goal's stone has to come from an option open to anyone (the stone circle, 110 B)."""
    assert dict(PACK.chapters[1].normal.submit)["stone"] >= 1
    assert "110 B" in _open_stone_sources(PACK, 1)
