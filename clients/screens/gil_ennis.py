"""The Epic of Gil & Ennis in the terminal: the trail with the marker, the worry dice, the pool
and the dream deck, each character's HAND, BACKPACK and POCKET (and the dice rolled for it that
wait to be packed or added), insights, where PITCH stands in its three steps, the worries under
the map, the dream being paid, and Mount Humbaba on the final night. The actions are listed under
headings: packing the dice, and PITCH's steps in the rulebook's order."""

from __future__ import annotations

from typing import Any

from clients.screens.common import by_id, die, humanize, keep, plural, row

PITCH_STEPS = (
    ("campsite", "i. campsite action"),
    ("abilities", "ii. abilities"),
    ("organize", "iii. organize"),
)
SPECIALS = {
    "reroll": "reroll dice, one character",
    "calm": "calm the worry, one character",
    "give": "give a die, one character",
    "cash_insights": "cash insights, each character once",
}
PHASES = {
    "setup": "setting up",
    "hike": "hike",
    "pitch": "pitch camp",
    "sleep": "sleep",
    "break": "break camp",
    "final_night": "the final night",
}


def _site(site: dict[str, Any], here: str) -> str:
    return keep(f"@{site['name']}" if site["id"] == here else str(site["name"]))


def trail(view: dict[str, Any], content: dict[str, Any]) -> list[str]:
    """The map as text; ``@`` marks where Gil and Ennis are."""
    trail_map = content.get("map")
    here = view.get("campsite", "")
    if not trail_map:
        path = f" on the {view['path']} path" if view.get("path") else ""
        return row("Map", f"at {humanize(here)}{path}")
    home = {"id": "home", "name": trail_map["home"]}
    lines = row("Map", " > ".join(_site(site, here) for site in [home, *trail_map["trail"]]))
    chosen = view.get("path")
    for number, path in enumerate(trail_map["paths"]):
        branch = "└" if number == len(trail_map["paths"]) - 1 else "├"
        sites = " > ".join(_site(site, here) for site in path["campsites"])
        mark = "" if not chosen else " (taken)" if path["id"] == chosen else " (not taken)"
        lines += row("", f"{branch} {keep(path['name'] + mark)}: {sites}")
    summit = {"id": "summit", "name": trail_map["summit"]}
    return lines + row("", f"> {_site(summit, here)}")


def character(
    name: str, card: dict[str, Any], content: dict[str, Any], *, setup: bool = False
) -> list[str]:
    backpack = (card.get("backpack") or []) + [0] * (3 - len(card.get("backpack") or []))
    dice = (
        f"HAND {die(card.get('hand'))}  BACKPACK {''.join(die(v) for v in backpack)}"
        f"  POCKET {die(card.get('pocket'))}"
    )
    lines = row(name, dice + ("  (organized)" if card.get("organized") else ""))
    rolled = "".join(die(v) for v in card.get("rolled") or [])
    if rolled and setup:
        lines += row("", f"rolled {rolled}: to pack, one in the HAND, one in the POCKET")
    elif rolled:
        lines += row("", f"drawn {rolled}: to add one at a time through the HAND")
    dreams = by_id(content.get("dreams"))
    for insight_id in card.get("insights") or []:
        insight = dreams.get(insight_id, {}).get("insight")
        text = f"{insight['name']}: {insight['text']}" if insight else humanize(insight_id)
        lines += row("", f"insight: {text}")
    return lines


def _campsite(view: dict[str, Any], content: dict[str, Any]) -> dict[str, Any]:
    trail_map = content.get("map") or {}
    sites = list(trail_map.get("trail") or [])
    for path in trail_map.get("paths") or []:
        sites += path.get("campsites") or []
    return next((site for site in sites if site.get("id") == view.get("campsite")), {})


def pitch(view: dict[str, Any], content: dict[str, Any], names: dict[str, str]) -> list[str]:
    """PITCH's steps in order: ``[...]`` marks the one the party is at; earlier ones are passed."""
    if view.get("phase") != "pitch":
        return []
    site = _campsite(view, content)
    special = site.get("special")
    if not special:
        offer = "none here"
    elif special == "cash_insights" and view.get("cashed"):
        offer = "cash insights; cashed: " + ", ".join(names.get(c, c) for c in view["cashed"])
    elif view.get("special_used"):
        offer = f"{SPECIALS.get(special, humanize(special))}: done"
    else:
        offer = SPECIALS.get(special, humanize(special))
    at = next((i for i, (step, _) in enumerate(PITCH_STEPS) if step == view.get("step")), 0)
    parts = []
    for number, (step, title) in enumerate(PITCH_STEPS):
        text = f"{title} ({offer})" if step == "campsite" and number >= at else title
        if number < at:
            text += " (passed)"
        parts.append(keep(f"[{text}]" if number == at else text))
    ready = [names.get(s, s) if s != "player" else "both" for s in view.get("ready") or []]
    parts.append(keep("turn in" + (f" ({', '.join(ready)} done)" if ready else "")))
    return row("Pitch", " > ".join(parts))


