"""The rooms of the house and the arrows between them, as contracts (pyproject.toml,
``[tool.importlinter]``); the README's table of rooms says the same in words."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_contract_is_kept() -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            "from importlinter.cli import lint_imports_command; lint_imports_command()",
        ],
        cwd=ROOT,
        # The example game is checked from its source folder, installed or not.
        env={**os.environ, "PYTHONPATH": str(ROOT / "examples" / "lighthouse")},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout
