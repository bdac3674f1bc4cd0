"""A terminal client: a readable board of the seat's view, what just happened, whose move it is,
the numbered legal actions, and at the end the outcome, its reason and the revealed seed.

tabletale play --game eila                     # a new campaign, as its only seat
tabletale play --campaign ID --token TOKEN     # join a seat (without a token: spectate)

Type an action's number, or a key: ``?`` lists them all (h a hint, t the timeline, q to quit).
The foot of every screen says how to come back to the seat (the campaign id and the token).

The socket is read all the time, also while the prompt waits: a change redraws the screen, and a
dropped connection (a server restart, say) is said in one line, then the client reconnects with
backoff and resumes where it was. A move typed while it is down waits for the connection and is
sent then if it is still legal; a server that stays away makes the client give up.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import textwrap
from typing import Any

from clients import http_async
from clients.connection import Gone, Link, Message, Offline, ProtocolError, create_campaign
from clients.http import campaign_url, content_url
from clients.screens.console import Keyboard, Output, Read, Write
from clients.screens.layout import Table, screen

HELP = "Type an action's number, h for a hint, t for the timeline, ? for every key, q to quit."
KEYS = [
    "Keys (type one, then Enter):",
    "  1, 2, ...  take the action with that number",
    "  h          a hint: what the bot would do now for your seat, and why",
    "  t          the timeline: every move so far, as the game tells it",
    "  n, p       the next or the previous page of choices, when they do not fit",
    "  b          more of the board, when it does not fit",
    "  r, Enter   draw the screen again",
    "  ?          this list",
    "  q          quit (the campaign stays on the server; the line at the foot says how to"
    " come back)",
]
RECENT = 6
"""Timeline lines shown at most after each change."""
PATIENCE_S = 120.0
"""How long the server may stay away before the client gives up."""
GAVE_UP = 2
"""The exit status after giving up on the server (as when it cannot be reached at the start)."""


def ws_base(http_base: str) -> str:
    return "ws" + http_base.removeprefix("http") if http_base.startswith("http") else http_base


def seed_commitment(seed: int | str, salt: str) -> str:
    """The hash a campaign publishes at creation (docs/protocol.md, "Seed secrecy"); the seed
    as a JSON number or as a decimal string."""
    return hashlib.sha256(f"tabletale-seed:{salt}:{seed}".encode()).hexdigest()


class Story:
    """The campaign's readable timeline, printed as it grows."""

    def __init__(self, http_base: str, campaign: str, token: str | None) -> None:
        self.url = campaign_url(http_base, campaign, "/timeline")
        self.token = token
        self.shown = 0
        self.last = ""
        self.move = 0
        """The moves made up to the last line read, as players count them."""

    async def lines(self) -> list[dict[str, Any]]:
        try:
            answer = await http_async.get(self.url, token=self.token)
        except (ProtocolError, OSError):
            return []
        lines: list[dict[str, Any]] = answer.get("lines", [])
        if lines:
            self.last = str(lines[-1]["text"])
            self.move = int(lines[-1].get("move", 0))
        return lines

    async def tell(self, write: Write, *, heading: str = "What just happened:") -> None:
        """Write the lines after the last version told (at most the last few)."""
        fresh = [line for line in await self.lines() if line["version"] > self.shown]
        if not fresh:
            return
        self.shown = fresh[-1]["version"]
        write(heading)
        if len(fresh) > RECENT:
            write(f"  ... {len(fresh) - RECENT} earlier lines")
        for line in fresh[-RECENT:]:
            write(said(line))

    async def whole(self, write: Write, room: int | None) -> None:
        """The timeline: every line so far (the newest ``room`` of them, when given)."""
        lines = await self.lines()
        if not lines:
            write("The timeline cannot be read now.")
            return
        write(f"The timeline ({len(lines)} lines, {self.move} moves):")
        if room is not None and len(lines) > room:
            write(f"  ... {len(lines) - room} earlier lines")
            lines = lines[-room:]
        for line in lines:
            write(said(line))


def said(line: dict[str, Any]) -> str:
    """A timeline line as the terminal shows it: its move (as players count them), its words."""
    move = int(line.get("move", 0))
    return f"  {f'move {move}' if move else 'set-up':<9} {line['text']}"


async def ending(
    http_base: str, campaign: str, token: str | None, story: Story, write: Write
) -> None:
    """The end screen: the outcome, its reason (the timeline's last line) and the seed, revealed
    now and checked against the hash published at the start."""
    await story.tell(write)
    try:
        about = await http_async.get(campaign_url(http_base, campaign), token=token)
    except (ProtocolError, OSError):
        about = {}
    outcome = about.get("entry", {}).get("status", "over")
    write(f"== The campaign is over: {outcome} ==")
    if story.last:
        write(f"  Why: {story.last}")
    seed, salt = about.get("seed"), about.get("salt")
    if seed is not None and salt is not None:
        published = str(about.get("seed_hash", ""))
        verdict = "matches" if seed_commitment(seed, salt) == published else "does NOT match"
        salted = f" (salt {salt})" if salt else ""
        write(f"  Seed: {seed}{salted}; its hash {verdict} the one published at the start.")


