"""``tabletale games``: the games installed here, each with its ruleset (and the older ones it
keeps), and any that failed."""

from __future__ import annotations

import sys

from domain.core.game import CONTRACT_VERSION
from domain.games import REGISTRY, Registry


def list_games(registry: Registry = REGISTRY) -> int:
    """Print one line per installed game, then each one set aside with the reason; exit status 1
    when any was set aside."""
    print(f"Games for version {CONTRACT_VERSION} of the game contract:")
    for name, found in sorted(registry.games.items()):
        info = found.game.info
        print(f"  {name:<12} {info.title} ({info.ruleset}), from {found.source}")
        listed = getattr(found.game, "releases", None)
        older = [ruleset for ruleset in listed() if ruleset != info.ruleset] if listed else []
        if older:  # the rulesets it keeps for campaigns started under them (docs/releases.md)
            print(f"  {'':<12} and campaigns started under {', '.join(older)}")
    if not registry.games:
        print("  none")
    for name, reason in sorted(registry.failed.items()):
        print(f"tabletale: the game {name!r} cannot be served. {reason}", file=sys.stderr)
    return 1 if registry.failed else 0


def warn_failed(registry: Registry = REGISTRY) -> None:
    """Name each game set aside, before a command that serves the others."""
    for name, reason in sorted(registry.failed.items()):
        print(f"tabletale: the game {name!r} cannot be served. {reason}", file=sys.stderr)
