"""Record a ruleset's streams with the code of an older commit, for a ruleset that was retired
before it had recordings of its own.

Run inside a copy of that commit's tree, with that tree first on the path::

    git archive 04b28c7 | tar -x -C /tmp/old-machina-1
    cd /tmp/old-machina-1 && PYTHONPATH=. python /path/to/tests/recorded/record_old.py \\
        /path/to/tests/recorded machina trio-random

It plays the scenarios below (today's, by the same seeds) with the old commit's engine and game,
through the old tree's own recorder (``tests.recorded.streams``) when it has one, else through
:func:`record` here, which follows today's recorder with the engine of before keyed chance. Each
is written as today's recorder writes it, under ``<out>/<game>/<ruleset after the slash>/``
(``eila-1``, named before rulesets had a slash, under ``<out>/eila/1/``). The folder only grows:
a recording already there is kept as it is.
"""

from __future__ import annotations

import sys
from hashlib import blake2b
from pathlib import Path
from typing import Any

import msgspec

SALT = "recorded"
# Today's scenarios (tests/recorded/streams.py), for trees whose recorder did not know them.
SCENARIOS: dict[tuple[str, str], dict[str, Any]] = {
    ("gil-ennis", "solo"): {"seed": 101, "bot_seed": 1, "seats": ("player",), "options": {}},
    ("gil-ennis", "coop"): {"seed": 202, "bot_seed": 2, "seats": ("gil", "ennis"), "options": {}},
    ("gil-ennis", "solo-easy"): {
        "seed": 303,
        "bot_seed": 3,
        "seats": ("player",),
        "options": {"worry": 1},
    },
    ("eila", "chapter-0"): {
        "seed": 404,
        "bot_seed": 4,
        "seats": ("player",),
        "options": {},
        "max_actions": 60,
        "avoid": ("abandon",),
    },
    ("eila", "chapter-1"): {
        "seed": 505,
        "bot_seed": 5,
        "seats": ("player",),
        "options": {"chapter": 1},
        "max_actions": 60,
        "avoid": ("abandon",),
    },
    # Machina's first ruleset, with the seeds its first recordings used.
    ("machina", "trio-random"): {
        "seed": 909,
        "bot_seed": 9,
        "seats": ("ada", "bram", "cyra"),
        "options": {},
        "max_actions": 1_000,
    },
}


def content_folder(game: str) -> Path:
    if game == "eila":
        from domain.eila.content import DEFAULT_PACK

        return Path(DEFAULT_PACK)
    if game == "gil-ennis":
        from domain.gil_ennis.content import CONTENT_DIR

        return Path(CONTENT_DIR)
    from domain.machina.content_load import CONTENT_DIR as MACHINA

    return Path(MACHINA)


def content_digest(folder: Path) -> str:
    """As ``tests.recorded.streams.content_digest``: every content file, the version file aside."""
    digest = blake2b(digest_size=16)
    for path in sorted(folder.rglob("*.json")):
        if path.name == "version.json":
            continue
        data = msgspec.json.decode(path.read_bytes())
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(msgspec.json.encode(data, order="sorted") + b"\0")
    return digest.hexdigest()


def record(game_name: str, name: str, spec: dict[str, Any]) -> dict[str, Any]:
    """Today's recorder (a seeded random choice among the legal actions of a seat chosen at
    random) over the old tree's engine and game."""
    from domain.core.engine import evolve
    from domain.core.events import CampaignCreated
    from domain.core.hashing import state_hash
    from domain.core.rng import Chance, Rng
    from domain.games import get_game

    game = get_game(game_name)
    created = CampaignCreated(
        game.info.name, game.info.ruleset, spec["seed"], SALT, spec["seats"], spec["options"]
    )
    state = evolve(game, None, created)
    lines = [{"version": 1, "event": msgspec.to_builtins(created), "hash": state_hash(state)}]

    def add(event: Any) -> None:
        lines.append(
            {
                "version": len(lines) + 1,
                "event": msgspec.to_builtins(event),
                "hash": state_hash(state),
            }
        )

    for event in game.setup(state):
        state = evolve(game, state, event)
        add(event)
    # The chooser's generator: keyed by the salt where the tree's generator takes one.
    fields = Rng.__struct_fields__
    chooser = Chance(Rng(spec["bot_seed"], 0, SALT) if "salt" in fields else Rng(spec["bot_seed"]))
    actions: list[dict[str, Any]] = []
    avoid = tuple(spec.get("avoid", ()))
    while game.outcome(state) == "running" and len(actions) < spec.get("max_actions", 200):
        episode = getattr(game, "episode_outcome", None)
        if episode is not None and episode(state) != "running":
            break
        seats = game.to_act(state)
        seat = seats[chooser.below(len(seats))]
        legal = [la for la in game.legal_actions(state, seat) if not la.id.startswith(avoid)]
        choice = legal[chooser.below(len(legal))]
        actions.append({"at": len(lines), "seat": seat, "id": choice.id})
        for event in game.decide(state, seat, choice.action):
            state = evolve(game, state, event)
            add(event)
    return {
        "game": game.info.name,
        "scenario": name,
        "ruleset": game.info.ruleset,
        "content": content_digest(content_folder(game_name)),
        "actions": actions,
        "events": lines,
    }


def encode(recording: dict[str, Any]) -> bytes:
    """As ``tests.recorded.streams.encode``: one action or event per line."""
    enc = msgspec.json.encode
    head = {k: recording[k] for k in ("game", "scenario", "ruleset", "content")}
    out = [enc(head)[:-1] + b","]
    for key in ("actions", "events"):
        out.append(b' "' + key.encode() + b'": [')
        out.extend(b"  " + enc(item) + b"," for item in recording[key])
        out[-1] = out[-1].rstrip(b",")
        out.append(b" ],")
    out[-1] = b" ]"
    out.append(b"}")
    return b"\n".join(out) + b"\n"


def folder_of(ruleset: str) -> str:
    """``gil-ennis/1`` -> ``1``; ``eila-1`` (named before the slash) -> ``1``."""
    after = ruleset.partition("/")[2]
    return after or ruleset.rpartition("-")[2]


def main(argv: list[str]) -> int:
    out, game, names = Path(argv[0]), argv[1], argv[2:]
    for name in names:
        recording = record(game, name, SCENARIOS[(game, name)])
        path = out / game / folder_of(recording["ruleset"]) / f"{name}.json"
        if path.exists():
            print(f"{path}: kept as it is", file=sys.stderr)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode(recording))
        print(f"{path}: {len(recording['events'])} events under {recording['ruleset']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
