// The live play socket of one campaign: hello, the replica kept up to date, one action at a time,
// and automatic reconnection with backoff that resumes from the last version seen (`since`).

import { socketUrl, whenServerAnswers } from "./api.js";
import { Exchange, ProtocolError, Replica, SYNC } from "./replica.js";

const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 10000;
const CHANGES = new Set(["welcome", "sync", "update", "accepted"]);
const FINAL_CLOSES = new Set([1000, 1008]); // a normal close; the campaign does not exist

function commandPrefix() {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export class LiveConnection {
  // handlers: change(replica, message), status(state, detail), problem({code, message}),
  // presence(replica), proposal(message), rewound(message)
  constructor(campaign, { token = null, name = "", handlers = {} } = {}) {
    this.campaign = campaign;
    this.token = token;
    this.name = name;
    this.handlers = handlers;
    this.replica = new Replica();
    this.exchange = null;
    this.socket = null;
    this.attempts = 0;
    this.timer = null;
    this.resend = null; // an action waiting out the server's retry_after
    this.closed = false;
    this.prefix = commandPrefix();
    this.commands = 0;
    this.online = false; // welcomed on an open socket: what is on screen is live
    this.stopProbe = () => {};
  }

  emit(kind, ...args) {
    this.handlers[kind]?.(...args);
  }

  start() {
    this.closed = false;
    this.open();
  }

  open() {
    this.emit("status", this.attempts ? "reconnecting" : "connecting", { attempt: this.attempts });
    const socket = new WebSocket(socketUrl(this.campaign));
    this.socket = socket;
    socket.addEventListener("open", () => {
      const hello = { type: "hello", token: this.token, presence: true };
      if (this.name) hello.name = this.name;
      if (this.replica.version > 0) hello.since = this.replica.version;
      socket.send(JSON.stringify(hello));
    });
    socket.addEventListener("message", (event) => this.receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => this.dropped(socket, event));
  }

  dropped(socket, event) {
    if (socket !== this.socket || this.closed) return;
    this.socket = null;
    this.online = false;
    if (FINAL_CLOSES.has(event.code) && this.replica.version === 0) {
      this.emit("status", "closed", { reason: event.reason });
      return;
    }
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** this.attempts);
    this.attempts += 1;
    this.emit("status", "down", { delay, attempt: this.attempts });
    this.timer = setTimeout(() => this.reopen(), delay);
    // the server back before the timer: reconnect at once (after a restart, say)
    this.stopProbe();
    if (delay > FIRST_DELAY_MS) this.stopProbe = whenServerAnswers(() => this.reopen());
  }

  reopen() {
    clearTimeout(this.timer);
    this.stopProbe();
    if (this.closed || this.socket) return;
    this.open();
  }

  send(message) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  receive(message) {
    let reply = null;
    if (this.exchange) {
      try {
        reply = this.exchange.feed(message);
      } catch (error) {
        if (!(error instanceof ProtocolError)) throw error;
        this.exchange = null;
        this.emit("problem", { code: error.code, message: error.message });
        if (error.code === "stale_version") reply = SYNC; // someone acted first: refresh
      }
      if (this.exchange?.done) this.exchange = null;
    } else {
      if (message.type === "error" || message.type === "rejected") {
        this.emit("problem", { code: message.code, message: message.message });
      }
      reply = this.replica.absorb(message);
    }
    const pause = this.exchange?.takePause() || 0;
    if (reply && pause) this.resend = setTimeout(() => this.send(reply), pause * 1000);
    else if (reply) this.send(reply);
    if (message.type === "welcome") {
      this.attempts = 0;
      this.online = true;
      this.emit("status", "open", {});
    }
    if (CHANGES.has(message.type) && !this.replica.lost) this.emit("change", this.replica, message);
    if (message.type === "presence") this.emit("presence", this.replica);
    // not events: a rewind proposed, answered or ended; a rewind's banner (agree.js)
    if (message.type === "proposal" || message.type === "rewound") this.emit(message.type, message);
  }

  get busy() {
    return this.exchange !== null;
  }

  // Take a legal action at the version on screen; false when one is already on its way or the
  // connection is down (nothing is queued behind the player's back: the page shows it offline).
  act(action) {
    if (this.exchange || !this.token || !this.online) return false;
    this.commands += 1;
    this.exchange = new Exchange(this.replica, action, `${this.prefix}-${this.commands}`);
    this.send(this.exchange.request);
    return true;
  }

  sync() {
    this.send(SYNC);
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.stopProbe();
    clearTimeout(this.resend);
    const socket = this.socket;
    this.socket = null;
    socket?.close(1000);
  }
}
