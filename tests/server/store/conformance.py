"""The behaviour every event store adapter shares.

An adapter's test module provides a ``store`` fixture and subclasses ``StoreConformance``; the class
names keep pytest from collecting the abstract suite itself.
"""

from __future__ import annotations

from tests.server.store.conformance_catalog import CatalogConformance
from tests.server.store.conformance_forks import ForksConformance
from tests.server.store.conformance_lineage import LineageConformance
from tests.server.store.conformance_points import PointsConformance
from tests.server.store.conformance_snapshots import SnapshotsConformance
from tests.server.store.conformance_streams import StreamConformance


class StoreConformance(
    StreamConformance,
    LineageConformance,
    CatalogConformance,
    SnapshotsConformance,
    PointsConformance,
    ForksConformance,
):
    """The recorder (streams, lineage, catalog) and each index beside it (snapshots, decision
    points, forks); the bot lease tables have their own suite over every backend
    (``tests/server/store/test_leases.py``)."""