GROUPS = {
    "assign": "Pack the dice:",
    "add-drawn": "Add the drawn dice:",
    "reroll": "i. Campsite action:",
    "calm": "i. Campsite action:",
    "give": "i. Campsite action:",
    "cash-insights": "i. Campsite action:",
    "organize": "iii. Organize:",
    "turn-in": "Done for the day:",
}


def headings(view: dict[str, Any], actions: list[dict[str, Any]]) -> list[str]:
    """A heading for each action: the set-up's packing, PITCH's steps in order, the rest."""
    pitching = view.get("phase") == "pitch"
    out = []
    for action in actions:
        tag = str(action.get("id", "")).split(":")[0]
        if tag == "power":
            out.append("ii. Abilities and insights:" if pitching else "Abilities and insights:")
        else:
            out.append(GROUPS.get(tag, "Other actions:"))
    return out


def dream(view: dict[str, Any], content: dict[str, Any], names: dict[str, str]) -> list[str]:
    if not view.get("dream"):
        return []
    card = by_id(content.get("dreams")).get(view["dream"], {})
    dreamers = [names.get(d, d) for d in view.get("dreamers") or []]
    asks = card.get("together" if len(dreamers) > 1 else "alone") or []
    pledged = {p["requirement"]: p for p in view.get("pledges") or []}
    needs = []
    for index, need in enumerate(asks):
        span = str(need["low"]) if need["low"] == need["high"] else f"{need['low']}-{need['high']}"
        given = pledged.get(index)
        needs.append(
            f"{span} ({names.get(given['character'], '')} {die(given['value'])})"
            if given
            else f"{span} (open)"
        )
    who = " and ".join(dreamers) or "nobody"
    text = f"{card.get('name', humanize(view['dream']))}, dreamt by {who}"
    if needs:
        text += "; needs " + ", ".join(needs)
    return row("Dream", text)


def board(view: dict[str, Any], content: dict[str, Any], seat: str | None) -> list[str]:
    names = {c["id"]: c["name"] for c in content.get("characters") or []} or {
        "gil": "Gil",
        "ennis": "Ennis",
    }
    day = f"day {view['day']}" if view.get("day") else "setting out"
    phase = PHASES.get(view.get("phase", ""), humanize(view.get("phase", "")))
    # PITCH's step has a line of its own
    pitching = view.get("phase") == "pitch"
    step = f" ({humanize(view['step']).lower()})" if view.get("step") and not pitching else ""
    lines = [f"  {day}, {phase}{step}"]
    if view.get("phase") == "setup":
        lines[0] += ": pack each character's five rolled dice"
    lines += trail(view, content)
    worry = "".join(die(v) for v in view.get("worry_dice") or [])
    deck = f"{plural(view.get('deck_count', 0), 'dream card')} face down"
    if view.get("discard"):
        deck += f", {len(view['discard'])} discarded"
    pool = plural(view.get("pool", 0), "die", "dice")
    lines += row("Worry", f"level {view.get('worry_level')} {worry}   Pool: {pool}   {deck}")
    setup = view.get("phase") == "setup"
    for who in ("gil", "ennis"):
        lines += character(names.get(who, humanize(who)), view.get(who) or {}, content, setup=setup)
    lines += pitch(view, content, names)
    dreams = by_id(content.get("dreams"))
    worries = []
    for index, worry_id in enumerate(view.get("worries") or [], start=1):
        card = dreams.get(worry_id, {}).get("worry")
        worries.append(
            f"{index}. {card['name']}: {card['text']}" if card else f"{index}. {humanize(worry_id)}"
        )
    lines += row("Worries", "; ".join(worries) if worries else "none under the map yet")
    if view.get("forage"):
        lines += row("Foraged", die(view["forage"]))
    lines += dream(view, content, names)
    if view.get("challenge"):
        placed = view.get("placed") or []
        spaces = [
            f"{die(value)}<-{die(placed[i] if i < len(placed) else 0)}"
            for i, value in enumerate(view["challenge"])
        ]
        lines += row("Humbaba", "  ".join(spaces) + "   (each die needs one of the same value)")
    if view.get("ready"):
        lines += row("Done", ", ".join(view["ready"]) + " turned in for the night")
    return lines
