from __future__ import annotations

from projections.catalog import CatalogEntry, chapter_of
from projections.stats import GameStats, Tally, statistics


def entry(game: str, status: str, version: int, chapter: str | None = None) -> CatalogEntry:
    return CatalogEntry(
        id=f"{game}-{status}-{version}",
        game=game,
        status=status,  # type: ignore[arg-type]
        version=version,
        created_ms=0,
        updated_ms=0,
        chapter=chapter,
    )


def test_wins_losses_and_average_length_count_only_finished_games() -> None:
    stats = statistics(
        [
            entry("b", "won", 10),
            entry("b", "lost", 20),
            entry("b", "running", 99),
            entry("a", "won", 3),
        ]
    )
    assert stats == [
        GameStats("a", Tally(1, 0, 1, 0, 3.0)),
        GameStats("b", Tally(3, 1, 1, 1, 15.0)),
    ]


def test_games_with_chapters_get_a_tally_per_chapter() -> None:
    (stats,) = statistics(
        [entry("e", "won", 10, "1"), entry("e", "lost", 30, "2"), entry("e", "won", 20, "1")]
    )
    assert stats.totals == Tally(3, 0, 2, 1, 20.0)
    assert stats.chapters == {"1": Tally(2, 0, 2, 0, 15.0), "2": Tally(1, 0, 0, 1, 30.0)}


def test_chapter_is_read_from_a_chapter_attribute_when_there_is_one() -> None:
    class WithChapter:
        chapter = 2

    assert chapter_of(WithChapter()) == "2"
    assert chapter_of(object()) is None
