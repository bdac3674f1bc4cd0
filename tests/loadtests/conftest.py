from __future__ import annotations

from tests.server.conftest import live

__all__ = ["live"]
