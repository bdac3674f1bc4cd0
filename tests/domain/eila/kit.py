"""Test-only support cards, enemies and items for the rules of chapters 2 to 5."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def spell(timing: str, cost: Json, **gives: Any) -> Json:
    return {"timing": timing, "cost": cost, "gives": gives}


SUPPORTS: list[Json] = [
    {
        "id": "S01",
        "name": "Fireball",
        "text": "1 Magical Stone: +10 combat value.",
        "spell": spell("combat", {"stone": 1}, combat=10),
    },
    {
        "id": "S02",
        "name": "Mending Glow",
        "text": "1 Magical Stone: +1 HP.",
        "spell": spell("anytime", {"stone": 1}, hp=1),
    },
    {"id": "S03", "name": "Guardian", "text": "A shield.", "shield": 2},
    {
        "id": "S04",
        "name": "Owl Study",
        "text": "At night.",
        "spell": spell("night", {"energy": 1}, resources={"knowledge": 2}),
    },
    {"id": "S08", "name": "Leo's Courage", "text": "+1 on Eila's die.", "combat": 1},
    {"id": "S14", "name": "Twin Leaf", "text": "The green die doubled.", "double_green": True},
]

ENEMIES: list[Json] = [
    {"id": "E01", "name": "Rust Hound", "text": "It growls.", "value": 5},
    {
        "id": "E02",
        "name": "Shadow Moth",
        "text": "It feeds on fear.",
        "value": 6,
        "weakness": {"when": {"without": ["fear"]}, "value": 2},
    },
]

ITEMS: list[Json] = [
    {"id": "I01", "name": "Basket", "text": "A test item."},
    {"id": "I02", "name": "Lantern", "text": "A test item."},
    {"id": "I03", "name": "Rope", "text": "For cliffs.", "traits": ["rope"]},
    {"id": "I04", "name": "Magnifier", "text": "For passages.", "traits": ["magnifier"]},
    {"id": "I05", "name": "Bow", "text": "With the arrows: +2.", "combat": 2, "needs": ["I06"]},
    {"id": "I06", "name": "Arrows", "text": "Half of the bow."},
    {
        "id": "I07",
        "name": "Pressed Flower",
        "text": "Discard: +1 HP.",
        "traits": ["flower"],
        "use": {"timing": "anytime", "discard": True, "gives": {"hp": 1}},
    },
    {"id": "I08", "name": "Pocket Watch", "text": "Tick.", "traits": ["pocket_watch"]},
    {
        "id": "I09",
        "name": "Ruby",
        "text": "Sell it: +3 Coin.",
        "traits": ["gem"],
        "use": {"timing": "anytime", "discard": True, "gives": {"resources": {"coin": 3}}},
    },
]


def fight(enemy: str, won: list[Json], lost: list[Json], **more: Any) -> Json:
    return {"fight": enemy, "won": won, "lost": lost, **more}
