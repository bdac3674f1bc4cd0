"""Small test-only content packs and a driver for playing them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from domain.core.engine import evolve
from domain.core.events import CampaignCreated
from domain.core.game import LegalAction
from domain.core.hashing import state_hash
from domain.eila import EilaGame
from domain.eila.content import load_pack
from domain.eila.state import EilaState, Resources

Json = dict[str, Any]

REST: Json = {"letter": "A", "label": "Rest", "effects": [], "destination": "past"}

RULESET: Json = {
    "storage": {"tangible": 8, "intangible": 8, "fear": 8},
    "time_track": 7,
    "habits_join_green_deck_from_chapter": 2,
    "night_submissions": {"default": 2, "chapters": [{"chapter": 0, "limit": 2}]},
    "conversions": [
        {"id": "food-energy", "give": "food", "give_amount": 2, "get": "energy", "get_amount": 1},
        {
            "id": "knowledge-stone",
            "give": "knowledge",
            "give_amount": 5,
            "get": "stone",
            "get_amount": 1,
        },
    ],
}


def face(value: int, *, shield: bool = False, symbol: str = "") -> Json:
    return {"value": value, "shield": shield, "symbol": symbol}


def dice(red: list[Json], green: list[Json] | None = None) -> Json:
    """A ruleset with combat dice of these faces (one face: a die that always shows it)."""
    found = {"red": red, "green": green or [face(1)]}
    return {**RULESET, "combat": {"energy_boost": 2, "dice": found}}


ITEMS: Json = {
    "items": [
        {"id": f"I0{n}", "name": name, "text": "A test item."}
        for n, name in enumerate(("Basket", "Lantern", "Rope", "Map"), start=1)
    ]
}


def option(letter: str, effects: list[Json], destination: str = "past", **extra: Any) -> Json:
    return {
        "letter": letter,
        "label": f"Option {letter}",
        "effects": effects,
        "destination": destination,
        **extra,
    }


def card(number: str, colour: str, *options: Json) -> Json:
    return {
        "number": number,
        "colour": colour,
        "name": f"Card {number}",
        "text": "Test.",
        "options": list(options) or [REST],
    }


def habit(number: str, *options: Json) -> Json:
    return card(number, "habit", *options)


def chapter_zero(cards: dict[str, list[Json]] | None = None, **goal: Any) -> Json:
    """Chapter 0 with the rulebook's numbers and colours; ``cards`` overrides options by number."""
    colours = ["green"] * 5 + ["blue"] * 3 + ["red"] * 3
    cards = cards or {}
    return {
        "chapter": 0,
        "title": "Test chapter 0",
        "prologue": None,
        "goal": {
            "normal": {"submit": goal.get("submit", {"food": 2}), "hearts": goal.get("hearts", 3)},
            "advanced": {"submit": {"food": 3}, "hearts": 2},
        },
        "cards": [
            card(f"{n:03d}", colours[n - 1], *cards.get(f"{n:03d}", [])) for n in range(1, 12)
        ],
    }


def chapter(
    number: int,
    green: list[list[Json]],
    *,
    submit: Json | None = None,
    hearts: int = 3,
    prologue: Json | None = None,
) -> Json:
    return {
        "chapter": number,
        "title": f"Test chapter {number}",
        "prologue": None if prologue is None else {"resources": prologue},
        "goal": {
            "normal": {"submit": submit or {"food": 1}, "hearts": hearts},
            "advanced": {"submit": submit or {"food": 1}, "hearts": hearts},
        },
        "cards": [card(f"{number}{n:02d}", "green", *opts) for n, opts in enumerate(green, 1)],
    }


def write_pack(
    root: Path,
    chapters: list[Json],
    *,
    habits: list[Json] | None = None,
    ruleset: Json | None = None,
    items: list[Json] | None = None,
    supports: list[Json] | None = None,
    enemies: list[Json] | None = None,
    advanced: list[Json] | None = None,
) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    names = [f"chapter{c['chapter']}.json" for c in chapters]
    manifest: Json = {
        "ruleset": "ruleset.json",
        "items": "items.json",
        "habits": "habits.json",
        "chapters": names,
    }
    files: dict[str, Json] = {
        "ruleset.json": ruleset or RULESET,
        "items.json": ITEMS if items is None else {"items": items},
        "habits.json": {"cards": habits or [habit("H1")]},
    }
    for role, entries, key in (
        ("supports", supports, "supports"),
        ("enemies", enemies, "enemies"),
        ("advanced", advanced, "cards"),
    ):
        if entries is not None:
            manifest[role] = f"{role}.json"
            files[f"{role}.json"] = {key: entries}
    files["pack.json"] = manifest
    files.update(zip(names, chapters, strict=True))
    for name, data in files.items():
        (root / name).write_text(json.dumps(data))
    return root


def make_game(root: Path, chapters: list[Json], **kw: Any) -> EilaGame:
    return EilaGame(load_pack(write_pack(root, chapters, **kw)))


class Table:
    """A campaign in progress: the game, the state and every event so far."""

    def __init__(self, game: EilaGame, seed: int = 1, **options: Any) -> None:
        self.game = game
        created = CampaignCreated("eila", game.info.ruleset, seed, "salt", ("player",), options)
        self.events: list[Any] = [created]
        self.state: EilaState = evolve(game, None, created)
        self.hashes = [state_hash(self.state)]
        """The hash of the live state after every event, version 1 first."""
        self.apply(game.setup(self.state))

    def apply(self, events: list[Any]) -> list[Any]:
        for event in events:
            self.state = self.game.evolve(self.state, event)
            self.hashes.append(state_hash(self.state))
        self.events.extend(events)
        return events

    def legal(self) -> list[LegalAction]:
        return self.game.legal_actions(self.state, "player")

    def labels(self) -> list[str]:
        return [la.label for la in self.legal()]

    @property
    def resolving(self) -> bool:
        """Whether an effect waits for a choice."""
        return bool(self.state.frames)

    def do(self, label: str) -> list[Any]:
        """Take the legal action whose label starts with ``label``."""
        found = [la for la in self.legal() if la.label.startswith(label)]
        assert len(found) == 1, f"{label!r} matches {len(found)} of {self.labels()}"
        return self.apply(self.game.decide(self.state, "player", found[0].action))

    def give(self, **resources: int) -> None:
        """Put resources in storage directly, to set a scene (not a rule)."""
        self.state = replace(self.state, resources=Resources(**resources))

    def act(self, action: Any) -> list[Any]:
        return self.apply(self.game.decide(self.state, "player", action))