async def _game_facts(http_base: str, game: str) -> tuple[Any, str, dict[str, str]]:
    """The game's public content, title and seat names (empty when the server does not say)."""
    try:
        content = await http_async.get(content_url(http_base, game))
        games = await http_async.get(f"{http_base.rstrip('/')}/api/games")
    except (ProtocolError, OSError):
        return {}, "", {}
    for entry in games.get("games", []):
        info = entry.get("info", {})
        if info.get("name") == game:
            names = info.get("seat_names") or {}
            return content, str(info.get("title", "")), {str(k): str(v) for k, v in names.items()}
    return content, "", {}


class Session:
    """One player at one campaign: the link, the keyboard, the screen, and what is on it."""

    def __init__(
        self, http_base: str, link: Link, keys: Keyboard, out: Output, token: str | None
    ) -> None:
        self.http_base, self.link, self.keys, self.out = http_base, link, keys, out
        self.token = token
        self.story = Story(http_base, link.campaign, token)
        self.content: Any = {}
        self.title = ""
        self.names: dict[str, str] = {}
        self.page = 0
        self.board_page = 0
        self.pages = 1
        self.board_pages = 1
        self.drawn_version = -1
        self.held: Message | None = None
        """A legal action typed while the connection was down, to send once it is back."""
        self.acting: asyncio.Task[Message] | None = None

    def note(self, text: str, style: str = "") -> None:
        """A line of the client's own, wrapped between words to the terminal's width."""
        width = max(self.out.size[0] - 1, 30)
        for part in textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False):
            self.out.line(part, style)

    def back_lines(self) -> tuple[str, ...]:
        """How to come back to this seat (or to watch again): the campaign id and the token, as
        a command in two lines that fit 80 columns (the first ends in a backslash, so it can be
        copied as it is)."""
        more = f"--token {self.token} " if self.token else ""
        return (
            f"To come back: tabletale play --campaign {self.link.campaign} \\",
            f"    {more}--server {self.http_base}",
        )

    def say_back(self) -> None:
        for line in self.back_lines():
            self.out.line(line, "bold")

    async def draw(self) -> None:
        await self.story.tell(lambda line: self.out.line(line, "dim"))
        replica = self.link.replica
        if replica.version != self.drawn_version:
            self.page = self.board_page = 0
            self.drawn_version = replica.version
        width, height = self.out.size
        table = Table(
            game=replica.game,
            title=self.title,
            version=replica.version,
            seat=replica.seat,
            view=replica.view,
            legal=replica.legal_actions,
            outcome=replica.outcome,
            content=self.content,
            names=self.names,
            move=self.story.move,
            footer=self.back_lines(),
        )
        shown = screen(
            table, width=width, height=height, page=self.page, board_page=self.board_page
        )
        self.pages, self.board_pages = shown.choice_pages, shown.board_pages
        for line in shown.lines:
            self.out.line(line)

    async def run(self) -> int:
        replica = self.link.replica
        self.content, self.title, self.names = await _game_facts(self.http_base, replica.game)
        self.note(HELP)
        await self.story.tell(lambda line: self.out.line(line, "dim"), heading="So far:")
        dirty = True
        typing: asyncio.Task[str | None] | None = None
        try:
            while True:
                if dirty or replica.version != self.drawn_version:
                    await self.draw()
                    dirty = False
                if replica.outcome != "running" and not replica.legal_actions:
                    await ending(
                        self.http_base, self.link.campaign, self.token, self.story, self.out.line
                    )
                    return 0
                told = asyncio.create_task(self.link.notices.get())
                waits: set[asyncio.Future[Any]] = {told}
                if self.acting is None:
                    # The next line is read once the move on its way is answered, as it was
                    # typed for the screen that answer brings.
                    self.out.prompt()
                    typing = typing or asyncio.create_task(self.keys.line())
                else:
                    waits.add(self.acting)
                if typing is not None:
                    waits.add(typing)
                done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                if told in done:
                    notices = [told.result()]
                    while not self.link.notices.empty():
                        notices.append(self.link.notices.get_nowait())
                    for kind, detail in notices:
                        status = await self.hear(kind, detail)
                        if status is not None:
                            return status
                        dirty = dirty or kind == "back"
                else:
                    told.cancel()
                if self.acting is not None and self.acting in done:
                    self.answered(self.acting)
                    self.acting = None
                if typing is not None and typing in done:
                    self.out.typed()
                    answer = typing.result()
                    typing = None
                    if answer is None:
                        self.say_back()
                        return 0
                    status, redraw = await self.typed(answer.strip().lower())
                    if status is not None:
                        return status
                    dirty = dirty or redraw
        finally:
            if typing is not None:
                typing.cancel()
            if self.acting is not None:
                self.acting.cancel()

    async def hear(self, kind: str, detail: str) -> int | None:
        """Take in one of the link's notices; an exit status when it is the end."""
        if kind == "down":
            self.note(f"Connection lost: {detail}. Reconnecting...", "bold yellow")
        elif kind == "back":
            move = self.story.move
            where = f"move {move}" if move else "the set-up"
            self.note(f"Reconnected: resumed at {where}.", "bold green")
            self.send_held()
        elif kind == "gone":
            self.note(f"Giving up: {detail}. The campaign is kept on the server.", "bold red")
            self.say_back()
            return GAVE_UP
        elif kind == "problem":
            self.note(f"The server says: {detail}", "red")
        return None

    def send_held(self) -> None:
        held, self.held = self.held, None
        if held is None:
            return
        if any(legal["id"] == held["id"] for legal in self.link.replica.legal_actions):
            self.note(f"Sending your move now: {held['label']}", "bold")
            self.acting = asyncio.create_task(self.link.act(str(held["id"])))
        else:
            self.note(
                f"Your move '{held['label']}' is no longer possible after reconnecting; "
                "choose again.",
                "bold red",
            )

    def answered(self, acting: asyncio.Task[Message]) -> None:
        try:
            acting.result()
        except ProtocolError as error:
            self.note(f"Refused: {error.reply.get('message') or error}", "bold red")
        except Offline:
            self.note("The connection dropped before the move could be sent; try again.", "red")
        except Gone:
            pass  # the link says so itself, in its "gone" notice

    async def hint(self) -> None:
        """What the bot would do now for this seat, and why: nothing is played or stored."""
        if self.token is None:
            self.note("Hints are for a seat's player; spectators get none.")
            return
        url = campaign_url(self.http_base, self.link.campaign, "/hint")
        try:
            answer = await http_async.post(url, {}, token=self.token)
        except ProtocolError as error:
            self.note(f"No hint: {error.reply.get('message') or error}", "yellow")
            return
        except OSError as error:
            self.note(f"No hint: {error}", "red")
            return
        self.note(f"Hint: {answer['reason']}", "bold")

    async def typed(self, answer: str) -> tuple[int | None, bool]:
        """Act on a typed line: an exit status when it ends the session, and whether to redraw."""
        legal = self.link.replica.legal_actions
        if answer in ("q", "quit"):
            self.note("The campaign stays on the server.", "bold")
            self.say_back()
            return 0, False
        if answer == "?":
            for line in KEYS:
                self.out.line(line)
            return None, False
        if answer in ("t", "timeline"):
            height = self.out.size[1]
            await self.story.whole(self.out.line, None if height is None else max(height - 3, 5))
            return None, False
        if answer in ("r", ""):
            return None, True
        if answer in ("h", "hint"):
            await self.hint()
            return None, False
        if answer in ("n", "p"):
            if self.pages < 2:
                self.note("All the choices are on the screen.")
                return None, False
            self.page += 1 if answer == "n" else -1
            return None, True
        if answer == "b":
            if self.board_pages < 2:
                self.note("The whole board is on the screen.")
                return None, False
            self.board_page += 1
            return None, True
        if not answer.isdigit() or not 1 <= int(answer) <= len(legal):
            extra = "" if legal else " It is not your move."
            self.note(f"{answer!r} is not one of the actions.{extra} {HELP}")
            return None, False
        if self.acting is not None:
            self.note("Your last move is still on its way; wait for its answer.")
            return None, False
        chosen = legal[int(answer) - 1]
        if not self.link.online:
            self.held = chosen
            self.note(
                f"Not connected: '{chosen['label']}' will be sent when the connection is back, "
                "if it is still a legal move.",
                "yellow",
            )
            return None, False
        self.acting = asyncio.create_task(self.link.act(str(chosen["id"])))
        return None, False


