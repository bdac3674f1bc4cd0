"""What one seat knows of a campaign, kept up to date from the server's messages (no I/O).

Both socket clients (:mod:`clients.connection` for asyncio, :mod:`clients.blocking` for threads
and Locust) feed every received message to a :class:`Replica` and drive an action through an
:class:`Exchange`, so the protocol's rules live here once:

- ``welcome`` and ``sync`` carry the full view; ``update`` and ``accepted`` carry a JSON Patch from
  the view at ``first - 1``, which is applied in place;
- a long resume's missed events come a page at a time: in the ``welcome``, then in ``missed``
  messages until one says there are no more; they add to the log and change no view;
- an update that does not follow on from the replica's version means it lost track: it asks for a
  ``sync`` and ignores updates until the sync arrives;
- an action is answered ``accepted`` or ``rejected`` under its command id. After a ``sync`` the
  answer may have been dropped, so the action is sent again with the same command id, which the
  server answers as a duplicate if it was applied; one ``rejected`` as ``rate_limited`` was
  dropped unread, so it is sent again after the ``retry_after`` the server names;
- ``presence`` (who is connected, for a client that asked in its ``hello``) replaces the last one;
- a message of a type this client does not know is ignored, so servers can add new ones.
"""

from __future__ import annotations

from typing import Any

from clients.patch import PatchError, apply

Message = dict[str, Any]


class ProtocolError(Exception):
    """The server answered with an ``error`` or ``rejected`` message."""

    def __init__(self, message: Message) -> None:
        self.code: str = message.get("code", "")
        self.reply = message
        super().__init__(f"{self.code}: {message.get('message', '')}")


SYNC: Message = {"type": "sync"}

MAX_RATE_RETRIES = 20
"""An action refused as over the socket's rate is sent again after the server's ``retry_after``,
this many times at most before the refusal is raised."""


class Replica:
    def __init__(self) -> None:
        self._start_over()

    def _start_over(self) -> None:
        """Hold nothing yet: a new socket, or one that moved to a campaign it created."""
        self.campaign = ""
        self.game = ""
        self.seat: str | None = None
        self.seats: list[str] = []
        self.version = 0
        self.view: Any = None
        self.legal_actions: list[Message] = []
        self.outcome = "running"
        self.events: list[Message] = []
        """Every event received, in order (after a sync, those in between are missing)."""
        self.lost = False
        """Waiting for a sync after an update that did not follow on."""
        self.missing = False
        """A long resume's missed events are still arriving (``missed`` pages)."""
        self.presence: Message | None = None
        """The last ``presence`` message: ``{"seats": [{"seat", "name"}, ...], "spectators"}``."""
        self.created: Message | None = None
        """The ``created`` answer of the campaign this socket created, with every seat's token."""

    def absorb(self, message: Message) -> Message | None:
        """Take in one server message; returns a message to send back (a sync request) if any."""
        kind = message.get("type")
        if kind == "created":
            # The socket moved to a campaign it created: nothing of the one before follows.
            self._start_over()
            self.created = message
        elif kind == "welcome":
            self.campaign, self.game = message["campaign"], message["game"]
            self.seat, self.seats = message.get("seat"), list(message["seats"])
            self.events.extend(message.get("missed", []))
            self.missing = bool(message.get("missed_more"))
            self._whole(message)
        elif kind == "missed":
            # A long resume's next page of history: it changes no view, only the log.
            self.events.extend(message["events"])
            self.missing = bool(message.get("more"))
        elif kind == "sync":
            self._whole(message)
            self.lost = False
        elif kind == "update" or (kind == "accepted" and not message.get("duplicate")):
            if self.lost:
                return None
            if message["first"] != self.version + 1:
                return self._lose()
            try:
                self.view = apply(self.view, message.get("patch", []))
            except PatchError:
                return self._lose()
            self.version = message["version"]
            self.legal_actions = message.get("legal_actions", [])
            self.outcome = message.get("outcome", self.outcome)
            self.events.extend(message.get("events", []))
        elif kind == "presence":
            self.presence = message
        return None

    def connected(self) -> dict[str, list[str]]:
        """Seats with at least one socket connected, each with the names given (may be empty)."""
        seats: dict[str, list[str]] = {}
        for entry in (self.presence or {}).get("seats", []):
            names = seats.setdefault(str(entry["seat"]), [])
            if entry.get("name"):
                names.append(str(entry["name"]))
        return seats

    def _whole(self, message: Message) -> None:
        self.version = message["version"]
        self.view = message["view"]
        self.legal_actions = message.get("legal_actions", [])
        self.outcome = message.get("outcome", self.outcome)

    def _lose(self) -> Message:
        self.lost = True
        return SYNC

    def action_id(self, label_start: str) -> str:
        """The id of the legal action whose label starts with ``label_start``."""
        for legal in self.legal_actions:
            if str(legal["label"]).startswith(label_start):
                return str(legal["id"])
        labels = "; ".join(str(a["label"]) for a in self.legal_actions)
        raise LookupError(f"No legal action starts with {label_start!r}; there are: {labels}.")


class Exchange:
    """One action on its way: feed it every message until it says the action is answered."""

    def __init__(self, replica: Replica, action: str, command_id: str) -> None:
        self.replica = replica
        self.command_id = command_id
        self.request: Message = {
            "type": "act",
            "action": action,
            "command_id": command_id,
            "expected_version": replica.version,
        }
        self.answer: Message | None = None
        self.pause = 0.0
        """Seconds to wait before sending :meth:`feed`'s reply: the server's ``retry_after``."""
        self.retries = 0

    def take_pause(self) -> float:
        """The pause asked for by the last message fed, once: the caller waits it out."""
        pause, self.pause = self.pause, 0.0
        return pause

    def feed(self, message: Message) -> Message | None:
        """Absorb ``message``; returns a message to send (a sync request or the action again).

        Sets :attr:`answer` once the action is accepted (and the replica is at its version);
        raises :class:`ProtocolError` when it is rejected or the server reports an error.
        """
        kind = message.get("type")
        if kind == "error":
            raise ProtocolError(message)
        mine = message.get("command_id") == self.command_id
        if kind == "rejected" and mine:
            after = message.get("retry_after")
            if message.get("code") == "rate_limited" and after is not None:
                if self.retries >= MAX_RATE_RETRIES:
                    raise ProtocolError(message)
                self.retries += 1
                self.pause = float(after)
                return self.request  # dropped unread: the same action, once the pause is over
            raise ProtocolError(message)
        reply = self.replica.absorb(message)
        if kind == "accepted" and mine:
            self.answer = message
            if message.get("duplicate") and message["version"] > self.replica.version:
                self.replica.lost = True
                return SYNC
            return reply
        if kind == "sync" and self.answer is None:
            return self.request  # the answer may have been dropped: ask again, idempotently
        return reply

    @property
    def done(self) -> bool:
        return self.answer is not None and not self.replica.lost
