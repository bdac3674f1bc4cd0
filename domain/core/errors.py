"""Typed domain errors. Each has a stable ``code`` the server puts on the wire."""

from __future__ import annotations


class DomainError(Exception):
    """A rule refused something. The message is a whole sentence for a person to read."""

    code = "illegal_action"


class IllegalAction(DomainError):
    """The action is not legal in this state (unknown id, wrong phase, finished campaign)."""

    code = "illegal_action"


class PrerequisiteUnmet(IllegalAction):
    """The action exists but its prerequisite (an item, enough resources, ...) is not met."""


class NotYourTurn(DomainError):
    """The action is legal, but for another seat."""

    code = "not_your_turn"


class UnknownGame(DomainError):
    code = "bad_request"


class UnsupportedRuleset(DomainError):
    """A campaign recorded under a ruleset (rules and content version) this engine does not
    implement: replaying it would silently change what happened in it."""

    code = "unsupported_ruleset"


class InvalidOptions(DomainError):
    """Campaign options or seats that the game does not accept."""

    code = "bad_request"


class ContentError(DomainError):
    """A content file is malformed; names the file, the card and the field."""

    code = "bad_content"

    def __init__(self, file: str, card: str | None, field: str | None, problem: str) -> None:
        self.file = file
        self.card = card
        self.field = field
        self.problem = problem
        where = file
        if card is not None:
            where += f", card {card}"
        if field is not None:
            where += f", field {field}"
        super().__init__(f"{where}: {problem}")
