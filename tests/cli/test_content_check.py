from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli.main import main
from domain.eila.content import DEFAULT_PACK


def test_shipped_content_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["content", "check"]) == 0
    out = capsys.readouterr().out
    assert "eila pack" in out and "gil-ennis pack" in out and "machina pack" in out
    assert "error" not in out


def test_a_broken_pack_reports_every_error_with_file_card_and_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(DEFAULT_PACK, pack)
    chapter0 = pack / "chapter0.json"
    data = json.loads(chapter0.read_text())
    data["cards"][0]["options"][0]["effects"][0] = {"gain": "glitter", "max": 1}
    data["cards"][1]["options"][0]["destination"] = "sideways"
    chapter0.write_text(json.dumps(data))

    assert main(["content", "check", str(pack)]) == 1
    out = capsys.readouterr().out
    first, second = data["cards"][0]["number"], data["cards"][1]["number"]
    lines = [line for line in out.splitlines() if "chapter0.json" in line]
    assert any(f"card {first}" in line and "glitter" in line for line in lines), out
    assert any(f"card {second}" in line and "destination" in line for line in lines), out


def test_a_folder_that_is_no_pack_is_refused(tmp_path: Path) -> None:
    assert main(["content", "check", str(tmp_path)]) == 2
