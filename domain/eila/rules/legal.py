"""The player's choices in a state, each with a label a person can act on.

``decide`` checks membership in this list, so the two cannot drift apart. The order is stable:
the pending choice first, then items and spells that may be used, quiz answers, conversions,
discards, and last the way to abandon the campaign.
"""

from __future__ import annotations

from domain.core.game import LegalAction, action_id
from domain.core.memo import recent
from domain.eila.actions import (
    Abandon,
    Answer,
    ArrangeHabit,
    BeginChapter,
    ChooseOption,
    ConfirmAbandon,
    Convert,
    Dawn,
    Discard,
    EilaAction,
    EndSubmissions,
    Retry,
    Submit,
    Use,
)
from domain.eila.content import RESOURCES, ContentPack
from domain.eila.rules.abilities import free_time, usable_cards
from domain.eila.rules.conditions import option_blocker
from domain.eila.rules.effects import choices, waits_for_room
from domain.eila.rules.frames import pending
from domain.eila.rules.labels import label
from domain.eila.rules.storage import changed, free_space, goal_side, have, still_needed
from domain.eila.state import EilaState

PLAYING = ("day", "dawn", "night")


def _choices(pack: ContentPack, state: EilaState) -> list[EilaAction]:
    if state.abandoning:
        return [ConfirmAbandon(True), ConfirmAbandon(False)]
    if state.frames:
        effect = pending(state)
        return [] if effect is None else choices(pack, state, effect)
    match state.phase:
        case "day":
            if not state.present:
                return []  # between placing a card and revealing the next, inside one command
            card = pack.card(state.present, state.mode)
            return [
                ChooseOption(o.letter)
                for o in card.options
                if option_blocker(pack, state, o) is None
            ]
        case "dawn":
            return [Dawn(False), Dawn(True)]
        case "night":
            actions: list[EilaAction] = []
            limit = pack.ruleset.submission_limit(state.chapter)
            if limit is None or state.night_submitted < limit:
                actions = [
                    Submit(r)
                    for r, _ in goal_side(pack, state).submit
                    if have(state.resources, r) > 0 and still_needed(pack, state, r) > 0
                ]
            return [*actions, EndSubmissions()]
        case "arranging":
            return [ArrangeHabit(h) for h in state.saved_habits if h not in state.arranged]
        case "lost":
            return [Retry(state.chapter)]
        case "won":
            following = state.chapter + 1
            return [BeginChapter(following)] if following in pack.chapters else []
    return []


def _free_actions(pack: ContentPack, state: EilaState) -> list[EilaAction]:
    if state.abandoning or (state.phase not in PLAYING and not state.frames):
        return []
    actions: list[EilaAction] = [Use(card) for card in usable_cards(pack, state)]
    # Conversions and answers never happen inside the resolution of a single effect.
    if free_time(state):
        for quiz in state.quiz_open:
            actions += [Answer(quiz, letter) for letter, _ in pack.quizzes[quiz].choices]
        for conv in pack.ruleset.conversions:
            if have(state.resources, conv.give) < conv.give_amount:
                continue
            after = changed(state.resources, conv.give, -conv.give_amount)
            if free_space(pack, after, conv.get) >= conv.get_amount:
                actions.append(Convert(conv.id))
    # While Fear forces room to be made, discarding is that choice itself.
    if not waits_for_room(pending(state)):
        actions += [Discard(r) for r in RESOURCES if r != "fear" and have(state.resources, r) > 0]
    return actions


@recent
def candidates(pack: ContentPack, state: EilaState) -> tuple[EilaAction, ...]:
    """Everything Eila may do now (remembered for the last few states: see
    :mod:`domain.core.memo`)."""
    found = (*_choices(pack, state), *_free_actions(pack, state))
    if found and not state.abandoning:
        return (*found, Abandon())
    return found


def legal(pack: ContentPack, state: EilaState) -> list[LegalAction]:
    return [LegalAction(action_id(a), label(pack, state, a), a) for a in candidates(pack, state)]
