from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis_cluster_support import running_redis_cluster
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


@pytest.fixture(scope="session")
def redis_cluster_url() -> Iterator[str]:
    """A Redis Cluster of three masters for the whole run, as a ``redis+cluster://`` URL: the one
    ``tests/run.sh`` starts, or a private one started on first use (``tests/redis_support.py``).
    Shared like ``redis_url``: tests keep to their own key prefixes."""
    with running_redis_cluster() as url:
        yield url
