from __future__ import annotations

import pytest

from server.store.memory import MemoryStore
from tests.server.store.conformance import StoreConformance


@pytest.fixture
def store() -> MemoryStore:
    return MemoryStore()


class TestMemoryStore(StoreConformance):
    pass
