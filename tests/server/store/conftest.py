from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis_support import running_redis


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    with running_redis() as url:
        yield url
