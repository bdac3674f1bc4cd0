from __future__ import annotations

from domain.core.events import CampaignCreated, Rewound
from domain.machina import GAME as MACHINA
from projections.timeline import Line, MoveCount, campaign_line, timeline
from server.campaigns.codec import Recorded
from tests.support.dice_race import GAME as DICE
from tests.support.dice_race import Began, Held, Rolled

CREATED = CampaignCreated("dice-race", "dice-race/1", 3, "s", ("red", "blue"), {"target": 50})


def test_one_line_per_described_event_with_campaign_lines_of_our_own() -> None:
    events = [
        Recorded(1, CREATED, "h", at_ms=10),
        Recorded(2, Began(0, 1), "h"),
        Recorded(3, Rolled("red", 4, 2), "h", "red"),
        Recorded(4, Held("blue"), "h", "blue"),
        Recorded(5, Rewound(3), "h", "red"),
    ]
    lines = timeline(DICE, events)  # type: ignore[arg-type]
    assert lines == [
        Line(1, "A campaign of Dice Race began with seats red, blue.", 10),
        Line(3, "red rolled a 4", move=1),
        Line(4, "blue held", move=2),
        Line(
            5,
            "The campaign was rewound to move 1; the moves after it were undone.",
            rewound_to=3,
            move=1,
        ),
    ]


def test_moves_are_counted_as_players_count_them_not_as_events() -> None:
    events = [
        Recorded(1, CREATED, "h"),
        Recorded(2, Began(0, 1), "h"),  # the set-up: no seat acted
        # red's one action appends three events; only the last is settled
        Recorded(3, Rolled("red", 4, 2), "h", "red", settled=False),
        Recorded(4, Rolled("red", 5, 3), "h", "red", settled=False),
        Recorded(5, Held("red"), "h", "red"),
        Recorded(6, Held("blue"), "h", "blue"),
        Recorded(7, Rolled("red", 2, 9), "h", "red"),
        Recorded(8, Rewound(5), "h", "blue"),  # back to the end of red's first move
        Recorded(9, Held("blue"), "h", "blue"),
    ]
    moves = MoveCount()
    seen = [moves.see(recorded) for recorded in events]  # type: ignore[arg-type]
    assert seen == [0, 0, 1, 1, 1, 2, 3, 1, 2]
    assert [moves.at(version) for version in (2, 4, 5, 7, 8, 9)] == [0, 0, 1, 3, 1, 2]
    lines = timeline(DICE, events)  # type: ignore[arg-type]
    assert lines[-2].text == "The campaign was rewound to move 1; the moves after it were undone."
    assert [each.move for each in lines if each.version >= 3] == [1, 1, 1, 2, 3, 1, 2]


def test_the_first_line_names_the_seats_as_players_know_them() -> None:
    created = CampaignCreated("machina", MACHINA.info.ruleset, 1, "salt", ("ada", "bram"))
    assert campaign_line(MACHINA, created) == (
        "A campaign of Machina Arcana: To Eternity began with seats Ada Quell, Bram Okafor."
    )
