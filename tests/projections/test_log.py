from __future__ import annotations

from domain.core.events import CampaignCreated, Reseeded
from domain.gil_ennis import GAME as GIL_ENNIS
from domain.gil_ennis.events import DreamsShuffled
from projections.log import Seeding, last_seeding, seen_event, seen_log
from server.campaigns.codec import Recorded
from tests.support.dice_race import GAME as DICE
from tests.support.dice_race import Held

CREATED = CampaignCreated("dice-race", "dice-race/1", 1234, "pepper", ("player",), {})


def test_the_seed_and_salt_stay_secret_while_running() -> None:
    hidden = seen_event(DICE, CREATED, None, ended=False)
    assert hidden["type"] == "campaign/created"
    assert "seed" not in hidden and "salt" not in hidden
    reseeded = seen_event(DICE, Reseeded(99, "salt"), "player", ended=False)
    assert reseeded == {"type": "campaign/reseeded"}


def test_the_seed_is_shown_once_the_campaign_ended() -> None:
    shown = seen_event(DICE, CREATED, None, ended=True)
    assert shown["seed"] == "1234" and shown["salt"] == "pepper"


def test_a_shown_seed_is_a_decimal_string_however_large() -> None:
    largest = CampaignCreated("dice-race", "dice-race/1", 2**64 - 1, "", ("player",), {})
    assert seen_event(DICE, largest, None, ended=True)["seed"] == "18446744073709551615"
    reseeded = seen_event(DICE, Reseeded(13112283191526718841, ""), "player", ended=True)
    assert reseeded == {"type": "campaign/reseeded", "seed": "13112283191526718841", "salt": ""}


def test_game_events_go_through_the_games_redaction() -> None:
    shuffle = DreamsShuffled(("moon", "owl", "river"), 3, 9)
    seen = seen_event(GIL_ENNIS, shuffle, "gil", ended=False)
    assert seen["type"] == "gil-ennis/dreams_shuffled"
    assert list(seen["order"]) == [] and seen["count"] == 3


def test_a_log_keeps_versions_and_who_acted() -> None:
    events = [Recorded(1, CREATED, "h"), Recorded(2, Held("player"), "h", "player", "c", 5)]
    log = seen_log(DICE, events, None, ended=False)  # type: ignore[arg-type]
    assert [(e.version, e.seat, e.at_ms) for e in log] == [(1, None, 0), (2, "player", 5)]
    assert log[1].event == {"type": "dice-race/held", "seat": "player"}


def test_the_action_a_seat_chose_is_shown_to_that_seat_alone() -> None:
    moved = Recorded(2, Held("red"), "h", "red", "c", 5, True, "hold")
    for viewer, action in (("red", "hold"), ("blue", None), (None, None)):
        (line,) = seen_log(DICE, [moved], viewer, ended=True)  # type: ignore[arg-type]
        assert line.action == action
    (old,) = seen_log(DICE, [Recorded(2, Held("red"), "h", "red")], "red", ended=False)  # type: ignore[arg-type]
    assert old.action is None  # stored before the envelope kept it


def test_last_seeding_is_the_newest_seed() -> None:
    events = [
        Recorded(1, CREATED, "h"),
        Recorded(2, Held("player"), "h"),
        Recorded(3, Reseeded(7, "s2"), "h"),
    ]
    assert last_seeding(events) == Seeding(7, "s2", 3)  # type: ignore[arg-type]
    assert last_seeding(events[:2]) == Seeding(1234, "pepper", 1)  # type: ignore[arg-type]
