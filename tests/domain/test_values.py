"""The domain's values stay out of the cycle collector, and only values that cannot be part of a
reference cycle do (domain/__init__.py)."""

from __future__ import annotations

import gc
import importlib
import pkgutil
import typing
from typing import Any

import msgspec

import domain
from domain.gil_ennis import GAME
from tests.domain.gil_ennis.helpers import fresh


def _frozen(name: str) -> bool:
    """Whether module ``name`` lies in a frozen copy of an older ruleset's rules (``FROZEN`` in
    its package): kept as it was, before values were kept out of the collector."""
    parts = name.split(".")
    return any(
        hasattr(importlib.import_module(".".join(parts[:n])), "FROZEN")
        for n in range(2, len(parts) + 1)
    )


def _structs() -> list[type[msgspec.Struct]]:
    found: dict[str, type[msgspec.Struct]] = {}
    for info in pkgutil.walk_packages(domain.__path__, "domain."):
        if _frozen(info.name):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, msgspec.Struct)
                and value.__module__ == module.__name__
            ):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


def _mutable(annotation: Any) -> bool:
    origin = typing.get_origin(annotation) or annotation
    if origin in (list, dict, set):
        return True
    return any(_mutable(argument) for argument in typing.get_args(annotation))


def _acyclic(struct: type[msgspec.Struct]) -> bool:
    """Frozen, with no list, dict or set among its fields."""
    config = struct.__struct_config__
    return config.frozen and not any(
        _mutable(hint) for hint in typing.get_type_hints(struct).values()
    )


def _acyclic_family(struct: type[msgspec.Struct]) -> bool:
    """Acyclic, and so is every subclass (which would inherit ``gc=False`` from it)."""
    return _acyclic(struct) and all(_acyclic_family(sub) for sub in struct.__subclasses__())


STRUCTS = _structs()


def test_the_domain_declares_its_values() -> None:
    assert len(STRUCTS) > 300


def test_no_value_that_could_be_part_of_a_cycle_is_hidden_from_the_collector() -> None:
    hidden = [s for s in STRUCTS if not s.__struct_config__.gc]
    assert hidden
    unsafe = [s.__qualname__ for s in hidden if not _acyclic(s)]
    assert unsafe == []


def test_every_value_that_cannot_be_part_of_a_cycle_is_kept_out_of_the_collector() -> None:
    """Bots' own figures (search levels, hints) are not kept by the server and may stay tracked."""
    tracked = [
        f"{s.__module__}.{s.__qualname__}"
        for s in STRUCTS
        if s.__struct_config__.gc
        and _acyclic_family(s)
        and not s.__module__.startswith("domain.bots")
    ]
    assert tracked == []


def test_the_server_holds_untracked_states_and_legal_actions() -> None:
    state = fresh(seed=7)
    legal = GAME.legal_actions(state, GAME.to_act(state)[0])
    assert not gc.is_tracked(state)
    assert legal and not any(gc.is_tracked(item) or gc.is_tracked(item.action) for item in legal)
