"""Make the corpus of ``tests/releases/corpus/``: one campaign per ruleset main has ever had, each
recorded by the server of the last commit of main at which that ruleset was in force.

    python -m tests.releases.make_corpus                 # make the entries that are missing
    python -m tests.releases.make_corpus gil-ennis/1     # only these rulesets
    python -m tests.releases.make_corpus --force         # make them all again

For each entry of ``ENTRIES`` it extracts that commit's tree (``git archive COMMIT | tar -x``)
into a temporary folder and runs that commit's own server (``python -m cli.main serve``, with the
tree first on the path and as the working folder, so the old code is what runs) on the embedded
SQLite store in a fresh data folder, on a free loopback port. Over that server's HTTP API it
creates one campaign of the ruleset's game with seed 42 (Gil & Ennis solo, Eila's chapter 0,
Machina with two explorers), checks that the server names the expected ruleset, and plays 16
moves: each time the first legal action of the first seat that has one. It stops the server
and, when that commit had ``tabletale export``, writes the campaign's complete export file with
that commit's own command. It keeps, under ``corpus/<ruleset with "/" as "_">/``:

- ``data/tabletale.sqlite3``: the file the old server wrote (its write-ahead log checkpointed
  into it, then vacuumed, so it is small and alone);
- ``export.jsonl``: the old command's export file, when it had one;
- ``made.json``: the commit, the game, the ruleset, the campaign id, its head version and its
  seats' tokens (as a player keeps them: the store holds only their hashes, and the test plays
  on with them).

An entry is never replaced silently: the corpus is what those releases wrote, and a later
release must open it as it is (``--force`` is for a corpus not yet committed). When a ruleset is
bumped, the entry of the one retired stays as it is, and an entry for the new one is added to
``ENTRIES`` with a commit of main where it is in force, then made with this script;
``test_corpus.py`` fails while a released ruleset has no entry.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
REPO = HERE.parents[1]
SEED = 42
MOVES = 16
SQLITE_FILE = "tabletale.sqlite3"
READY_TIMEOUT_S = 60.0
SERVE = (sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1")


@dataclass(frozen=True)
class Entry:
    """One ruleset and the commit of main whose server records its campaign."""

    ruleset: str
    commit: str
    game: str
    body: dict[str, Any] = field(default_factory=dict)
    """What the creation request adds to the game and the seed (seats, options)."""

    @property
    def folder(self) -> Path:
        return CORPUS / self.ruleset.replace("/", "_")


SOLO = {"seats": ["player"]}
CHAPTER_0 = {"options": {"chapter": 0}}
TWO_EXPLORERS = {"seats": ["ada", "bram"]}

# The last commit of main (first-parent history) at which each ruleset was in force: the commit
# just before the one that bumped it. Today's rulesets are recorded at main's head of the day.
TODAY = "e73747a00f1b906d1366d27637ca4f4bd3328e26"
ENTRIES = (
    Entry("gil-ennis/1", "05bae9d", "gil-ennis", SOLO),
    Entry("gil-ennis/2+content.1", "17e242d", "gil-ennis", SOLO),
    Entry("gil-ennis/2+content.2", TODAY, "gil-ennis", SOLO),
    Entry("eila-1", "05bae9d", "eila", CHAPTER_0),
    Entry("eila/2+content.1", "1e8a292", "eila", CHAPTER_0),
    Entry("eila/3+content.2", "cbed11e", "eila", CHAPTER_0),
    Entry("eila/3+content.3", "c2d4be5", "eila", CHAPTER_0),
    Entry("eila/4+content.3", "f2e0e57", "eila", CHAPTER_0),
    Entry("eila/4+content.4", "4163328", "eila", CHAPTER_0),
    Entry("eila/4+content.5", TODAY, "eila", CHAPTER_0),
    Entry("machina/1", "04b28c7", "machina", TWO_EXPLORERS),
    Entry("machina/1+content.1", "69159fe", "machina", TWO_EXPLORERS),
    Entry("machina/2+content.1", "1e7a459", "machina", TWO_EXPLORERS),
    Entry("machina/2+content.2", TODAY, "machina", TWO_EXPLORERS),
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()


def extract(commit: str, into: Path) -> None:
    archive = subprocess.Popen(["git", "archive", commit], cwd=REPO, stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(into)], stdin=archive.stdout, check=True)
    if archive.wait() != 0:
        raise RuntimeError(f"git archive {commit} failed.")


def old_env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLETALE_")}
    env["PYTHONPATH"] = str(tree)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


@contextlib.contextmanager
def old_server(tree: Path, data: Path, log: Path) -> Iterator[str]:
    """That tree's own ``tabletale serve`` on the SQLite store in ``data``, until the block ends."""
    port = free_port()
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*SERVE, "--port", str(port), "--data-dir", str(data)],
            cwd=tree,
            env=old_env(tree),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            wait_ready(base, process, log)
            yield base
        finally:
            process.terminate()
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def wait_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_S
    with httpx.Client(timeout=1.0) as client:
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"The old server ended at start:\n{log.read_text()}")
            try:
                if client.get(base + "/healthz").status_code == 200:
                    return
            except httpx.TransportError:
                pass
            threading.Event().wait(0.05)  # a poll interval
    raise TimeoutError(f"{base} did not answer within {READY_TIMEOUT_S} s.")


