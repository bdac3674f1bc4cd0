// The bots' part of a campaign page: a Hint control for the turn bar (what the bot would do now
// for this seat, and why: nothing is played or stored) with the hint under the question, and,
// beside the seats, handing a seat whose player is away to a bot, letting a bot play one's own seat
// while one is gone, and taking it back.
// Keys: H asks for a hint (when no text field has the focus).

import * as api from "./api.js";
import { clear, h } from "./dom.js";
import { seatName } from "./turn.js";

const REFRESH_MS = 5000; // how often the bot seats are read again while the page is drawn
const AWAY_POLL_MS = 2000; // while a partner is gone but not yet away: how often to look again
const BOT_WAIT_POLL_MS = 1000; // after a move: whether a bot seat waits on a shared decision
const BOT_WAIT_LOOKS = 4;

// "90 s", "2 minutes": how long a seat must have been away, in words.
function awhile(seconds) {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  return `${Math.round(seconds / 60)} minutes`;
}

// `campaign`, the seat this page plays and its token (none: watching), `info` (the game's facts),
// `table()` ({seats, connected, outcome, online}: the replica's seats, who is connected now, the
// outcome and whether this page is live), `changed()` (redraw the seats panel).
//
// The offers that cannot wait (a bot plays your seat; a partner is away and may be handed to a bot)
// go in `top`, a row of the turn bar, so a phone shows them without scrolling; letting a bot play
// your own seat while you are gone goes in `node`, beside the seats.
export class BotControls {
  constructor({ campaign, seat, token, info, table, changed }) {
    this.campaign = campaign;
    this.seat = seat;
    this.token = token;
    this.info = info;
    this.table = table;
    this.changed = changed;
    this.bots = new Map(); // seat -> the bot's name
    this.listing = null;
    this.hintVersion = -1;
    this.readAt = 0;
    this.poll = null;
    this.stopped = false;
    this.output = h("p", { class: "hint-text", role: "status", "aria-live": "polite" });
    this.button = h("button", { type: "button", class: "hint-button", "aria-keyshortcuts": "h", onclick: () => this.ask() }, "Hint");
    this.top = h("div", { class: "bot-offers", role: "status", "aria-live": "polite" });
    this.manage = h("div", { class: "bot-seats" });
    this.node = h("section", { class: "bots-bar", "aria-label": "Bots at the table" }, this.manage);
    this.onKey = (event) => {
      const target = event.target;
      const typing = target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
      if (event.key === "h" && !typing && !event.ctrlKey && !event.metaKey && !event.altKey && !this.button.hidden && !this.button.disabled) {
        event.preventDefault();
        this.ask();
      }
    };
    document.addEventListener("keydown", this.onKey);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.poll);
    document.removeEventListener("keydown", this.onKey);
  }

  // Called with each redraw: the hint holds for the move it was given at only.
  update(replica, online = true) {
    this.version = replica.version;
    const running = replica.outcome === "running";
    this.button.hidden = !this.token || !running;
    const mine = (replica.legalActions || []).length > 0;
    this.mine = mine;
    this.button.disabled = !online || !mine || this.asking;
    this.button.title = !online ? "Hints come back with the connection." : mine ? "What the bot would do now, and why" : "A hint is for a move of yours.";
    if (this.hintVersion !== replica.version) {
      this.output.textContent = "";
      this.hintVersion = -1;
    }
    // a bot seat may wait for the people at a new move (a shared decision): read it again then
    if (Date.now() - this.readAt > REFRESH_MS || (this.bots.size && this.readVersion !== replica.version)) this.read();
  }

  // Somebody joined or left: whether a seat is away, or back, may have changed.
  presenceChanged() {
    this.read();
  }

  async ask() {
    this.asking = true;
    this.button.disabled = true;
    this.output.textContent = "Thinking…";
    try {
      const hint = await api.hint(this.campaign, this.token);
      this.hintVersion = hint.version;
      this.output.textContent = hint.version === this.version ? `Hint: ${hint.reason}` : "";
    } catch (error) {
      this.output.textContent = error.code === "offline" ? "No hint while the server is out of reach; ask again once the connection is back." : error.message;
    } finally {
      this.asking = false;
      this.button.disabled = false;
    }
  }

  async read() {
    this.readAt = Date.now();
    this.readVersion = this.version;
    clearTimeout(this.poll);
    this.poll = null;
    try {
      this.listing = await api.bots(this.campaign, this.token);
    } catch {
      this.schedule(REFRESH_MS); // shown again at the next read
      return;
    }
    if (this.stopped) return;
    this.bots = new Map(this.listing.seats.map((entry) => [entry.seat, entry.name]));
    this.drawManage();
    this.changed();
    if (this.waitingForAway()) this.schedule(AWAY_POLL_MS);
    else if (this.botMayWait()) this.schedule(BOT_WAIT_POLL_MS);
  }

  schedule(ms) {
    if (this.stopped) return;
    clearTimeout(this.poll);
    this.poll = setTimeout(() => this.read(), ms);
  }

  // Whether a bot seat may yet say it waits on a decision this seat shares: the bot works out
  // what it would choose after the move, so the page looks again a few times.
  botMayWait() {
    const table = this.table();
    if (!this.bots.size || !this.token || table.outcome !== "running" || !this.mine) return false;
    if ((this.listing.waiting || []).some((entry) => entry.version === table.version)) return false;
    if (this.waitVersion !== table.version) {
      this.waitVersion = table.version;
      this.waitLooks = 0;
    }
    this.waitLooks += 1;
    return this.waitLooks <= BOT_WAIT_LOOKS;
  }

  // A partner's seat without a socket, not a bot's and not yet listed away: it becomes away when
  // its player has been gone long enough, which no message announces, so the page looks again.
  waitingForAway() {
    const listing = this.listing;
    const table = this.table();
    if (!listing || !this.token || table.outcome !== "running" || table.seats.length < 2) return false;
    if (!(listing.bots.search || []).length) return false;
    const connected = table.connected;
    return table.seats.some((seat) => seat !== this.seat && !this.bots.has(seat) && !connected.has(seat) && !listing.away.includes(seat));
  }

  drawManage() {
    const listing = this.listing;
    const table = this.table();
    if (!listing || !this.token) {
      clear(this.manage);
      clear(this.top);
      return;
    }
    const name = (seat) => seatName(this.info, seat);
    const running = table.outcome === "running";
    const levels = listing.bots.search || [];
    const mine = running && this.bots.has(this.seat)
      ? h("div", { class: "bot-mine" },
        h("span", {}, `A bot plays ${name(this.seat)} for you: ${this.bots.get(this.seat)}.`),
        h("button", { type: "button", class: "small take-back", onclick: () => this.change(() => api.takeBack(this.campaign, this.token)) }, `Take ${name(this.seat)} back from the bot`))
      : null;
    const handable = running && levels.length ? listing.away.filter((seat) => seat !== this.seat) : [];
    const offers = handable.map((seat) =>
      h("div", { class: "bot-offer" },
        h("span", {}, `${name(seat)}'s player has been away for ${awhile(listing.away_for_s?.[seat] ?? listing.away_after_s)}.`),
        h("button", { type: "button", class: "small hand-over", dataset: { seat }, onclick: () => this.change(() => api.handOver(this.campaign, this.token, seat)) },
          `Hand ${name(seat)} to a bot`)));
    // A bot seat leaves a decision either seat may take to the people, and says what it would do.
    const waits = running ? (listing.waiting || []).filter((entry) => entry.version === table.version && entry.seat !== this.seat) : [];
    const waiting = waits.map((entry) =>
      h("p", { class: "bot-waits hint-text", dataset: { seat: entry.seat } },
        `${name(entry.seat)}'s bot leaves this decision to you, as it is for both of you. It would choose: ${entry.label}.`));
    clear(this.top, mine, offers, waiting);
    const leave = running && levels.length && table.seats.length > 1 && !this.bots.has(this.seat)
      ? h("button", { type: "button", class: "ghost small", dataset: { seat: this.seat }, onclick: () => this.change(() => api.handOver(this.campaign, this.token, this.seat)) },
        `Let a bot play ${name(this.seat)} until I'm back`)
      : null;
    clear(this.manage, leave);
  }

  async change(request) {
    try {
      this.listing = await request();
      this.bots = new Map(this.listing.seats.map((entry) => [entry.seat, entry.name]));
      this.drawManage();
      this.changed();
    } catch (error) {
      this.output.textContent = error.message;
    }
  }
}
