"""What moving the corpus's campaigns forward to today's rulesets would do, measured.

    python -m tests.releases.forward          # the table of docs/releases.md, "The corpus"

For each entry of ``tests/releases/corpus/`` it reads the stored stream from (a copy of) the
SQLite file its release wrote, and:

1. replays it under its own ruleset (the game as it played under the ruleset its creation
   recorded): identical when every stored state hash is reproduced;
2. decides its moves again under today's ruleset of its game, from the same creation (the same
   seed, salt, seats and options; only the ruleset is today's): today's set-up first, then each
   recorded move, whose action is derived from the stream as the analysis does (the legal action
   whose events, decided under the campaign's own ruleset, are the recorded ones). It is
   *identical* when every event comes out the same as today's game reads the recorded one (a
   field added since, with its default, is the same); it *diverges at move N* at the first move
   whose action is no longer legal or whose events differ (move 0: the set-up); it is *not
   possible* when today's game cannot start from that creation at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from domain.analysis.decisions import decisions
from domain.core import engine
from domain.core.events import CampaignCreated
from domain.core.game import Game
from domain.core.hashing import state_hash
from domain.games import game_of, get_game
from server.campaigns.codec import codec_for
from server.campaigns.played import created_of
from server.store.sqlite import SqliteStore

CORPUS = Path(__file__).resolve().parent / "corpus"
SQLITE_FILE = "tabletale.sqlite3"


@dataclass(frozen=True)
class Measured:
    ruleset: str
    today: str
    moves: int
    own_replay: str
    """"identical", or where the stored hashes stop being reproduced."""
    forward: str
    """"identical", "diverges at move N (why)" or "not possible (why)"."""


def _json(event: Any) -> bytes:
    return msgspec.json.encode(event)


def read_by(today: Game, events: Sequence[Any]) -> list[Any] | None:
    """``events`` of an older ruleset as today's game reads them (a field added since with a
    default takes it, as it does when today's server decodes the stored stream); None when one
    of them is no event of today's game."""
    decoder = msgspec.json.Decoder(today.event_type)
    try:
        return [decoder.decode(_json(event)) for event in events]
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None


async def stream_of(folder: Path) -> tuple[CampaignCreated, list[tuple[int, Any, str]]]:
    """The entry's stored events, decoded by the game of its own ruleset, with their hashes."""
    made = json.loads((folder / "made.json").read_text())
    with tempfile.TemporaryDirectory(prefix="tt-forward-") as scratch:
        # A copy: opening migrates the file's schema, and the corpus stays as its release wrote it.
        file = Path(scratch) / SQLITE_FILE
        shutil.copyfile(folder / "data" / SQLITE_FILE, file)
        store = SqliteStore(file)
        try:
            stored = await store.read(made["campaign"])
        finally:
            await store.close()
    created = created_of(stored[0].data)
    recorded = codec_for(game_of(created)).decode_stored(stored)
    return created, [(r.version, r.event, r.hash) for r in recorded]


def own_replay(game: Game, events: Sequence[tuple[int, Any, str]]) -> str:
    pairs = [(version, event) for version, event, _ in events]
    for (version, state), (_, _, stored) in zip(engine.states(game, pairs), events, strict=True):
        if state_hash(state) != stored:
            return f"diverges at version {version}"
    return "identical"


def forward(
    old: Game, today: Game, created: CampaignCreated, events: Sequence[tuple[int, Any, str]]
) -> str:
    """What deciding the stream's moves again under ``today`` does (see the module's docstring)."""
    pairs = [(version, event) for version, event, _ in events]
    moves = decisions(old, pairs)
    first = moves[0].version if moves else len(pairs)
    recorded_setup = read_by(today, [event for _, event in pairs[1:first]])
    moved = msgspec.structs.replace(created, ruleset=today.info.ruleset)
    try:
        state = engine.evolve(today, None, moved)
        setup = list(today.setup(state))
    except Exception as error:  # any refusal of the creation by today's rules
        return f"not possible ({type(error).__name__}: {error})"
    if setup != recorded_setup:
        return "diverges at move 0 (the set-up deals otherwise)"
    for event in setup:
        state = today.evolve(state, event)
    for number, move in enumerate(moves, start=1):
        legal = {action.id: action for action in today.legal_actions(state, move.seat)}
        if move.played.id not in legal:
            return f"diverges at move {number} ({move.played.id!r} is not legal)"
        caused = today.decide(state, move.seat, legal[move.played.id].action)
        if caused != read_by(today, move.events):
            return f"diverges at move {number} (other events)"
        for event in caused:
            state = today.evolve(state, event)
    return "identical"


async def measure(folder: Path) -> Measured:
    created, events = await stream_of(folder)
    old, today = game_of(created), get_game(created.game)
    pairs = [(version, event) for version, event, _ in events]
    return Measured(
        created.ruleset,
        today.info.ruleset,
        len(decisions(old, pairs)),
        own_replay(old, events),
        forward(old, today, created, events),
    )


def table(rows: Sequence[Measured]) -> str:
    lines = [
        "| ruleset | moves | replayed under its own ruleset | decided again under today's |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| `{row.ruleset}` | {row.moves} | {row.own_replay} | {row.forward} (`{row.today}`) |"
        for row in rows
    ]
    return "\n".join(lines)


async def _main() -> int:
    folders = sorted(path.parent for path in CORPUS.glob("*/made.json"))
    rows = [await measure(folder) for folder in folders]
    print(table(rows))
    own = sum(row.own_replay == "identical" for row in rows)
    same = sum(row.forward == "identical" for row in rows)
    print(
        f"\n{len(rows)} campaigns: {own} replay identically under their own ruleset, {same} "
        "come out identical decided again under today's."
    )
    return 0


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(asyncio.run(_main()))
