"""The example game stays outside the built-in rooms: the server, the projections and the clients
serve it without naming it (it arrives through its entry point alone)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_in_the_server_projections_or_clients_names_the_example() -> None:
    named = [
        str(path.relative_to(ROOT))
        for room in ("server", "projections", "clients", "domain")
        for path in (ROOT / room).rglob("*")
        if path.is_file()
        and path.suffix in {".py", ".js", ".html", ".css", ".json", ".md"}
        and ("lighthouse" in path.read_text(errors="ignore").lower())
    ]
    assert named == []
