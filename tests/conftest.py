from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_cluster_support import running_redis_cluster
from tests.redis_support import running_redis
from tests.support import dice_race

dice_race.register()

QUICK_LANE = ("domain", "projections", "test_architecture.py", "test_suite_clocks.py")
"""The quick lane (``pytest -m quick``, under a minute): the pure rooms, which need no server,
Redis or browser, the import contracts, and the check that no test holds a clock against a
constant. The whole suite stays what CI runs."""


PHASES = ("all", "parallel", "serial")
"""``--phase``: ``tests/run.sh`` runs the ``parallel`` phase on several pytest-xdist workers,
then the ``serial`` phase (the tests marked ``serial``: they measure time or load, or need the
whole machine) in one process with nothing beside it. ``all`` (the default) runs both here."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--phase",
        choices=PHASES,
        default="all",
        help="all: every test; parallel: all but those marked serial; serial: only those",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    tests = Path(__file__).parent
    for item in items:
        if item.path.relative_to(tests).parts[0] in QUICK_LANE:
            item.add_marker(pytest.mark.quick)
    phase = config.getoption("phase")
    if phase == "all":
        return
    wanted = phase == "serial"
    kept: list[pytest.Item] = []
    left: list[pytest.Item] = []
    for item in items:
        serial = item.get_closest_marker("serial") is not None
        (kept if serial == wanted else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


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
