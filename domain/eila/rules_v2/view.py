"""What the player (or a spectator) sees of an Eila campaign.

Hidden: the order of the upcoming deck (only its count) except the cards a red or habit symbol has
just put on top, which the player placed there by number and so knows; the face-down Future and
Past (counts); the undrawn blue, red, habit and item decks (counts); and the seed. The Present,
storage, goal card, time track, held items and the save box are on the table for all to see.
"""

from __future__ import annotations

import msgspec

from domain.eila.rules_v2.content import ContentPack
from domain.eila.rules_v2.rules.storage import goal_side
from domain.eila.rules_v2.state import EilaState, Resources


class PresentCard(msgspec.Struct, frozen=True):
    number: str
    name: str
    text: str


class EilaView(msgspec.Struct, frozen=True):
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
    night_submissions_left: int
    time_track: tuple[str, ...]
    time_track_length: int
    present: PresentCard | None
    option: str
    upcoming_count: int
    upcoming_known_on_top: tuple[str, ...]
    future_count: int
    past_count: int
    blue_deck_count: int
    red_deck_count: int
    habit_deck_count: int
    item_deck_count: int
    items: tuple[str, ...]
    saved_items: tuple[str, ...]
    saved_habits: tuple[str, ...]
    progress: tuple[int, ...]
    lost_reason: str


def view(pack: ContentPack, state: EilaState, outcome: str, chapter_outcome: str) -> EilaView:
    goal: tuple[tuple[str, int], ...] = ()
    title = ""
    if state.phase != "setup":
        title, goal = pack.chapters[state.chapter].title, goal_side(pack, state).submit
    present = None
    if state.present:
        card = pack.cards[state.present]
        present = PresentCard(card.number, card.name, card.text)
    limit = pack.ruleset.submission_limit(state.chapter)
    return EilaView(
        chapter=state.chapter,
        chapter_title=title,
        attempt=state.attempt,
        mode=state.mode,
        phase=state.phase,
        outcome=outcome,
        chapter_outcome=chapter_outcome,
        day=state.day,
        hp=state.hp,
        max_hp=state.max_hp,
        resources=state.resources,
        goal=goal,
        submitted=state.submitted,
        night_submissions_left=max(0, limit - state.night_submitted)
        if state.phase == "night"
        else limit,
        time_track=state.time_track,
        time_track_length=pack.ruleset.time_track,
        present=present,
        option=state.option,
        upcoming_count=len(state.upcoming),
        upcoming_known_on_top=state.upcoming[: state.known_on_top],
        future_count=len(state.future),
        past_count=len(state.past),
        blue_deck_count=len(state.blue_deck),
        red_deck_count=len(state.red_deck),
        habit_deck_count=len(state.habit_deck),
        item_deck_count=len(pack.items) - len(state.items),
        items=state.items,
        saved_items=state.saved_items,
        saved_habits=state.saved_habits,
        progress=state.progress,
        lost_reason=state.lost_reason,
    )