def ruleset_served(client: httpx.Client, game: str) -> str:
    games = client.get("/api/games").raise_for_status().json()["games"]
    for entry in games:
        if entry["info"]["name"] == game:
            return str(entry["info"]["ruleset"])
    raise LookupError(f"The server does not host {game}.")


def play(client: httpx.Client, entry: Entry) -> tuple[str, dict[str, str], int]:
    """Create the entry's campaign and play its moves; answers its id, its seats' tokens and its
    head version."""
    body = {"game": entry.game, "seed": SEED, **entry.body}
    created = client.post("/api/campaigns", json=body)
    created.raise_for_status()
    made = created.json()
    campaign, tokens = made["id"], made["seats"]
    for move in range(MOVES):
        acted = False
        for seat, token in tokens.items():
            auth = {"Authorization": f"Bearer {token}"}
            state = client.get(f"/api/campaigns/{campaign}/state", headers=auth)
            state.raise_for_status()
            seen = state.json()
            if not seen["legal_actions"]:
                continue
            answer = client.post(
                f"/api/campaigns/{campaign}/actions",
                headers=auth,
                json={
                    "action": seen["legal_actions"][0]["id"],
                    "expected_version": seen["version"],
                    "command_id": f"corpus-{move}",
                },
            )
            if answer.status_code != 200:
                raise RuntimeError(f"Move {move + 1} ({seat}) refused: {answer.text}")
            acted = True
            break
        if not acted:
            break  # the campaign ended: nobody has a move
    head = client.get(f"/api/campaigns/{campaign}").raise_for_status().json()["entry"]["version"]
    return campaign, tokens, int(head)


def has_export(tree: Path) -> bool:
    main = (tree / "cli" / "main.py").read_text()
    return '"export"' in main and (tree / "cli" / "export.py").exists()


def export(tree: Path, data: Path, campaign: str, out: Path) -> None:
    store = f"sqlite:{data}"
    subprocess.run(
        [sys.executable, "-m", "cli.main", "export", campaign, "-o", str(out), "--store", store],
        cwd=tree,
        env=old_env(tree),
        check=True,
    )


def compact(file: Path) -> None:
    """The write-ahead log folded into the file, and the file vacuumed, so it stands alone."""
    with contextlib.closing(sqlite3.connect(file)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.execute("VACUUM")
        db.execute("PRAGMA journal_mode=DELETE")


def make(entry: Entry) -> dict[str, Any]:
    commit = git("rev-parse", entry.commit)
    with tempfile.TemporaryDirectory(prefix="tt-corpus-") as scratch:
        tree, data = Path(scratch) / "tree", Path(scratch) / "data"
        tree.mkdir()
        data.mkdir()
        extract(commit, tree)
        with (
            old_server(tree, data, Path(scratch) / "serve.log") as base,
            httpx.Client(base_url=base, timeout=60.0) as client,
        ):
            served = ruleset_served(client, entry.game)
            if served != entry.ruleset:
                raise RuntimeError(f"{commit[:7]} serves {served}, not {entry.ruleset}.")
            campaign, tokens, head = play(client, entry)
        target = entry.folder
        if target.exists():
            shutil.rmtree(target)
        (target / "data").mkdir(parents=True)
        exported = has_export(tree)
        if exported:
            export(tree, data, campaign, target / "export.jsonl")
        stored = target / "data" / SQLITE_FILE
        shutil.copyfile(data / SQLITE_FILE, stored)
        for suffix in ("-wal", "-shm"):
            side = data / (SQLITE_FILE + suffix)
            if side.exists():
                shutil.copyfile(side, target / "data" / (SQLITE_FILE + suffix))
        compact(stored)
        for suffix in ("-wal", "-shm"):
            (target / "data" / (SQLITE_FILE + suffix)).unlink(missing_ok=True)
    made = {
        "commit": commit,
        "committed": git("log", "-1", "--format=%cI", commit),
        "game": entry.game,
        "ruleset": entry.ruleset,
        "campaign": campaign,
        "head": head,
        "tokens": tokens,
        "seed": SEED,
        "create": {"game": entry.game, "seed": SEED, **entry.body},
        "export": "export.jsonl" if exported else None,
    }
    (target / "made.json").write_text(json.dumps(made, indent=2) + "\n")
    return made


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.releases.make_corpus")
    parser.add_argument("rulesets", nargs="*", help="only these rulesets (default: all)")
    parser.add_argument("--force", action="store_true", help="make existing entries again")
    args = parser.parse_args(argv)
    for entry in ENTRIES:
        if args.rulesets and entry.ruleset not in args.rulesets:
            continue
        if (entry.folder / "made.json").exists() and not args.force:
            print(f"{entry.ruleset}: kept as it is")
            continue
        made = make(entry)
        print(f"{entry.ruleset}: {made['campaign']} at version {made['head']} by {entry.commit}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
