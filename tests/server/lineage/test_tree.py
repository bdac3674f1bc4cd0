"""The tree of a campaign family's branches, built from metadata and rewinds alone."""

from __future__ import annotations

from server.lineage.rewinds import Rewind
from server.lineage.tree import Member, Node, tree
from server.store.base import CampaignInfo


def root(campaign_id: str, head: int, *rewinds: tuple[int, int]) -> Member:
    info = CampaignInfo(campaign_id, "gil-ennis", head, 1, 1)
    return Member(info, tuple(Rewind(at, to, "gil", at) for at, to in rewinds))


def fork(campaign_id: str, parent: str, at: int, head: int, *rewinds: tuple[int, int]) -> Member:
    info = CampaignInfo(campaign_id, "gil-ennis", head, 1, 1, parent=parent, fork_version=at)
    return Member(info, tuple(Rewind(r, to, "gil", r) for r, to in rewinds))


def shape(
    nodes: list[Node],
) -> list[tuple[str, str, str | None, int | None, list[tuple[int, int]]]]:
    """Each branch as (id, kind, parent branch, parent version, own spans)."""
    return [
        (
            node.id,
            node.kind,
            None if node.parent is None else node.parent.branch,
            None if node.parent is None else node.parent.version,
            node.spans,
        )
        for node in nodes
    ]


def test_a_campaign_without_rewinds_or_forks_is_one_line() -> None:
    (line,) = tree([root("c", 12)], "c")
    assert (line.id, line.kind, line.parent, line.first, line.last, line.moves) == (
        "c", "root", None, 1, 12, 12,
    )  # fmt: skip


def test_a_rewind_undoes_the_stretch_after_its_target() -> None:
    nodes = tree([root("c", 14, (11, 5))], "c")
    assert shape(nodes) == [
        ("c", "root", None, None, [(1, 5), (11, 14)]),
        ("c~6", "undone", "c", 5, [(6, 10)]),
    ]
    line, undone = nodes
    assert [(r.at, r.to) for r in line.rewinds] == [(11, 5)]
    assert (undone.first, undone.last, undone.moves, undone.undone_by) == (
        6, 10, 5, Rewind(11, 5, "gil", 11),
    )  # fmt: skip


def test_a_rewind_before_an_earlier_rewind_holds_the_earlier_stretch() -> None:
    # 1..10 played; 11 rewinds to 5; 12..15 played; 16 rewinds to 3; 17..18 played.
    nodes = tree([root("c", 18, (11, 5), (16, 3))], "c")
    assert shape(nodes) == [
        ("c", "root", None, None, [(1, 3), (16, 18)]),
        ("c~4", "undone", "c", 3, [(4, 5), (11, 15)]),
        ("c~6", "undone", "c~4", 5, [(6, 10)]),
    ]
    assert [(r.at, r.to) for r in nodes[1].rewinds] == [(11, 5)]
    assert (nodes[1].last, nodes[1].undone_by) == (15, Rewind(16, 3, "gil", 16))


def test_a_rewind_into_an_undone_stretch_brings_its_start_back() -> None:
    # 11 rewinds to 5; 16 rewinds to 8, inside what 11 undid: 6..8 are on the line again.
    nodes = tree([root("c", 17, (11, 5), (16, 8))], "c")
    assert shape(nodes) == [
        ("c", "root", None, None, [(1, 8), (16, 17)]),
        ("c~11", "undone", "c", 5, [(11, 15)]),
        ("c~9", "undone", "c", 8, [(9, 10)]),
    ]


def test_two_rewinds_in_a_row() -> None:
    nodes = tree([root("c", 13, (11, 5), (12, 3))], "c")
    assert shape(nodes) == [
        ("c", "root", None, None, [(1, 3), (12, 13)]),
        ("c~4", "undone", "c", 3, [(4, 5), (11, 11)]),
        ("c~6", "undone", "c~4", 5, [(6, 10)]),
    ]


def test_forks_part_from_the_branch_that_holds_their_fork_version() -> None:
    members = [
        root("c", 14, (11, 5)),
        fork("f-undone", "c", 8, 9),  # forked at a version a rewind undid
        fork("f-line", "c", 12, 20),
        fork("f-empty", "c", 4, 4),
        fork("g", "f-line", 15, 16),  # a fork of a fork
        fork("g-shared", "f-line", 3, 5),  # at a version f-line shares with c
    ]
    nodes = tree(members, "c")
    assert shape(nodes) == [
        ("c", "root", None, None, [(1, 5), (11, 14)]),
        ("g-shared", "fork", "c", 3, [(4, 5)]),
        ("f-empty", "fork", "c", 4, []),
        ("c~6", "undone", "c", 5, [(6, 10)]),
        ("f-undone", "fork", "c~6", 8, [(9, 9)]),
        ("f-line", "fork", "c", 12, [(13, 20)]),
        ("g", "fork", "f-line", 15, [(16, 16)]),
    ]
    empty = nodes[2]
    assert (empty.first, empty.last, empty.moves) == (5, 4, 0)


def test_a_fork_rewound_into_its_parents_history() -> None:
    # f forks c at 10 and rewinds (at 13) to 5, a version it shares with c.
    nodes = tree([root("c", 12), fork("f", "c", 10, 14, (13, 5))], "c")
    assert shape(nodes) == [
        ("c", "root", None, None, [(1, 12)]),
        ("f", "fork", "c", 5, [(13, 14)]),
        ("f~11", "undone", "c", 10, [(11, 12)]),
    ]
