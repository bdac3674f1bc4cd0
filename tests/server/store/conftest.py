from __future__ import annotations

import pytest


@pytest.fixture(params=["redis", "cluster"])
def any_redis_url(request: pytest.FixtureRequest) -> str:
    """A single Redis, then a Redis Cluster: for what the Redis store does on either."""
    url: str = request.getfixturevalue(
        "redis_url" if request.param == "redis" else "redis_cluster_url"
    )
    return url
