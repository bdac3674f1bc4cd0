"""The copy of the SQLite file kept before its schema is migrated, and finding it again.

A release that migrates a file from schema version N first copies it to ``<file>.vN.bak``
(``<file>.vN-2.bak``, ``-3``, ... when that name is taken: a copy is never overwritten), with
SQLite's online backup API, so the copy is the file exactly as it stood when the migration took
its write lock. The copy is one self-contained file (rollback journal, no ``-wal`` beside it). An
older release that finds a file of a newer version names the newest copy of its own version in
its refusal: restoring it is how a rollback gets its campaigns back as they were before the
upgrade (what was played after the upgrade is in the newer file only).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import re
import sqlite3
from pathlib import Path

from server.store.base import StoreUnavailable

log = logging.getLogger("tabletale.store")


def copy_name(path: Path, version: int, n: int = 1) -> Path:
    """The ``n``-th copy of ``path`` at schema ``version``."""
    return path.with_name(f"{path.name}.v{version}{'' if n == 1 else f'-{n}'}.bak")


def keep_copy(path: Path, version: int) -> Path:
    """Copy the file at ``path`` (schema ``version``) to a name no copy has yet; returns it.

    The caller holds the file's write lock: the copy is read through a connection of its own,
    which in WAL mode reads beside the lock holder and sees the file as it was committed (the
    lock holder's own connection cannot be a backup's source while it is writing). The copy is
    written under a temporary name and then linked to its own, which fails rather than replaces
    a copy that appeared meanwhile.
    """
    partial = path.with_name(f"{path.name}.v{version}.bak-partial")
    partial.unlink(missing_ok=True)
    try:
        with (
            contextlib.closing(sqlite3.connect(path)) as source,
            contextlib.closing(sqlite3.connect(partial, isolation_level=None)) as target,
        ):
            source.backup(target)
            target.execute("PRAGMA journal_mode = DELETE")
        for n in itertools.count(1):
            kept = copy_name(path, version, n)
            try:
                os.link(partial, kept)
            except FileExistsError:
                continue
            break
    except (sqlite3.Error, OSError) as error:
        raise StoreUnavailable(
            f"The SQLite file {path} is at schema version {version} and was left so: a copy of"
            f" it could not be kept beside it before migrating it ({error})."
        ) from error
    finally:
        partial.unlink(missing_ok=True)
    log.warning(
        "Kept a copy of %s as it was at schema version %d in %s before migrating it.",
        path,
        version,
        kept,
    )
    return kept


def copies_of(path: Path, version: int) -> list[Path]:
    """The copies of ``path`` kept at schema ``version``, oldest first."""
    pattern = re.compile(rf"{re.escape(path.name)}\.v{version}(?:-(\d+))?\.bak")
    found: list[tuple[int, Path]] = []
    with contextlib.suppress(OSError):
        for entry in path.parent.iterdir():
            matched = pattern.fullmatch(entry.name)
            if matched is not None:
                found.append((int(matched.group(1) or 1), entry))
    return [copy for _, copy in sorted(found)]


def refusal(path: Path, found: int, known: int) -> str:
    """What a release of schema version ``known`` says of a file of version ``found``."""
    said = (
        f"The SQLite file {path} has schema version {found}, written by a newer release;"
        f" this release knows versions up to {known} and does not read it."
    )
    kept = copies_of(path, known)
    if kept:
        copy = kept[-1]
        return (
            f"{said} Either run the newer release on it, or stop every server on it and restore"
            f" {copy}, made before the upgrade: move {path} and any {path.name}-wal and"
            f" {path.name}-shm beside it aside, then copy {copy} to {path}. Campaigns played"
            " since the upgrade are only in the newer file."
        )
    return (
        f"{said} Run the newer release on it; no copy of it at version {known}"
        f" ({copy_name(path, known)}) is beside it to restore."
    )
