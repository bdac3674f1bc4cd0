"""Record the campaign streams of ``tests/recorded/`` for the rulesets in force.

    python -m tests.recorded.make            # record what is missing; check what is there
    python -m tests.recorded.make --force    # also overwrite recordings of today's rulesets

Recordings of today's rulesets are never overwritten silently: one that today's engine no longer
reproduces means a change alters campaigns in progress, and the ruleset must be bumped (which
records under a new folder) rather than the old recording replaced. Recordings of older rulesets
stay as they are, forever; the tests replay them under their own rulesets. A ruleset retired
before it had recordings is recorded by its own commit (``tests/recorded/record_old.py``).
"""

from __future__ import annotations

import argparse
import sys

import msgspec

from tests.recorded.streams import SCENARIOS, Mismatch, Recording, check, encode, path_of, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.recorded.make")
    parser.add_argument("--force", action="store_true", help="overwrite today's recordings")
    args = parser.parse_args(argv)
    failed = False
    for scenario in SCENARIOS:
        recording = record(scenario)
        path = path_of(scenario.game, recording.ruleset, scenario.name)
        label = path.relative_to(path.parents[2])
        if path.exists() and not args.force:
            try:
                check(msgspec.json.decode(path.read_bytes(), type=Recording))
            except Mismatch as mismatch:
                print(f"{label}: {mismatch}", file=sys.stderr)
                failed = True
                continue
            if path.read_bytes() == encode(recording):
                print(f"{label}: unchanged")
            else:
                print(f"{label}: still replays; the scenario changed (--force records it again)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(encode(recording))
        print(f"{label}: recorded, {len(recording.events)} events")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