async def play(
    http_base: str,
    campaign: str,
    token: str | None,
    *,
    read: Read | None = None,
    write: Write | None = None,
    patience: float = PATIENCE_S,
) -> int:
    """Play (or watch) ``campaign`` until it ends or the player quits; the exit status. Reads
    stdin and draws on stdout unless ``read`` and ``write`` say otherwise. Raises
    :class:`~clients.http.Unreachable` or :class:`ProtocolError` when the first connection
    fails."""
    link = Link(ws_base(http_base), campaign, token=token, patience=patience)
    opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    runner = asyncio.create_task(link.run(opened))
    keys: Keyboard | None = None
    try:
        await opened
        keys = Keyboard(read)
        return await Session(http_base, link, keys, Output(write), token).run()
    finally:
        if keys is not None:
            keys.close()
        runner.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await runner


async def start(
    http_base: str,
    game: str,
    *,
    seed: int | str | None,
    options: dict[str, Any],
    write: Write = print,
) -> tuple[str, str]:
    """Create a campaign of ``game`` and return its id and its first seat's token."""
    created = await create_campaign(http_base, game, seed=seed, options=options)
    token = next(iter(created["seats"].values()))
    write(f"Campaign {created['id']} ({game}) created; your token: {token}")
    write(f"Seed hash {created['seed_hash']} (the seed is revealed when the campaign ends).")
    return str(created["id"]), str(token)
