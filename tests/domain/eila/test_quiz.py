"""Chapter 2's unique element: the EQ and AQ quiz cards."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from domain.eila import GAME
from domain.eila.events import QuizAnswered, QuizDrawn
from tests.domain.eila.helpers import Json, Table, chapter, make_game, option


def quiz(quiz_id: str, answer: str, reward: list[Json]) -> Json:
    return {
        "id": quiz_id,
        "question": f"Question {quiz_id}?",
        "choices": {"a": "Alpha", "b": "Bravo", "c": "Charlie", "d": "Delta"},
        "answer": answer,
        "reward": reward,
        "reward_text": "A reward.",
    }


QUIZZES = [
    quiz("EQ-1", "c", [{"gain": "coin", "max": 2}]),
    quiz("EQ-2", "b", [{"gain": "coin", "max": 2}]),
    quiz("AQ-1", "a", [{"heart": 1}]),
]


def _table(tmp_path: Path, seed: int = 1) -> Table:
    two = chapter(2, [[option("A", [{"quiz": "EQ"}]), option("B", [])], [option("A", [])]])
    two["quizzes"] = QUIZZES
    return Table(make_game(tmp_path, [two]), seed=seed, chapter=2)


def _drawn(events: list[Any]) -> str:
    (drawn,) = [e for e in events if isinstance(e, QuizDrawn)]
    return drawn.quiz


def test_the_quiz_decks_are_set_up_face_down_in_the_chapter_element_area(tmp_path: Path) -> None:
    table = _table(tmp_path)
    area = table.game.view(table.state, "player").chapter_element_area
    assert [(d.name, d.count) for d in area.quiz_decks] == [("AQ", 1), ("EQ", 2)]
    assert area.quizzes_open == ()


def test_drawing_is_seeded_and_shows_the_question_not_the_answer(tmp_path: Path) -> None:
    table = _table(tmp_path)
    drawn = _drawn(table.do("A:"))
    assert drawn in ("EQ-1", "EQ-2")
    assert _drawn(_table(tmp_path / "again").do("A:")) == drawn  # same seed, same card
    view = table.game.view(table.state, "player")
    (shown,) = view.chapter_element_area.quizzes_open
    assert shown.id == drawn and [c.letter for c in shown.choices] == ["a", "b", "c", "d"]
    assert b"answer" not in msgspec.json.encode(view)
    assert [(d.name, d.count) for d in view.chapter_element_area.quiz_decks] == [
        ("AQ", 1),
        ("EQ", 1),
    ]
    # The events a player reads carry no answer key either.
    for event in table.events[1:]:
        assert b"answer" not in msgspec.json.encode(table.game.redact(event, "player"))


def _seed_drawing(tmp_path: Path, wanted: str) -> Table:
    for seed in range(50):
        table = _table(tmp_path / str(seed), seed)
        if _drawn(table.do("A:")) == wanted:
            return table
    raise AssertionError(f"No seed below 50 draws {wanted}.")


def test_a_right_answer_gets_the_reward_then_the_card_is_turned_over(tmp_path: Path) -> None:
    table = _seed_drawing(tmp_path, "EQ-1")
    assert [label for label in table.labels() if label.startswith("Answer")] == [
        "Answer EQ-1 with a: Alpha",
        "Answer EQ-1 with b: Bravo",
        "Answer EQ-1 with c: Charlie",
        "Answer EQ-1 with d: Delta",
    ]
    events = table.do("Answer EQ-1 with c")
    assert events[0] == QuizAnswered("EQ-1", "c", True)
    table.do("Take 2 Coin (of +2)")
    assert table.state.resources.coin == 2
    area = table.game.view(table.state, "player").chapter_element_area
    assert area.quizzes_open == () and area.quizzes_turned_over == ("EQ-1",)
    assert not any(label.startswith("Answer") for label in table.labels())


def test_a_wrong_answer_gets_nothing_and_the_reward_is_gone(tmp_path: Path) -> None:
    table = _seed_drawing(tmp_path, "EQ-2")
    events = table.do("Answer EQ-2 with a")
    assert events == [QuizAnswered("EQ-2", "a", False)]
    assert table.state.resources.coin == 0
    assert table.state.quiz_done == ("EQ-2",) and table.state.quiz_open == ()


def test_an_empty_deck_draws_nothing(tmp_path: Path) -> None:
    table = _table(tmp_path)
    table.state = msgspec.structs.replace(table.state, quiz_decks=(("AQ", ()), ("EQ", ())))
    table.do("A:")
    assert table.state.quiz_open == ()


def test_the_shipped_answer_key_is_the_rulebooks() -> None:
    key = {q.id: q.answer for q in GAME.pack.quizzes.values()}
    assert key == {
        "EQ-1": "c",
        "EQ-2": "b",
        "EQ-3": "d",
        "EQ-4": "b",
        "EQ-5": "c",
        "AQ-1": "c",
        "AQ-2": "a",
        "AQ-3": "d",
        "AQ-4": "d",
        "AQ-5": "a",
    }
