"""Reading an export file back, trusting nothing in it until it is checked.

Every line's sum, the order of the lines, the closing line's counts and digest, the game and its
ruleset, every event's decoding and, last, a replay of every event with the game's rules that must
give each recorded state hash. Anything short of that raises a :mod:`.errors` error that names the
line or the version; nothing is stored before the whole file has passed (:mod:`.importing`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from domain.core.engine import states
from domain.core.errors import UnknownGame, UnsupportedRuleset
from domain.core.events import CampaignCreated
from domain.core.game import Game
from domain.core.hashing import state_hash
from domain.games import GAMES, game_for, rulesets_of
from server.campaigns.codec import Recorded, codec_for
from server.export.errors import (
    DamagedExport,
    DivergentReplay,
    NotAnExport,
    PartialExport,
    TruncatedExport,
    UnplayedRuleset,
)
from server.export.format import (
    COMPLETE,
    FORMAT,
    FORMAT_VERSION,
    PARTIAL,
    RAW,
    CampaignLine,
    EndLine,
    EventLine,
    Header,
    decode_line,
    new_digest,
    summed,
)


class ExportFile(msgspec.Struct, frozen=True):
    """A checked complete export: the campaign and its events, decoded, from version 1."""

    header: Header
    campaign: CampaignLine
    events: list[Recorded[Any]]

    @property
    def game(self) -> Game:
        return game_for(self.campaign.game, self.campaign.ruleset)


def played() -> list[str]:
    """The games and rulesets this server plays, as a person reads them."""
    return [
        f"{name} by {' or '.join(repr(ruleset) for ruleset in rulesets_of(name))}" for name in GAMES
    ]


def read_export(lines: Iterable[bytes]) -> ExportFile:
    """Check the lines of an export file (each with its newline, as a binary file yields them)
    and return what they hold."""
    reader = _Reader()
    for raw in lines:
        reader.take(raw)
    return reader.finish()


class _Reader:
    def __init__(self) -> None:
        self.number = 0
        self.digest = new_digest()
        self.header: Header | None = None
        self.campaign: CampaignLine | None = None
        self.game: Game | None = None
        self.decoder: msgspec.json.Decoder[Any] | None = None
        self.events: list[Recorded[Any]] = []
        self.end: EndLine | None = None

    def where(self) -> tuple[str, int | None]:
        """How to name the line being read, and the version it should hold if an event's."""
        if self.campaign is not None and self.end is None:
            version = len(self.events) + 1
            if version <= self.campaign.head:
                return f"line {self.number} (version {version})", version
        return f"line {self.number}", None

    def take(self, raw: bytes) -> None:
        self.number += 1
        if self.end is not None:
            raise DamagedExport(f"The file goes on after its closing line, at line {self.number}.")
        if not raw.endswith(b"\n"):
            raise TruncatedExport(
                f"The file ends in the middle of line {self.number}: it was cut short."
            )
        name, version = self.where()
        if not summed(raw):
            if self.number == 1 and not raw.startswith(b'{"kind":"header"'):
                raise NotAnExport("This is not a tabletale export file (its first line).")
            raise DamagedExport(
                f"The file's {name} does not match its sum: it was changed after it was written.",
                version=version,
            )
        try:
            line = decode_line(raw)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise DamagedExport(
                f"The file's {name} cannot be read: {error}.", version=version
            ) from None
        match line:
            case Header() if self.number == 1:
                self._header(line)
            case CampaignLine() if self.number == 2:
                self._campaign(line)
            case EventLine() if self.campaign is not None and version is not None:
                self._event(line, version)
            case EndLine() if self.campaign is not None:
                self._end(line)
                return
            case _:
                kind = line.__struct_config__.tag  # the line's own "kind"
                article = "an" if str(kind)[0] in "aeiou" else "a"
                raise DamagedExport(
                    f'The file\'s {name} holds {article} "{kind}" line out of its place.',
                    version=version,
                )
        self.digest.update(raw)

    def _header(self, header: Header) -> None:
        if header.format != FORMAT:
            raise NotAnExport(f"This is not a tabletale export file but {header.format!r}.")
        if header.version != FORMAT_VERSION:
            raise NotAnExport(
                f"This export is in format version {header.version}; this server reads "
                f"version {FORMAT_VERSION}."
            )
        if header.scope not in (COMPLETE, PARTIAL, RAW):  # a raw file is replayed as any
            raise NotAnExport(f"This export's scope {header.scope!r} is neither of the known.")
        self.header = header

    def _campaign(self, campaign: CampaignLine) -> None:
        assert self.header is not None
        if self.header.scope == PARTIAL:
            raise PartialExport(campaign.id)
        try:
            game = game_for(campaign.game, campaign.ruleset)
        except (UnknownGame, UnsupportedRuleset):
            raise UnplayedRuleset(campaign.game, campaign.ruleset, played()) from None
        if campaign.own_from != campaign.fork_version + 1 or campaign.head < 1:
            raise DamagedExport("The file's campaign line does not hold together (line 2).")
        self.campaign, self.game = campaign, game
        self.decoder = msgspec.json.Decoder(codec_for(game).event_type)

    def _event(self, line: EventLine[msgspec.Raw], version: int) -> None:
        assert self.decoder is not None
        if line.version != version or line.hash is None:
            raise DamagedExport(
                f"The file's line {self.number} should hold version {version} with its state "
                f"hash, but holds version {line.version}.",
                version=version,
            )
        try:
            event = self.decoder.decode(line.event)
        except (msgspec.ValidationError, msgspec.DecodeError) as error:
            raise DamagedExport(
                f"Version {version}'s event cannot be read as an event of {self.campaign_game}: "
                f"{error}.",
                version=version,
            ) from None
        self.events.append(
            Recorded(
                version,
                event,
                line.hash,
                line.seat,
                line.command,
                line.at_ms,
                line.settled,
                line.action,
            )
        )

    @property
    def campaign_game(self) -> str:
        return "" if self.campaign is None else self.campaign.game

    def _end(self, end: EndLine) -> None:
        assert self.campaign is not None
        if end.events != len(self.events) or end.events != self.campaign.head:
            raise DamagedExport(
                f"The file's closing line counts {end.events} events; the campaign's head is "
                f"{self.campaign.head} and the file holds {len(self.events)}."
            )
        if end.lines != self.number - 1 or end.digest != self.digest.hexdigest():
            raise DamagedExport("The file's digest does not match its lines: it was changed.")
        self.end = end

    def finish(self) -> ExportFile:
        if self.header is None:
            raise TruncatedExport("The file is empty.")
        if self.campaign is None or self.end is None:
            held = len(self.events)
            raise TruncatedExport(
                f"The file ends after {held} event{'' if held == 1 else 's'}, without its "
                "closing line: it was cut short."
            )
        assert self.game is not None
        _check_created(self.campaign, self.events[0])
        _check_replay(self.game, self.campaign.id, self.events)
        return ExportFile(self.header, self.campaign, self.events)


def _check_created(campaign: CampaignLine, first: Recorded[Any]) -> None:
    created = first.event
    if not isinstance(created, CampaignCreated) or (
        created.game,
        created.ruleset,
        created.seats,
    ) != (campaign.game, campaign.ruleset, campaign.seats):
        raise DamagedExport(
            "The file's version 1 is not the creation its campaign line describes.", version=1
        )


def _check_replay(game: Game, campaign_id: str, events: list[Recorded[Any]]) -> None:
    """Replay ``events`` with the game's rules; every state hash must be the recorded one."""
    replay = states(game, [(recorded.version, recorded.event) for recorded in events])
    for recorded in events:
        kind = type(recorded.event).__name__
        try:
            _, state = next(replay)
        # A changed event may break any rule the reducer relies on: whatever it raises, the
        # file is refused at that version.
        except Exception as error:
            raise DamagedExport(
                f"Campaign {campaign_id}'s version {recorded.version} ({kind}) cannot be "
                f"replayed: {error}.",
                version=recorded.version,
            ) from error
        if state_hash(state) != recorded.hash:
            raise DivergentReplay(campaign_id, recorded.version, kind)
