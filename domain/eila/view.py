"""What the player (or a spectator) sees of an Eila campaign.

Hidden: the order of the upcoming deck (only its count) except the cards a red or habit symbol or
a location event has just put on top, which the player placed there by number and so knows, and
the card a pocket watch showed; the face-down Future and Past (counts); the undrawn blue, red,
habit, location, item, support and quiz decks (counts); the mine's face-down tiles; the quiz
answer key; and the seed. The Present, storage, goal card, time track, the Item & Support Area,
the Chapter Element Area and the save box are on the table for all to see.
"""

from __future__ import annotations

import msgspec

from domain.core.turn import Turn
from domain.eila.content import ContentPack
from domain.eila.rules.frames import pending
from domain.eila.rules.labels import effect_text
from domain.eila.rules.storage import goal_side
from domain.eila.state import EilaState, Resources
from domain.eila.turn import turn
from domain.eila.view_areas import (
    CombatView,
    ElementArea,
    ItemSupportArea,
    combat_view,
    element_area,
    item_support_area,
)


class PresentCard(msgspec.Struct, frozen=True, gc=False):
    number: str
    name: str
    text: str


class EilaView(msgspec.Struct, frozen=True, gc=False):
    chapter: int
    chapter_title: str
    attempt: int
    mode: str
    phase: str
    outcome: str
    chapter_outcome: str
    day: int
    hp: int
    max_hp: int
    resources: Resources
    goal: tuple[tuple[str, int], ...]
    submitted: Resources
    night_submissions_left: int | None
    """None: no limit in this chapter."""
    time_track: tuple[str, ...]
    time_track_length: int
    present: PresentCard | None
    option: str
    pending: str
    """The effect waiting for a choice, in words; ``""`` when none."""
    combat: CombatView | None
    upcoming_count: int
    upcoming_known_on_top: tuple[str, ...]
    upcoming_known_at_bottom: tuple[str, ...]
    future_count: int
    past_count: int
    blue_deck_count: int
    red_deck_count: int
    habit_deck_count: int
    item_deck_count: int
    support_deck_count: int
    items: tuple[str, ...]
    item_support_area: ItemSupportArea
    """Additional Rule 01: the item and support cards (and dice) acquired."""
    chapter_element_area: ElementArea
    """Additional Rules 01-02: the chapter's unique elements."""
    saved_items: tuple[str, ...]
    saved_habits: tuple[str, ...]
    saved_supports: tuple[str, ...]
    progress: tuple[int, ...]
    endings: tuple[str, ...]
    lost_reason: str
    abandoning: bool
    turn: Turn
    """Whose move it is and what is asked (see :mod:`domain.core.turn`)."""


def view(pack: ContentPack, state: EilaState, outcome: str, chapter_outcome: str) -> EilaView:
    goal: tuple[tuple[str, int], ...] = ()
    title = ""
    if state.phase != "setup":
        title, goal = pack.chapters[state.chapter].title, goal_side(pack, state).submit
    present = None
    if state.present:
        card = pack.card(state.present, state.mode)
        present = PresentCard(card.number, card.name, card.text)
    limit = pack.ruleset.submission_limit(state.chapter)
    left = limit
    if limit is not None and state.phase == "night":
        left = max(0, limit - state.night_submitted)
    effect = pending(state)
    bottom = state.upcoming[len(state.upcoming) - state.known_at_bottom :]
    return EilaView(
        chapter=state.chapter,
        chapter_title=title,
        attempt=state.attempt,
        mode=state.mode,
        phase="resolving" if state.frames and state.phase == "day" else state.phase,
        outcome=outcome,
        chapter_outcome=chapter_outcome,
        day=state.day,
        hp=state.hp,
        max_hp=state.max_hp,
        resources=state.resources,
        goal=goal,
        submitted=state.submitted,
        night_submissions_left=left,
        time_track=state.time_track,
        time_track_length=pack.ruleset.time_track,
        present=present,
        option=state.option,
        pending="" if effect is None else effect_text(pack, effect),
        combat=combat_view(pack, state),
        upcoming_count=len(state.upcoming),
        upcoming_known_on_top=state.upcoming[: state.known_on_top],
        upcoming_known_at_bottom=bottom if state.known_at_bottom else (),
        future_count=len(state.future),
        past_count=len(state.past),
        blue_deck_count=len(state.blue_deck),
        red_deck_count=len(state.red_deck),
        habit_deck_count=len(state.habit_deck),
        item_deck_count=len(pack.items) - len(state.items),
        support_deck_count=len(pack.supports) - len(state.supports),
        items=state.items,
        item_support_area=item_support_area(pack, state),
        chapter_element_area=element_area(pack, state),
        saved_items=state.saved_items,
        saved_habits=state.saved_habits,
        saved_supports=state.saved_supports,
        progress=state.progress,
        endings=state.endings,
        lost_reason=state.lost_reason,
        abandoning=state.abandoning,
        turn=turn(pack, state, outcome),
    )
