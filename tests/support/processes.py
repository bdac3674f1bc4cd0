"""Processes as Linux's /proc tells of them: which a process started, and which still run."""

from __future__ import annotations


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run."""
    with open(f"/proc/{pid}/task/{pid}/children") as listed:
        return [int(child) for child in listed.read().split()]


def alive(pid: int) -> bool:
    """Whether ``pid`` still runs: a process that ended but was not reaped yet counts as ended."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
