"""Issue 9's Eila items: the HP floor, conversions between two effects, ending a campaign; issue
18's room for Fear made by a conversion."""

from __future__ import annotations

from pathlib import Path

from msgspec.structs import replace

from domain.core.game import ChapterAttempts
from domain.eila import GAME, chapter_outcome
from domain.eila.events import (
    AbandonAsked,
    AbandonWithdrawn,
    CampaignAbandoned,
    ChapterLost,
    FearTaken,
    HeartBroken,
)
from domain.eila.state import Resources
from tests.domain.eila.helpers import Table, chapter, chapter_zero, make_game, option


def _table(tmp_path: Path, *effects: dict[str, object]) -> Table:
    zero = chapter_zero({"001": [option("A", list(effects)), option("B", [])]})
    return Table(make_game(tmp_path, [zero, chapter(1, [[option("A", [])]])]))


def test_fear_past_eight_costs_hp_but_never_below_zero(tmp_path: Path) -> None:
    """ "Losing the last HP makes you lose a chapter": HP stops at 0, the loss comes at once."""
    table = _table(tmp_path, {"gain": "fear", "max": 4})
    table.give(fear=7)
    table.state = replace(table.state, hp=1)
    events = table.do("A:")
    assert events[-2:] == [FearTaken(1, 1), ChapterLost(0, "hp")]
    assert table.state.hp == 0
    assert table.game.view(table.state, "player").hp == 0


def test_losing_the_last_hp_ends_the_chapter_in_the_same_batch(tmp_path: Path) -> None:
    table = _table(tmp_path, {"broken_heart": 3}, {"gain": "food", "max": 1})
    table.state = replace(table.state, hp=2)
    events = table.do("A:")
    assert events[-2:] == [HeartBroken(2), ChapterLost(0, "hp")]
    assert table.state.hp == 0 and table.state.phase == "lost"


def test_converting_is_allowed_between_two_effects_of_one_option(tmp_path: Path) -> None:
    """Whenever desired, except while resolving a single effect: after +2 Food is stored and
    before the +1 Energy is taken, 2 Food may become 1 Energy."""
    table = _table(tmp_path, {"gain": "food", "max": 2}, {"gain": "energy", "max": 1})
    table.do("A:")
    table.do("Take 2 Food (of +2)")
    assert table.labels()[0] == "Take 1 Energy (of +1)"
    table.do("Convert 2 Food into 1 Energy")
    table.do("Take 1 Energy (of +1)")
    assert (table.state.resources.food, table.state.resources.energy) == (0, 2)


def test_no_converting_while_one_effect_is_partly_resolved(tmp_path: Path) -> None:
    """Fear that does not fit: once one resource made room for it, that effect is underway."""
    table = _table(tmp_path, {"gain": "fear", "max": 3})
    table.give(knowledge=5, energy=3)
    table.do("A:")
    assert "Convert 5 Knowledge into 1 Magical Stone" in table.labels()
    table.do("Discard 1 Energy to make room")
    assert table.resolving
    assert not any(label.startswith("Convert") for label in table.labels())


def test_a_campaign_can_be_abandoned_after_a_confirmation(tmp_path: Path) -> None:
    table = _table(tmp_path)
    assert table.labels()[-1] == "Abandon the campaign"
    assert table.do("Abandon the campaign") == [AbandonAsked()]
    assert table.labels() == ["Yes, abandon the campaign for good", "No, keep playing"]
    assert table.do("No, keep playing") == [AbandonWithdrawn()]
    assert table.labels()[0].startswith("A:")
    table.do("Abandon the campaign")
    assert table.do("Yes, abandon") == [CampaignAbandoned(0)]
    assert table.game.outcome(table.state) == "lost"
    assert table.legal() == [] and table.game.to_act(table.state) == ()
    # The attempt under way counts as lost.
    assert chapter_outcome(table.state) == "lost"
    assert table.game.progress(table.state).attempts == (ChapterAttempts("0", lost=1),)


def test_progress_counts_chapter_attempts_won_and_lost(tmp_path: Path) -> None:
    table = _table(tmp_path, {"broken_heart": 9})
    table.do("A:")
    table.do("Try chapter 0 again")
    table.give(food=2)
    table.do("B:")
    while table.state.phase != "night":
        table.do("A: Rest")
    table.do("Submit 1 Food")
    table.do("Submit 1 Food")
    table.do("Begin chapter 1")
    table.do("Abandon")
    table.do("Yes")
    assert table.game.progress(table.state).attempts == (
        ChapterAttempts("0", won=1, lost=1),
        ChapterAttempts("1", lost=1),
    )


def test_abandoning_after_a_loss_counts_that_loss_once(tmp_path: Path) -> None:
    table = _table(tmp_path, {"broken_heart": 9})
    table.do("A:")
    assert table.labels() == ["Try chapter 0 again", "Abandon the campaign"]
    table.do("Abandon")
    table.do("Yes")
    assert table.game.progress(table.state).attempts == (ChapterAttempts("0", lost=1),)


def test_an_attempt_begins_when_its_habit_cards_are_being_ordered(tmp_path: Path) -> None:
    """Abandoning while saved habit cards are ordered for the next chapter loses that attempt."""
    from tests.domain.eila.helpers import habit

    zero = chapter_zero({"001": [option("A", [{"habit": "H1"}, {"habit": "H2"}])]})
    game = make_game(
        tmp_path,
        [zero, chapter(1, [[option("A", [])]]), chapter(2, [[option("A", [])]])],
        habits=[habit("H1"), habit("H2")],
    )
    table = Table(game, chapter=1)
    # As if chapter 1 were just won, with two habit cards saved.
    table.state = replace(table.state, saved_habits=("H1", "H2"), result="won", phase="won")
    table.do("Begin chapter 2")
    assert table.state.phase == "arranging" and chapter_outcome(table.state) == "running"
    table.do("Abandon")
    table.do("Yes")
    assert table.game.progress(table.state).attempts[-1] == ChapterAttempts("2", lost=1)


def test_fear_of_card_121_c_is_stored_once_converting_knowledge_makes_room() -> None:
    """Issue 18, "you must discard other resources to make room for it": chapter 1's card 121,
    option C (+1 Fear) at Fear 3 and Knowledge 5. Converting the Knowledge to a Magical Stone
    makes the room, so the Fear is stored and the day goes on (it used to wait for a Knowledge
    or Energy discard with none held, leaving only conversions or abandoning)."""
    for chapter_number, card, letter in ((1, "121", "C"), (2, "210", "B")):
        table = Table(GAME, chapter=chapter_number)
        table.state = replace(table.state, present=card)  # the card in the Present, to set a scene
        table.give(fear=3, knowledge=5)
        table.do(f"{letter}:")
        assert table.resolving
        events = table.do("Convert 5 Knowledge into 1 Magical Stone")
        assert FearTaken(1, 0) in events, card
        assert table.state.resources == Resources(stone=1, fear=4), card
        assert not any("make room" in label for label in table.labels()), card
        assert any(label[1:2] == ":" for label in table.labels()), card  # the next card's options
