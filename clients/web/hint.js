// The bots' part of a campaign page: a Hint control for the turn bar (what the bot would do now
// for this seat, and why: nothing is played or stored) with the hint under the question, and,
// beside the seats, handing a seat whose player is away to a bot and taking one's own seat back.
// Keys: H asks for a hint (when no text field has the focus).

import * as api from "./api.js";
import { clear, h } from "./dom.js";
import { seatName } from "./turn.js";

const REFRESH_MS = 5000; // how often the bot seats are read again while the page is drawn

// `campaign`, the seat this page plays and its token (none: watching), `info` (the game's facts),
// `tokens()` (the seats this browser holds tokens for), `changed()` (redraw the seats panel).
export class BotControls {
  constructor({ campaign, seat, token, info, tokens, changed }) {
    this.campaign = campaign;
    this.seat = seat;
    this.token = token;
    this.info = info;
    this.tokens = tokens;
    this.changed = changed;
    this.bots = new Map(); // seat -> the bot's name
    this.listing = null;
    this.hintVersion = -1;
    this.readAt = 0;
    this.output = h("p", { class: "hint-text", role: "status", "aria-live": "polite" });
    this.button = h("button", { type: "button", class: "hint-button", "aria-keyshortcuts": "h", onclick: () => this.ask() }, "Hint");
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
    document.removeEventListener("keydown", this.onKey);
  }

  // Called with each redraw: the hint holds for the move it was given at only.
  update(replica) {
    this.version = replica.version;
    const running = replica.outcome === "running";
    this.button.hidden = !this.token || !running;
    this.button.disabled = !(replica.legalActions || []).length;
    this.button.title = this.button.disabled ? "A hint is for a move of yours." : "What the bot would do now, and why";
    if (this.hintVersion !== replica.version) {
      this.output.textContent = "";
      this.hintVersion = -1;
    }
    if (Date.now() - this.readAt > REFRESH_MS) this.read();
  }

  async ask() {
    this.button.disabled = true;
    this.output.textContent = "Thinking…";
    try {
      const hint = await api.hint(this.campaign, this.token);
      this.hintVersion = hint.version;
      this.output.textContent = hint.version === this.version ? `Hint: ${hint.reason}` : "";
    } catch (error) {
      this.output.textContent = error.message;
    } finally {
      this.button.disabled = false;
    }
  }

  async read() {
    this.readAt = Date.now();
    try {
      this.listing = await api.bots(this.campaign, this.token);
    } catch {
      return; // shown again at the next read
    }
    this.bots = new Map(this.listing.seats.map((entry) => [entry.seat, entry.name]));
    this.drawManage();
    this.changed();
  }

  drawManage() {
    const listing = this.listing;
    if (!listing || !this.token) {
      clear(this.manage);
      return;
    }
    const name = (seat) => seatName(this.info, seat);
    const mine = this.bots.has(this.seat)
      ? h("button", { type: "button", class: "ghost small", onclick: () => this.change(() => api.takeBack(this.campaign, this.token)) }, `Take ${name(this.seat)} back from the bot`)
      : null;
    const levels = listing.bots.search || [];
    const handable = levels.length ? listing.away.filter((seat) => seat !== this.seat) : [];
    const offers = handable.map((seat) =>
      h("button", { type: "button", class: "ghost small", dataset: { seat }, onclick: () => this.change(() => api.handOver(this.campaign, this.token, seat)) },
        `Hand ${name(seat)} to a bot (away)`));
    clear(this.manage, mine, offers);
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
