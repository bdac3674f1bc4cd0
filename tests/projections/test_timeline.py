from __future__ import annotations

from domain.core.events import CampaignCreated, Rewound
from domain.machina import GAME as MACHINA
from projections.timeline import Line, campaign_line, timeline
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
        Line(3, "red rolled a 4"),
        Line(4, "blue held"),
        Line(
            5, "The campaign was rewound to move 3; the moves after it were undone.", rewound_to=3
        ),
    ]


def test_the_first_line_names_the_seats_as_players_know_them() -> None:
    created = CampaignCreated("machina", MACHINA.info.ruleset, 1, "salt", ("ada", "bram"))
    assert campaign_line(MACHINA, created) == (
        "A campaign of Machina Arcana: To Eternity began with seats Ada Quell, Bram Okafor."
    )
