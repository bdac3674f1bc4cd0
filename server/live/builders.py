"""The server's messages about a campaign, built from its heads: the one place each is made.

The hub (:mod:`server.live.hub`), the spectators' audience behind the table
(:mod:`server.live.audience`) and the play session (:mod:`server.ws.session`) all build what they
send with these. A new kind of live message gets its builder here, beside the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from projections.log import SeenEvent, seen
from projections.patch import diff
from server.campaigns.codec import Recorded
from server.campaigns.head import Head
from server.campaigns.results import Acted
from server.live.presence import Roster
from server.protocol.messages import Accepted, Presence, Present, Sync, Update


def seen_events(head: Head, recorded: Sequence[Recorded[Any]], seat: str | None) -> list[SeenEvent]:
    """``recorded`` as ``seat`` may see it once the campaign is at ``head``."""
    ended = head.outcome != "running"
    own_from = head.facts.own_from
    return [seen(head.game, item, seat, ended=ended, own_from=own_from) for item in recorded]


def sync_message(head: Head, seat: str | None, reason: str | None = None) -> Sync:
    return Sync(head.version, head.view(seat), head.choices(seat), head.outcome, reason)


def update_message(
    before: Head, after: Head, recorded: Sequence[Recorded[Any]], seat: str | None
) -> Update:
    """The change ``recorded`` made from ``before`` to ``after``, as ``seat`` sees it."""
    return Update(
        first=recorded[0].version,
        version=after.version,
        events=seen_events(after, recorded, seat),
        patch=diff(before.shown(seat), after.shown(seat)),
        legal_actions=after.choices(seat),
        outcome=after.outcome,
    )


def accepted(command_id: str, change: Update, *, duplicate: bool = False) -> Accepted:
    """The answer to a socket's action, for a new move and for a duplicate alike.

    A new move's answer is the update it caused (so the acting socket gets one frame per
    action). A duplicate (a command id seen before) names the change the command made the first
    time (:func:`retold`) and carries its events only: the client syncs if it is behind.
    """
    if duplicate:
        return Accepted(command_id, change.first, change.version, True, change.events)
    return Accepted(
        command_id,
        change.first,
        change.version,
        False,
        change.events,
        change.patch,
        change.legal_actions,
        change.outcome,
    )


def retold(head: Head | None, acted: Acted, seat: str | None) -> Update:
    """The change a duplicate command made the first time, its events as ``seat`` may see them
    at ``head`` (none when the head is not at hand). Only its versions and events are told:
    :func:`accepted` leaves out the rest."""
    events = [] if head is None else seen_events(head, acted.events, seat)
    return Update(acted.first, acted.last, events, [], [], "running")


def presence_message(everyone: Roster) -> Presence:
    """Who is connected, over every process: the seated sockets in the order they joined and
    how many spectators."""
    return Presence([Present(s.seat, s.name) for s in everyone.seated], everyone.spectators)
