"""The contract every game implements, and the shapes it hands to the rest of the system.

A game is a state machine with a pending decision: ``decide`` turns a seat's action into events (or
raises a :class:`~domain.core.errors.DomainError`), ``evolve`` applies one event, and
``legal_actions`` lists what a seat may do now, sorted, each with a stable id and a label a person
can act on. States are frozen Structs that carry the campaign's :class:`~domain.core.rng.Rng` in a
field named ``rng``.
"""

from __future__ import annotations

import functools
from typing import Any, Literal, Protocol, TypeVar, runtime_checkable

import msgspec

from domain.core.errors import ContentError, InvalidOptions
from domain.core.events import CampaignCreated, Options
from domain.core.rng import Chance

CONTRACT_VERSION = 1
"""The version of the contract below. A game states the version it was written for in its
``contract`` attribute, and the registry (:mod:`domain.games`) refuses one written for another: a
change that asks something new of games, or gives them something different, moves this number."""

Outcome = Literal["running", "won", "lost"]

Step = tuple[Any, Any]
"""An event and the state it leaves, as ``Game.play`` returns them."""


class LegalAction(msgspec.Struct, frozen=True, gc=False):
    """One thing a seat may do now. ``id`` is stable for the same action in the same state."""

    id: str
    label: str
    action: Any


class GameInfo(msgspec.Struct, frozen=True, kw_only=True):
    """A game's facts, declared once as data and read by everything else (the API serves them):
    who may sit at it, whether it hides anything, whether chance plays a part."""

    name: str
    """The game's name in the API and CLI (``gil-ennis``, ``eila``, ``machina``)."""
    title: str
    ruleset: str
    """Recorded in every campaign created and checked when one is replayed: the engine refuses a
    campaign whose ruleset differs from the game's it is handed (``domain.games.game_of`` finds
    the game of a campaign's own ruleset). It names the rules version and the content version
    (``gil-ennis/2+content.1``); bump it when rules or content change what a stream means."""
    seat_layouts: tuple[tuple[str, ...], ...]
    """The seat tuples a campaign may be created with; the first is the default."""
    hidden_information: bool
    chance: bool
    chapters: bool = False
    """Whether a campaign is a series of chapters (see :class:`Progress`)."""
    seat_names: dict[str, str] = msgspec.field(default_factory=dict)
    """The name a person knows each seat by (``gil`` -> ``Gil``), for turn bars and lobbies."""
    round_name: str = "day"
    """What one round of play is called in the rulebook (``day``, ``round``): what
    :attr:`Progress.day` counts."""
    chapter_names: dict[str, str] = msgspec.field(default_factory=dict)
    """Each chapter id (as :attr:`Progress.chapter` gives it) -> its title in the game's words."""
    longest: int | None = None
    """The most moves (actions of seats) a campaign takes before it ends, under any options and
    however it is played; for a game played in chapters, the most one attempt at a chapter takes
    (a lost chapter may be retried). The game kit's random playthroughs must end within it (a game
    that declares none is played as far as the kit's default, and named if it is still running
    there). Like OpenSpiel's ``max_game_length``: a game that never ends fails the kit."""


class ChapterAttempts(msgspec.Struct, frozen=True, gc=False):
    """How many attempts at one chapter were won and lost."""

    chapter: str
    won: int = 0
    lost: int = 0


class Progress(msgspec.Struct, frozen=True, omit_defaults=True, gc=False):
    """Where a campaign stands, for catalogs, statistics, simulators and lobbies."""

    chapter: str | None = None
    day: int | None = None
    chapter_outcome: Outcome | None = None
    """For games played in chapters: how the current attempt at the chapter stands."""
    attempts: tuple[ChapterAttempts, ...] = ()
    """For games played in chapters: the finished attempts at each chapter, won and lost."""


class Game(Protocol):
    """What the campaign service, projections and bots need from a game."""

    contract: int
    """The version of this contract the game was written for (:data:`CONTRACT_VERSION`)."""
    info: GameInfo
    options_type: type[msgspec.Struct]
    """The campaign options, as a Struct whose fields have defaults; ``options_of`` decodes a
    campaign's options into it and refuses what it does not allow."""
    event_type: Any
    """The union of the game's own events, for building decoders."""
    state_type: Any
    view_type: Any
    """The Struct ``view`` returns."""

    def initial(self, created: CampaignCreated) -> Any:
        """The state right after ``created``: pure, no draws. The engine then keys its ``rng``
        with the campaign's seed and salt (see :func:`domain.core.engine.evolve`)."""
        ...

    def setup(self, state: Any) -> list[Any]:
        """The events of the rulebook's set-up (which may draw) that follow creation."""
        ...

    def decide(self, state: Any, seat: str, action: Any) -> list[Any]:
        """The events ``seat``'s ``action`` causes; raises a DomainError for an illegal one."""
        ...

    def play(self, state: Any, seat: str, action: Any) -> list[Step]:
        """Like ``decide`` for an action already taken from ``legal_actions(state, seat)``: no
        second check, and each event comes with the state it leaves, so nothing is evolved twice.
        """
        ...

    def evolve(self, state: Any, event: Any) -> Any: ...

    def legal_actions(self, state: Any, seat: str) -> list[LegalAction]: ...

    def to_act(self, state: Any) -> tuple[str, ...]:
        """The seats that have at least one legal action now."""
        ...

    def outcome(self, state: Any) -> Outcome: ...

    def progress(self, state: Any) -> Progress: ...

    def view(self, state: Any, seat: str | None) -> msgspec.Struct:
        """What ``seat`` (``None``: a spectator) may see of ``state``."""
        ...

    def redact(self, event: Any, seat: str | None) -> Any:
        """``event`` as ``seat`` may see it (hidden information removed)."""
        ...

    def describe(self, event: Any, state: Any) -> str | None:
        """One readable timeline line for ``event`` applied to ``state``, or None to skip it."""
        ...


