"""The typed errors of exporting, importing and migrating. Each has a stable ``code`` and a
message that is a whole sentence for the operator or player to read."""

from __future__ import annotations

from collections.abc import Iterable


class TransferError(Exception):
    code = "bad_request"


class NotAnExport(TransferError):
    """The file is not a tabletale export, or one of a format version this server cannot read."""


class DamagedExport(TransferError):
    """A line of the file does not read back as it was written: a byte changed, a line went
    missing or its event does not decode. ``version`` names the event when the damage is in one."""

    def __init__(self, message: str, *, version: int | None = None) -> None:
        self.version = version
        super().__init__(message)


class TruncatedExport(TransferError):
    """The file ends before its closing line."""


class PartialExport(TransferError):
    """An export taken while the campaign ran: its hidden parts are withheld, so it cannot be
    restored."""

    def __init__(self, campaign_id: str) -> None:
        self.campaign_id = campaign_id
        super().__init__(
            f"This export of campaign {campaign_id} was taken while the campaign (or one it "
            "was forked from) ran, so its hidden parts are withheld and it cannot be imported; "
            "export it again once they have ended."
        )


class DivergentReplay(TransferError):
    """Replaying the file's events with the game's rules does not give the state hashes it
    records: an event was changed after it was recorded."""

    def __init__(self, campaign_id: str, version: int, event_type: str) -> None:
        self.campaign_id = campaign_id
        self.version = version
        super().__init__(
            f"Campaign {campaign_id}'s version {version} ({event_type}) does not replay to the "
            "state hash the file records: the event was changed after it was recorded."
        )


class UnplayedRuleset(TransferError):
    """The file's game or ruleset is not one this server plays."""

    code = "unsupported_ruleset"

    def __init__(self, game: str, ruleset: str, played: Iterable[str]) -> None:
        self.game = game
        self.ruleset = ruleset
        super().__init__(
            f"This server does not play {game} by the ruleset {ruleset!r}; it plays "
            f"{', '.join(sorted(played))}. Nothing was stored: keep the file, a server that "
            "plays that ruleset imports it (and replays every event as it does)."
        )


class DifferentCampaign(TransferError):
    """The target store holds a campaign of the same id with other events (or another game or
    lineage); nothing was written for it."""

    code = "conflict"

    def __init__(self, campaign_id: str, version: int | None, what: str) -> None:
        self.campaign_id = campaign_id
        self.version = version
        at = "" if version is None else f" from version {version} on"
        super().__init__(
            f"The target store already holds a campaign {campaign_id} that differs{at}: {what}; "
            "nothing was written for it."
        )
