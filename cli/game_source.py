"""Where ``check-game`` finds the game it checks: an installed name, or the folder of a game
package that need not be installed (its ``pyproject.toml`` names the object under the
``tabletale.games`` entry point group, as for an installed one).

A game read from a folder is imported from that folder alone: a package of the same name loaded
before (another copy of the game, an installed one) is set aside while the game is in use
(:func:`loaded`; msgspec reads a Struct's annotations from its module as it first meets it) and put
back after, so two copies can be checked one after the other in one process. Each game also gets a
*spec* (:func:`spec_of`), the words another process needs to load the same game
(:mod:`cli.kit_processes`).
"""

from __future__ import annotations

import importlib
import sys
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from domain.core.errors import UnknownGame
from domain.core.game import Game
from domain.games import GROUP, get_game, refusal

PATH = "path:"
OBJECT = "object:"


@contextmanager
def loaded(spec: str) -> Iterator[Game]:
    """The game ``spec`` names, for as long as the block runs: ``path:FOLDER``,
    ``object:MODULE:NAME`` (``NAME()`` for a class to instantiate), a folder, or an installed
    game's name."""
    if spec.startswith(OBJECT):
        yield from_object(spec.removeprefix(OBJECT))
    elif spec.startswith(PATH) or is_folder(spec):
        with _package_of(Path(spec.removeprefix(PATH))) as game:
            yield game
    else:
        yield get_game(spec)


def is_folder(spec: str) -> bool:
    """Whether ``spec`` names a folder rather than an installed game."""
    return "/" in spec or spec.startswith(".") or (bool(spec) and Path(spec).is_dir())


@contextmanager
def _package_of(folder: Path) -> Iterator[Game]:
    """The game of the package in ``folder``, by the entry point its ``pyproject.toml`` names."""
    project = folder / "pyproject.toml"
    try:
        declared = tomllib.loads(project.read_text())
    except OSError as error:
        raise UnknownGame(f"There is no game package in {folder}: {error.strerror}.") from None
    except tomllib.TOMLDecodeError as error:
        raise UnknownGame(f"{project} is not TOML: {error}.") from None
    entries = declared.get("project", {}).get("entry-points", {}).get(GROUP, {})
    if len(entries) != 1:
        raise UnknownGame(
            f"{project} must name one game under [project.entry-points.{GROUP!r}]; it names "
            f"{len(entries)}."
        )
    ((name, target),) = entries.items()
    module, _, attribute = str(target).partition(":")
    with _imported_from(folder.resolve(), module, attribute) as game:
        reason = refusal(name, game)
        if reason is not None:
            raise UnknownGame(f"The game {name!r} in {folder} cannot be served. {reason}")
        yield cast(Game, game)


def from_object(target: str) -> Game:
    """``MODULE:NAME`` imported from this process's path (``NAME()``: a class, instantiated)."""
    module, _, attribute = target.partition(":")
    found = getattr(importlib.import_module(module), attribute.removesuffix("()"))
    return cast(Game, found() if attribute.endswith("()") else found)


def spec_of(game: Game, given: str) -> str | None:
    """How another process loads ``game``, which ``given`` named here (None: it cannot)."""
    if given.startswith((PATH, OBJECT)):
        return given
    if is_folder(given):
        return PATH + str(Path(given).resolve())
    kind = type(game)
    module = sys.modules.get(kind.__module__)
    if module is None:
        return None
    # The object itself, where the module or a package above it holds it (a game package's
    # ``GAME``), else a fresh one of its class, when the class takes no arguments (a test's copy).
    parts = kind.__module__.split(".")
    for end in range(len(parts), 0, -1):
        holder = sys.modules.get(".".join(parts[:end]))
        for name, value in vars(holder or object()).items():
            if value is game:
                return f"{OBJECT}{'.'.join(parts[:end])}:{name}"
    if getattr(module, kind.__qualname__, None) is kind:
        try:
            kind()
        except TypeError:
            return None
        return f"{OBJECT}{kind.__module__}:{kind.__qualname__}()"
    return None


@contextmanager
def _imported_from(folder: Path, module: str, attribute: str) -> Iterator[Any]:
    top = module.partition(".")[0]
    shadowed = {
        name: sys.modules.pop(name)
        for name in list(sys.modules)
        if name == top or name.startswith(top + ".")
    }
    sys.path.insert(0, str(folder))
    try:
        try:
            found = getattr(importlib.import_module(module), attribute)
        except Exception as error:  # whatever the package's import raises is that package's
            raise UnknownGame(
                f"The game in {folder} could not be imported: {type(error).__name__}: {error}"
            ) from None
        yield found
    finally:
        sys.path.remove(str(folder))
        for name in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
            del sys.modules[name]
        sys.modules.update(shadowed)
