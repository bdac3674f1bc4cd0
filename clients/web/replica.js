// What one seat knows of a campaign, kept up to date from the server's messages (no I/O).
// The same rules as clients/replica.py:
// - welcome and sync carry the full view; update and accepted carry a JSON Patch from the view at
//   first - 1, applied in place;
// - an update that does not follow on from the replica's version means it lost track: it asks
//   for a sync and ignores updates until the sync arrives;
// - an action is answered accepted or rejected under its command id; after a sync (or a new
//   welcome, once reconnected) the answer may have been dropped, so the action is sent again with
//   the same command id, which the server answers as a duplicate if it was applied; one rejected
//   as rate_limited was dropped unread, so it is sent again after the retry_after it names;
// - presence replaces the last one; a message type this client does not know is ignored.

import { applyPatch, PatchError } from "./patch.js";

export const SYNC = Object.freeze({ type: "sync" });

// An action refused as over the socket's rate is sent again after the server's retry_after, this
// many times at most before the refusal is shown.
export const MAX_RATE_RETRIES = 20;

export class ProtocolError extends Error {
  constructor(message) {
    super(message.message || message.code || "The server refused.");
    this.code = message.code || "";
    this.reply = message;
  }
}

export class Replica {
  constructor() {
    this.campaign = "";
    this.game = "";
    this.seat = null;
    this.seats = [];
    this.version = 0;
    this.view = null;
    this.legalActions = [];
    this.outcome = "running";
    this.events = []; // every event received, in order (after a sync, those between are missing)
    this.lost = false; // waiting for a sync after an update that did not follow on
    this.presence = null;
  }

  // Take in one server message; returns a message to send back (a sync request) or null.
  absorb(message) {
    switch (message.type) {
      case "welcome":
        this.campaign = message.campaign;
        this.game = message.game;
        this.seat = message.seat ?? null;
        this.seats = [...message.seats];
        this.events.push(...(message.missed || []));
        this.whole(message);
        this.lost = false;
        return null;
      case "sync":
        this.whole(message);
        this.lost = false;
        return null;
      case "update":
      case "accepted":
        if (message.type === "accepted" && message.duplicate) return null;
        if (this.lost) return null;
        if (message.first !== this.version + 1) return this.lose();
        try {
          this.view = applyPatch(this.view, message.patch || []);
        } catch (error) {
          if (error instanceof PatchError) return this.lose();
          throw error;
        }
        this.version = message.version;
        this.legalActions = message.legal_actions || [];
        this.outcome = message.outcome ?? this.outcome;
        this.events.push(...(message.events || []));
        return null;
      case "presence":
        this.presence = message;
        return null;
      default:
        return null;
    }
  }

  whole(message) {
    this.version = message.version;
    this.view = message.view;
    this.legalActions = message.legal_actions || [];
    this.outcome = message.outcome ?? this.outcome;
  }

  lose() {
    this.lost = true;
    return SYNC;
  }

  // Seat name to the names given by its connected sockets (an empty list: connected, no name).
  connected() {
    const seats = new Map();
    for (const entry of this.presence?.seats || []) {
      if (!seats.has(entry.seat)) seats.set(entry.seat, []);
      if (entry.name) seats.get(entry.seat).push(entry.name);
    }
    return seats;
  }
}

// One action on its way: feed it every message until `done`.
export class Exchange {
  constructor(replica, action, commandId) {
    this.replica = replica;
    this.commandId = commandId;
    this.request = {
      type: "act",
      action,
      command_id: commandId,
      expected_version: replica.version,
    };
    this.answer = null;
    this.pause = 0; // seconds to wait before sending what feed() returned: the server's retry_after
    this.retries = 0;
  }

  // The pause asked for by the last message fed, once.
  takePause() {
    const pause = this.pause;
    this.pause = 0;
    return pause;
  }

  // Absorb `message`; returns a message to send (a sync request or the action again) or null.
  // Throws ProtocolError when the action is rejected or the server reports an error.
  feed(message) {
    if (message.type === "error") throw new ProtocolError(message);
    const mine = message.command_id === this.commandId;
    if (message.type === "rejected" && mine) {
      // Dropped unread over the socket's rate: the same action again, after the named pause.
      if (message.code === "rate_limited" && message.retry_after != null && this.retries < MAX_RATE_RETRIES) {
        this.retries += 1;
        this.pause = message.retry_after;
        return this.request;
      }
      throw new ProtocolError(message);
    }
    const reply = this.replica.absorb(message);
    if (message.type === "accepted" && mine) {
      this.answer = message;
      if (message.duplicate && message.version > this.replica.version) {
        this.replica.lost = true;
        return SYNC;
      }
      return reply;
    }
    if ((message.type === "sync" || message.type === "welcome") && this.answer === null) {
      return this.request; // the answer may have been dropped: ask again, idempotently
    }
    return reply;
  }

  get done() {
    return this.answer !== null && !this.replica.lost;
  }
}
