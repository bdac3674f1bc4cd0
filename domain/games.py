"""The registry of installed games by their API name.

A game is a Python package that names its :class:`~domain.core.game.Game` object under the entry
point group ``tabletale.games`` (``machina = "domain.machina:GAME"``); the three games shipped
with tabletale register the same way, in its ``pyproject.toml``. Each entry is loaded on its own:
one that cannot be imported, is not a game, names itself differently, or was written for another
version of the contract (:data:`~domain.core.game.CONTRACT_VERSION`) is set aside with the reason,
and the others still serve.

Reading which packages are installed is the one thing here that looks outside the domain; it
happens once, when this module is first imported, and only this module does it (an import
contract in ``pyproject.toml`` keeps the rest of the domain from reading package metadata).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Protocol, cast

from domain.core.errors import UnknownGame, UnsupportedRuleset
from domain.core.events import CampaignCreated
from domain.core.game import CONTRACT_VERSION, Game

GROUP = "tabletale.games"

_REQUIRED = (
    "info",
    "options_type",
    "event_type",
    "initial",
    "setup",
    "decide",
    "play",
    "evolve",
    "legal_actions",
    "to_act",
    "outcome",
    "progress",
    "view",
    "redact",
    "describe",
)


class Entry(Protocol):
    """An installed entry point, as :mod:`importlib.metadata` gives it."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    def load(self) -> Any: ...


@dataclass(frozen=True)
class Installed:
    """A game that loaded, and where it came from."""

    game: Game
    source: str
    """The entry point's target (``domain.machina:GAME``)."""


@dataclass
class Registry:
    games: dict[str, Installed] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    """Entry point name -> why it could not be loaded, in a sentence."""


def refusal(name: str, game: Any) -> str | None:
    """Why ``game``, registered as ``name``, cannot be served; None when it can."""
    missing = [attribute for attribute in _REQUIRED if not hasattr(game, attribute)]
    if missing:
        return f"It is not a game: it has no {', '.join(missing)}."
    contract = getattr(game, "contract", None)
    if contract != CONTRACT_VERSION:
        stated = "states no contract version" if contract is None else f"version {contract!r}"
        return (
            f"It was written for {stated} of the game contract, and this tabletale implements "
            f"version {CONTRACT_VERSION}."
        )
    if game.info.name != name:
        return f"It is registered as {name!r} but calls itself {game.info.name!r}."
    return None


def registry_of(entries: Iterable[Entry]) -> Registry:
    """The games of ``entries``, loaded one by one, in name order."""
    registry = Registry()
    for entry in sorted(entries, key=lambda e: (e.name, e.value)):
        if entry.name in registry.games:
            taken = registry.games[entry.name].source
            registry.failed[entry.name] = (
                f"{entry.value} also calls itself {entry.name!r}, which {taken} already is."
            )
            continue
        try:
            game = entry.load()
        except Exception as error:  # any failure of a third-party import is that package's
            registry.failed[entry.name] = (
                f"{entry.value} could not be imported: {type(error).__name__}: {error}"
            )
            continue
        reason = refusal(entry.name, game)
        if reason is None:
            registry.games[entry.name] = Installed(cast(Game, game), entry.value)
        else:
            registry.failed[entry.name] = f"{entry.value}: {reason}"
    return registry


def installed(group: str = GROUP) -> Registry:
    """The games installed in this environment."""
    return registry_of(entry_points(group=group))


REGISTRY = installed()

GAMES: dict[str, Game] = {name: found.game for name, found in REGISTRY.games.items()}
FAILED: dict[str, str] = dict(REGISTRY.failed)


def get_game(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        pass
    if name in FAILED:
        raise UnknownGame(f"The game {name!r} is installed but cannot be served. {FAILED[name]}")
    if not GAMES:
        raise UnknownGame(
            f"There is no game called {name!r}: no game is installed. Install tabletale "
            f"(pip install -e .) so that its games' entry points ({GROUP}) are registered."
        )
    known = ", ".join(sorted(GAMES))
    raise UnknownGame(f"There is no game called {name!r}; known games: {known}.")


# -- rulesets -------------------------------------------------------------------------------------
# A game keeps every ruleset it released: a campaign is played under the ruleset that created it
# for as long as it exists (docs/releases.md). A game lists its rulesets with ``releases()``, a
# mapping from each ruleset's name, oldest first, to a function building the game as it played
# under that ruleset; the game object itself is the ruleset in force, the one new campaigns get.
# A game without ``releases`` has released one ruleset: its own.

_BUILT: dict[tuple[str, str], Game] = {}


def _releases(game: Game) -> Mapping[str, Callable[[], Game]]:
    listed = getattr(game, "releases", None)
    found: dict[str, Callable[[], Game]] = dict(listed()) if callable(listed) else {}
    found[game.info.ruleset] = lambda: game
    return found


def rulesets_of(name: str) -> tuple[str, ...]:
    """Every ruleset the game ``name`` has released, oldest first; the last is in force."""
    game = get_game(name)
    older = [ruleset for ruleset in _releases(game) if ruleset != game.info.ruleset]
    return (*older, game.info.ruleset)


def game_for(name: str, ruleset: str) -> Game:
    """The game ``name`` as it plays under ``ruleset``, one it has released (the ruleset in force
    or an older one); raises :class:`UnsupportedRuleset` for a ruleset it never released (one of a
    newer server, or of another build)."""
    current = get_game(name)
    if ruleset == current.info.ruleset:
        return current
    built = _BUILT.get((name, ruleset))
    if built is not None:
        return built
    build = _releases(current).get(ruleset)
    if build is None:
        known = ", ".join(repr(r) for r in rulesets_of(name))
        raise UnsupportedRuleset(
            f"This server does not play {name} by the ruleset {ruleset!r}: it is none of the "
            f"rulesets it keeps (a newer server, another build, or one from before it was "
            f"retired may play it). It plays {name} by {known}."
        )
    game = build()
    if game.info.ruleset != ruleset or game.info.name != name:
        raise UnsupportedRuleset(
            f"The ruleset {ruleset!r} of {name} builds a game that calls itself "
            f"{game.info.name} by {game.info.ruleset!r}."
        )
    _BUILT[(name, ruleset)] = game
    return game


def game_of(created: CampaignCreated) -> Game:
    """The game a campaign is played by: its game under the ruleset its creation recorded."""
    return game_for(created.game, created.ruleset)
