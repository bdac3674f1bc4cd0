from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis_support import running_redis
from tests.support import dice_race

dice_race.register()


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """A real Redis >= 7 for the whole run (see ``tests/redis_support.py`` for where it comes from).

    Tests share it with everything else on the machine: each uses its own key prefix and deletes
    its keys afterwards; nothing ever flushes it.
    """
    with running_redis() as url:
        yield url