@runtime_checkable
class PublicContent(Protocol):
    """A game that publishes the content a seat may look up by the ids its view shows (the map,
    card faces): what lies face up on the table or in the rulebook, never what is met in play."""

    def public_content(self) -> msgspec.Struct: ...


@runtime_checkable
class Sampled(Protocol):
    """A game with hidden information that can draw a full state a seat could be in (see
    :mod:`domain.core.sampling`): what the search bot plays through, and what the game kit
    (:mod:`domain.kit`) permutes to check that a view shows nothing its viewer may not see."""

    def sample(self, state: Any, seat: str | None, chance: Chance) -> Any:
        """A state that ``seat`` (``None``: a spectator) cannot tell from ``state``, with
        everything hidden from it redrawn from ``chance``."""
        ...


@runtime_checkable
class FaceDown(Protocol):
    """A game with face-down piles (decks, unturned tiles), whose order no seat knows: the
    cards a draw turns up are luck as much as a die is (:mod:`domain.core.luck`)."""

    def face_down(self, state: Any) -> tuple[tuple[object, ...], ...]:
        """Every face-down pile of ``state``, each as the cards (or placed tiles) it holds."""
        ...


@runtime_checkable
class CheckedContent(Protocol):
    """A game whose content files can be checked on their own, every error reported."""

    def content_errors(self) -> list[ContentError]: ...


@runtime_checkable
class UnlabelledActions(Protocol):
    """A game that can list its legal actions without writing their labels (every ``label``
    empty), for a search that asks for them thousands of times a decision and shows none."""

    def unlabelled_actions(self, state: Any, seat: str) -> list[LegalAction]:
        """``legal_actions(state, seat)``, the same ids and actions in the same order, with
        empty labels."""
        ...


OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)


def options_of(game: Game, options: Options, kind: type[OptionsT] | None = None) -> OptionsT:
    """``options`` decoded into the game's options Struct (``kind`` names it, for typing);
    raises InvalidOptions with the reason."""
    try:
        return msgspec.convert(options, kind or game.options_type)  # type: ignore[return-value]
    except msgspec.ValidationError as error:
        raise InvalidOptions(f"Options for {game.info.title} are not valid: {error}.") from None


def check_seats(game: Game, seats: tuple[str, ...]) -> None:
    if seats not in game.info.seat_layouts:
        allowed = " or ".join("[" + ", ".join(layout) + "]" for layout in game.info.seat_layouts)
        raise InvalidOptions(f"{game.info.title} is played with seats {allowed}.")


_TAGS: dict[type, str] = {}
"""Each action type's tag as text, looked up once: ids are spelled for every legal action of
every state a server shows."""


def action_id(action: msgspec.Struct) -> str:
    """A stable id for an action Struct: its tag, then its field values, joined by ``:``.

    ``Dream(mode="alone", dreamer="gil")`` tagged ``"dream"`` becomes ``"dream:alone:gil"``.
    """
    try:
        return _remembered_id(action)
    except TypeError:  # a Struct that is not frozen, or holds a list, cannot be hashed
        return _spelled_id(action)


def _spelled_id(action: msgspec.Struct) -> str:
    kind = type(action)
    tag = _TAGS.get(kind)
    if tag is None:
        tag = _TAGS[kind] = str(action.__struct_config__.tag)
    parts = [tag]
    for value in msgspec.structs.astuple(action):
        exact = type(value)
        if exact is str:
            parts.append(value)
        elif exact is int:
            parts.append(str(value))
        elif value is None:
            parts.append("-")
        elif isinstance(value, bool):
            parts.append("true" if value else "false")
        elif isinstance(value, tuple):
            parts.append("+".join(map(str, value)) or "-")
        else:
            parts.append(str(value))
    return ":".join(parts)


_remembered_id = functools.lru_cache(maxsize=1024)(_spelled_id)
"""Ids spelled once per distinct action: every listing makes its actions anew, and a game's
actions are few (a frozen action Struct hashes and compares by its type and fields, so equal
actions have one id; a field's type never changes, so ``1`` and ``True`` never share a field).
The cache is bounded and shared by threads safely; it changes no result."""
