from __future__ import annotations

from pathlib import Path

from domain.bots.eila_greedy import greedy_choice
from domain.eila import GAME, chapter_outcome
from tests.domain.eila.helpers import Table, chapter, chapter_zero, dice, face, make_game, option
from tests.domain.eila.kit import ENEMIES, ITEMS


def _greedy_attempt(seed: int, **options: object) -> Table:
    table = Table(GAME, seed=seed, **options)
    for _ in range(2000):
        if chapter_outcome(table.state) != "running":
            break
        legal = table.legal()
        choice = greedy_choice(GAME.pack, table.state, legal)
        assert choice in legal
        table.apply(GAME.decide(table.state, "player", choice.action))
    return table


def test_greedy_bot_wins_chapter_zero() -> None:
    for seed in range(5):
        assert chapter_outcome(_greedy_attempt(seed).state) == "won"


def test_greedy_bot_finishes_a_chapter_one_attempt() -> None:
    table = _greedy_attempt(3, chapter=1)
    assert chapter_outcome(table.state) in ("won", "lost")


def test_greedy_bot_takes_resources_in_full_and_submits() -> None:
    table = Table(GAME)
    table.do("A:")  # 001 A: +1 Food
    assert greedy_choice(GAME.pack, table.state, table.legal()).label == "Take 1 of +1 Food"
    table.give(food=2, energy=1)
    while table.state.phase != "night":
        choice = greedy_choice(GAME.pack, table.state, table.legal())
        table.apply(GAME.decide(table.state, "player", choice.action))
    assert greedy_choice(GAME.pack, table.state, table.legal()).label.startswith("Submit 1 Food")


def _choose(table: Table) -> str:
    return greedy_choice(table.game.pack, table.state, table.legal()).label


def test_greedy_bot_finishes_attempts_at_chapters_two_and_three_in_both_modes() -> None:
    for number in (2, 3):
        for mode in ("normal", "advanced"):
            table = _greedy_attempt(5, chapter=number, mode=mode)
            assert chapter_outcome(table.state) in ("won", "lost")


def test_greedy_bot_never_abandons() -> None:
    table = Table(GAME)
    table.do("Abandon the campaign")
    assert _choose(table) == "No, keep playing"


def test_greedy_bot_rolls_then_spends_energy_only_to_turn_a_loss_into_a_win(
    tmp_path: Path,
) -> None:
    fight = {"fight": "E01", "won": [{"gain": "coin", "max": 1}], "lost": [{"broken_heart": 1}]}
    zero = chapter_zero({"001": [option("A", [fight]), option("B", [])]})
    game = make_game(tmp_path, [zero], ruleset=dice([face(3)]), enemies=ENEMIES, items=ITEMS)
    table = Table(game)
    table.give(energy=3)
    table.do("A:")
    assert _choose(table) == "Roll the combat dice"
    table.do("Roll")
    assert _choose(table) == "Spend 1 Energy for +2 combat value"
    table.do("Spend 1 Energy")
    assert _choose(table) == "Fight with combat value 5 against 5 (win)"


def test_greedy_bot_answers_a_quiz_once_a_card_it_met_shows_the_answer(tmp_path: Path) -> None:
    from tests.domain.eila.test_quiz import quiz

    two = chapter(2, [[option("A", [{"quiz": "EQ"}])], [option("A", [])], [option("A", [])]])
    two["cards"][2]["text"] = "Everyone here is called Charlie."
    two["quizzes"] = [quiz("EQ-1", "c", [])]
    table = Table(make_game(tmp_path, [two]), chapter=2)
    table.do("A:")
    assert _choose(table).startswith("A:")  # no hint met yet: it waits
    table.do("A:")
    assert _choose(table) == "Answer EQ-1 with c: Charlie"


def test_greedy_bot_walks_to_a_location_event_it_can_see(tmp_path: Path) -> None:
    from tests.domain.eila.test_mine import _table

    table = _table(tmp_path, {"move": 2}, {"trigger": "location"})
    table.do("A:")
    assert _choose(table) == "Move east"  # 341 is one grid east
    table.do("Move east")
    assert _choose(table) == "Stop moving here"
