"""Hidden information, for every game the server offers (``domain.games.GAMES``, so games that
land later are covered without a line here): at every version of random playthroughs, no
seat's view, copy of an event, timeline line or replay frame shows what that seat may not see.

Each playthrough runs through the real app (HTTP actions by the seats' tokens, a live socket per
seat and one spectator, then the replay socket and the read endpoints). What a viewer may see is
built from the game's own declarations, never from the server:

- its view of the state at each version is ``game.view(state, seat)``;
- its copy of each event is ``game.redact(event, seat)``, and ``campaign/created`` or
  ``campaign/reseeded`` without ``seed`` and ``salt`` while the campaign runs;
- no output shows the seed or the salt, under any key or as any value, before the end;
- a hidden order (a run of two or more card names that the state holds and the viewer's view
  does not show, such as a face-down deck) appears in no copy of the event that made it or
  followed it, nor in any timeline line, whoever reads it;
- a timeline line reads the same from the spectator's copy of its event as from the event.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from clients.replica import Replica
from domain.core.engine import states
from domain.core.events import CampaignCreated, Reseeded
from domain.core.game import Game
from domain.games import GAMES, get_game
from server.app import create_app
from server.campaigns.codec import Recorded, codec_for
from server.campaigns.service import CampaignService
from server.store.memory import MemoryStore
from server.throttle import LimitSettings, Throttle
from tests.server.conftest import Live, running

LAYOUTS = [(name, seats) for name in sorted(GAMES) for seats in GAMES[name].info.seat_layouts]
OPTIONS: dict[str, list[dict[str, Any]]] = {
    "eila": [
        {"chapter": c, "mode": m}
        for m in ("normal", "advanced")
        for c in range(6)
        if (c, m) != (0, "normal")  # the defaults, played in every layout's test
    ],
}
"""Options a game is played with besides its defaults: every other chapter and mode of Eila's,
whose chapters hide different things (markets, a mine's tiles, quiz decks)."""
OPTION_CASES = [
    (name, GAMES[name].info.seat_layouts[0], options)
    for name in sorted(OPTIONS)
    for options in OPTIONS[name]
]
MAX_ACTIONS = 150
"""Random play stops here if the game has not ended: some games run to thousands of versions,
and every version of every one is checked from every seat. Eila's never ends under random play
without abandoning (left out), so each of its playthroughs is this long."""
SECRET_KEYS = ("seed", "salt", "rng")
PROPERTY = settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ONCE = settings(PROPERTY, max_examples=1)
"""A playthrough of each option case: each is as long as the defaults' (the time is the cost)."""
NO_LIMITS = LimitSettings(
    creations="",
    failed_auth_per_client="",
    failed_auth_per_campaign="",
    sockets_per_client=0,
    messages_per_second=0,
)


def plain(data: Any) -> Any:
    """``data`` as a JSON client holds it."""
    return msgspec.json.decode(msgspec.json.encode(data))


def expected_copy(game: Game, event: Any, seat: str | None, *, ended: bool) -> Any:
    """A viewer's copy of ``event``, from the game's redaction and the seed's secrecy alone."""
    if isinstance(event, CampaignCreated | Reseeded):
        data = plain(event)
        if ended:
            return {**data, "seed": str(event.seed)}  # a seed travels as a decimal string
        return {k: v for k, v in data.items() if k not in ("seed", "salt")}
    return plain(game.redact(event, seat))


def string_runs(data: Any) -> Iterator[tuple[str, ...]]:
    """Every list of two or more strings inside ``data`` (at least two of them different), and
    the ids of every list of objects that have one (face-up cards shown with their words)."""
    if isinstance(data, list | tuple):
        if all(isinstance(e, dict) and isinstance(e.get("id"), str) for e in data):
            ids = tuple(e["id"] for e in data)
            if len(set(ids)) >= 2:
                yield ids
        if len(data) >= 2 and all(isinstance(e, str) for e in data) and len(set(data)) >= 2:
            yield tuple(data)
        for each in data:
            yield from string_runs(each)
    elif isinstance(data, dict):
        for each in data.values():
            yield from string_runs(each)


def contains_run(haystack: tuple[str, ...], run: tuple[str, ...]) -> bool:
    size = len(run)
    return any(haystack[i : i + size] == run for i in range(len(haystack) - size + 1))


def hidden_runs(state: Any, view: Any) -> set[tuple[str, ...]]:
    """Runs of names the state holds in an order the view does not show."""
    shown = list(string_runs(view))
    return {
        run
        for run in string_runs(msgspec.to_builtins(state))
        if not any(contains_run(seen, run) for seen in shown)
    }


def mentions_in_order(text: str, run: tuple[str, ...]) -> bool:
    position = 0
    for name in run:
        found = text.find(name, position)
        if found < 0:
            return False
        position = found + len(name)
    return True


class Secrets:
    """The campaign's seed and salt, which nothing may show while it runs."""

    def __init__(self, created: CampaignCreated) -> None:
        self.seed = created.seed
        self.salt = created.salt

    def check(self, data: Any, where: str) -> None:
        if isinstance(data, dict):
            for key, value in data.items():
                if key in SECRET_KEYS:
                    assert value is None, f"{where}: {key!r} is shown while the campaign runs"
                self.check(value, where)
        elif isinstance(data, list):
            for each in data:
                self.check(each, where)
        elif isinstance(data, bool):
            return
        elif isinstance(data, int):
            assert data != self.seed, f"{where}: the seed is shown while the campaign runs"
        elif isinstance(data, str):
            # A chosen seed's salt is the empty one every server gives it: nothing to leak.
            if self.salt:
                assert self.salt not in data, f"{where}: the salt is shown while the campaign runs"
            assert str(self.seed) not in data, f"{where}: the seed is shown in a text"


class Truth:
    """Everything about the finished playthrough, worked out from the stored stream alone."""

    def __init__(self, game: Game, seats: tuple[str, ...], recorded: list[Recorded[Any]]):
        self.game = game
        self.viewers: list[str | None] = [*seats, None]
        self.recorded = {r.version: r for r in recorded}
        pairs = [(r.version, r.event) for r in recorded]
        self.states = dict(states(game, pairs))
        self.head = recorded[-1].version
        self.outcomes = {v: game.outcome(s) for v, s in self.states.items()}
        self.views = {
            (v, w): plain(game.view(s, w)) for v, s in self.states.items() for w in self.viewers
        }
        self.hidden = {
            (v, w): hidden_runs(self.states[v], self.views[v, w])
            for v in self.states
            for w in self.viewers
        }
        first = recorded[0].event
        assert isinstance(first, CampaignCreated)
        self.secrets = Secrets(first)

    def running(self, version: int) -> bool:
        return self.outcomes[version] == "running"

    def copy(self, version: int, seat: str | None, *, ended: bool) -> Any:
        return expected_copy(self.game, self.recorded[version].event, seat, ended=ended)

    def near(self, version: int, seat: str | None) -> set[tuple[str, ...]]:
        """What ``seat`` may not see at the version an event made or the one it followed."""
        return self.hidden[version, seat] | self.hidden.get((version - 1, seat), set())

    def check_event(self, copy: Any, version: int, seat: str | None, where: str) -> None:
        if self.running(version):
            self.secrets.check(copy, where)
        runs = list(string_runs(copy))
        for hidden in self.near(version, seat):
            assert not any(contains_run(run, hidden) for run in runs), (
                f"{where}: the copy of event {version} for {seat!r} shows the hidden order {hidden}"
            )

    def check_view(self, view: Any, version: int, seat: str | None, where: str) -> None:
        assert view == self.views[version, seat], f"{where}: the view at {version} for {seat!r}"
        if self.running(version):
            self.secrets.check(view, where)


Frames = list[tuple[str | None, dict[str, Any]]]
RECV_S = 10.0


class Client:
    """HTTP and sockets to a live server, synchronously (the test is plain, the server runs in
    a thread of its own)."""

    def __init__(self, live: Live, http: httpx.Client) -> None:
        self.live = live
        self.http = http

    def get(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.get(path, **kwargs)

    def post(self, path: str, **kwargs: Any) -> httpx.Response:
        return self.http.post(path, **kwargs)

    def socket(self, path: str) -> Socket:
        return Socket(connect(self.live.ws + path, open_timeout=RECV_S, max_size=None))


class Socket:
    def __init__(self, connecting: Any) -> None:
        self._connecting = connecting
        self.connection: ClientConnection = connecting.__enter__()

    def send_json(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def receive_json(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.connection.recv(timeout=RECV_S))
        return message

    def __enter__(self) -> Socket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._connecting.__exit__(None, None, None)


class Played(msgspec.Struct):
    campaign: str
    tokens: dict[str, str]
    frames: Frames
    """Every live update each viewer received, in order."""
    actions: int


def play(
    client: Client,
    game_name: str,
    seats: tuple[str, ...],
    options: dict[str, Any],
    seed: int,
    bot: int,
) -> Played:
    """A random playthrough through HTTP, watched live by a socket per seat and a spectator:
    :data:`MAX_ACTIONS` actions, unless the campaign ends first."""
    body = {"game": game_name, "seed": str(seed), "seats": seats, "options": options}
    created = client.post("/api/campaigns", json=body)
    assert created.status_code == 201, created.text
    cid, tokens = created.json()["id"], created.json()["seats"]
    rng = random.Random(bot)
    live: list[tuple[str | None, Socket, Replica]] = []
    frames: Frames = []
    played = 0
    try:
        for seat in (*seats, None):
            socket = client.socket(f"/ws/campaigns/{cid}")
            socket.send_json({"type": "hello", "token": tokens[seat] if seat else None})
            replica = Replica()
            replica.absorb(socket.receive_json())
            live.append((seat, socket, replica))
        for _ in range(MAX_ACTIONS):
            movers = [(seat, replica) for seat, _, replica in live if replica.legal_actions]
            if not movers or live[0][2].outcome != "running":
                break
            seat, replica = rng.choice(movers)
            assert seat is not None
            action = rng.choice([a for a in replica.legal_actions if a["id"] != "abandon"])["id"]
            answer = client.post(
                f"/api/campaigns/{cid}/actions",
                json={"action": action, "expected_version": replica.version},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert answer.status_code == 200, answer.text
            version = answer.json()["version"]
            for viewer, socket, watching in live:
                while watching.version < version:
                    message = socket.receive_json()
                    assert message["type"] == "update", message
                    assert watching.absorb(message) is None
                    frames.append((viewer, message))
            played += 1
        assert played == MAX_ACTIONS or live[0][2].outcome != "running", "random play stalled"
    finally:
        for _, socket, _ in live:
            socket.close()
    return Played(cid, tokens, frames, played)


def check_playthrough(
    game_name: str, seats: tuple[str, ...], options: dict[str, Any], seed: int, bot: int
) -> int:
    """Plays and checks one campaign; returns the actions it took."""
    game = get_game(game_name)
    store = MemoryStore()
    service = CampaignService(store, snapshot_every=40)
    app = create_app(service, throttle=Throttle.in_memory(NO_LIMITS))
    with running(app) as live, httpx.Client(base_url=live.http, timeout=RECV_S) as http:
        client = Client(live, http)
        played = play(client, game_name, seats, options, seed, bot)
        cid, tokens = played.campaign, played.tokens
        decode = codec_for(game).decode_recorded
        # The memory store holds plain data: its read may run on a loop of the test's own.
        stored = asyncio.run(store.read(cid))
        truth = Truth(game, seats, [decode(e.version, e.data) for e in stored])
        ended = not truth.running(truth.head)

        # Live frames: each event as its viewer may see it, and views that patch to the truth.
        for viewer, message in played.frames:
            where = f"live update {message['version']} for {viewer!r}"
            for event in message["events"]:
                version = event["version"]
                assert event["event"] == truth.copy(version, viewer, ended=False), where
                truth.check_event(event["event"], version, viewer, where)

        for viewer in truth.viewers:
            token = None if viewer is None else tokens[viewer]
            headers = {"Authorization": f"Bearer {token}"} if token else {}
            # The view at every version.
            for version in range(1, truth.head + 1):
                answer = client.get(f"/api/campaigns/{cid}/state?at={version}", headers=headers)
                assert answer.status_code == 200, answer.text
                body = answer.json()
                where = f"/state?at={version} for {viewer!r}"
                truth.check_view(body["view"], version, viewer, where)
                if not ended:
                    truth.secrets.check(body, where)
            # The viewer's copy of the log.
            copies = []
            after = 0
            while after < truth.head:
                page = client.get(f"/api/campaigns/{cid}/events?after={after}", headers=headers)
                copies += page.json()["events"]
                after = copies[-1]["version"]
            for copy in copies:
                version = copy["version"]
                where = f"/events {version} for {viewer!r}"
                assert copy["event"] == truth.copy(version, viewer, ended=ended), where
                if not ended:
                    truth.check_event(copy["event"], version, viewer, where)
            # The replay, frame by frame.
            with client.socket(f"/ws/campaigns/{cid}/replay?from=1&speed=0") as replay:
                replay.send_json({"type": "hello", "token": token})
                replica = Replica()
                while True:
                    message = replay.receive_json()
                    if message["type"] == "end":
                        break
                    replica.absorb(message)
                    version = message["version"]
                    where = f"replay frame {version} for {viewer!r}"
                    truth.check_view(replica.view, version, viewer, where)
                    for event in message.get("events", []):
                        ended_then = not truth.running(event["version"])
                        copy = truth.copy(event["version"], viewer, ended=ended_then)
                        assert event["event"] == copy, where
                        truth.check_event(event["event"], event["version"], viewer, where)
                assert replica.version == truth.head

        # The timeline is public: no line shows what any viewer may not see.
        lines = client.get(f"/api/campaigns/{cid}/timeline").json()["lines"]
        for line in lines:
            version, text = line["version"], line["text"]
            where = f"timeline line {version}"
            if truth.running(version):
                truth.secrets.check(text, where)
            for viewer in truth.viewers:
                for hidden in truth.near(version, viewer):
                    assert not mentions_in_order(text, hidden), f"{where} names {hidden}"
            event = truth.recorded[version].event
            if not isinstance(event, CampaignCreated | Reseeded):
                redacted = game.redact(event, None)
                state = truth.states[version]
                assert game.describe(redacted, state) == game.describe(event, state), where

        if ended:
            final = client.get(f"/api/campaigns/{cid}/state").json()
            assert final["seed"] == str(truth.secrets.seed)
            assert final["salt"] == truth.secrets.salt
    return played.actions


@pytest.mark.slow
@pytest.mark.parametrize(("game_name", "seats"), LAYOUTS, ids=[f"{g}-{len(s)}" for g, s in LAYOUTS])
@PROPERTY
# Seeds of ten digits or more: a smaller one could stand for itself in a view (a total of 0).
@given(seed=st.integers(2**34, 2**64 - 1), bot=st.integers(0, 2**32))
def test_no_viewer_sees_what_it_may_not_at_any_version(
    game_name: str, seats: tuple[str, ...], seed: int, bot: int
) -> None:
    check_playthrough(game_name, seats, {}, seed, bot)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game_name", "seats", "options"),
    OPTION_CASES,
    ids=[f"{g}-{'-'.join(map(str, o.values()))}" for g, _, o in OPTION_CASES],
)
@ONCE
@given(seed=st.integers(2**34, 2**64 - 1), bot=st.integers(0, 2**32))
def test_no_viewer_sees_what_it_may_not_in_any_chapter_or_mode(
    game_name: str, seats: tuple[str, ...], options: dict[str, Any], seed: int, bot: int
) -> None:
    check_playthrough(game_name, seats, options, seed, bot)


def test_the_checks_catch_a_leak() -> None:
    """The oracle itself: an unredacted shuffle order or a seed in a view is found."""
    created = CampaignCreated("g", "r", 123456789, "salty", ("a",))
    secrets = Secrets(created)
    with pytest.raises(AssertionError):
        secrets.check({"view": {"seed": 123456789}}, "view")
    with pytest.raises(AssertionError):
        secrets.check({"n": 123456789}, "view")
    with pytest.raises(AssertionError):
        secrets.check({"n": "123456789"}, "view")
    with pytest.raises(AssertionError):
        secrets.check(["salty"], "view")
    secrets.check({"seed": None, "salt": None, "n": 5}, "state while running")
    state = {"deck": ["wolf", "owl", "fox"], "discard": ["bee"]}
    view = {"deck_count": 3, "discard": ["bee"]}
    assert hidden_runs(state, view) == {("wolf", "owl", "fox")}
    # Cards shown face up with their words are shown in their order.
    shown = {"deck_count": 3, "market": [{"id": i, "name": i.title()} for i in ("wolf", "owl")]}
    assert hidden_runs({"market": ["wolf", "owl"]}, shown) == set()
    leak = {"type": "shuffled", "order": ["wolf", "owl", "fox"]}
    assert any(contains_run(run, ("wolf", "owl", "fox")) for run in string_runs(leak))
    assert mentions_in_order("The deck: wolf, owl, fox.", ("wolf", "owl", "fox"))
    assert json.dumps(plain({"t": (1, 2)})) == '{"t": [1, 2]}'
