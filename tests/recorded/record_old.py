"""Record a ruleset's streams with the code of an older commit, for a ruleset that was retired
before it had recordings of its own.

Run inside a copy of that commit's tree, with that tree first on the path::

    git archive 04b28c7 | tar -x -C /tmp/old-machina-1
    cd /tmp/old-machina-1 && PYTHONPATH=. python /path/to/tests/recorded/record_old.py \\
        /path/to/tests/recorded machina trio-random

It plays the old commit's own scenarios (``tests.recorded.streams`` of that tree) and the extra
ones below, with the old commit's engine, and writes each as today's recorder would, under
``<out>/<game>/<ruleset after the slash>/``. The folder only grows: a recording is never
replaced.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any


def main(argv: list[str]) -> int:
    import tests.recorded.streams as st  # the old tree's recorder, not today's

    out, game, names = Path(argv[0]), argv[1], argv[2:]
    if game == "machina" and "machina" not in st.CONTENT_DIRS:
        from domain.machina.content_load import CONTENT_DIR

        st.CONTENT_DIRS["machina"] = CONTENT_DIR
    extra: dict[str, Any] = {
        # Machina's first ruleset, before the recorder knew Machina (the seeds of the time).
        "trio-random": st.Scenario(
            "machina",
            "trio-random",
            seed=909,
            bot_seed=9,
            seats=("ada", "bram", "cyra"),
            options={},
            max_actions=1_000,
        ),
    }
    scenarios = {s.name: s for s in st.SCENARIOS if s.game == game}
    for name in names:
        recording = st.record(scenarios.get(name) or extra[name])
        path = out / game / recording.ruleset.partition("/")[2] / f"{name}.json"
        if path.exists():
            print(f"{path}: kept as it is", file=sys.stderr)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(st.encode(recording))
        print(f"{path}: {len(recording.events)} events under {recording.ruleset}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
