// Moves as players count them, for the campaigns of a family: each campaign's timeline lines carry
// the move each version belongs to (one action of a seat is one move, however many events it
// appends). Versions stay in links and the API; what a person reads is moves.

import * as api from "./api.js";
import { playing } from "./seats.js";
import { moveName } from "./story.js";

const MOST_CAMPAIGNS = 40; // timelines read for one page; past them a version is said as such

export class FamilyMoves {
  constructor() {
    this.lines = new Map(); // campaign -> its lines, oldest first
  }

  // Read the timelines of `campaigns` (those not read yet), each as this browser may see it.
  async load(campaigns) {
    const wanted = [...new Set(campaigns)].filter((id) => id && !this.lines.has(id)).slice(0, Math.max(0, MOST_CAMPAIGNS - this.lines.size));
    await Promise.all(wanted.map(async (id) => {
      try {
        const { lines } = await api.timeline(id, playing(id).token);
        this.lines.set(id, lines);
      } catch {
        this.lines.set(id, null);
      }
    }));
  }

  // The move `version` of `campaign` belongs to; null when its timeline is not known here.
  at(campaign, version) {
    const lines = this.lines.get(campaign);
    if (!lines) return null;
    let move = 0;
    for (const line of lines) {
      if (line.version > version) break;
      move = line.move || 0;
    }
    return move;
  }

  // "move 12" ("set-up" before the first), or "version 40" when the moves are not known here.
  name(campaign, version) {
    const move = this.at(campaign, version);
    return move === null ? `version ${version}` : moveName(move);
  }

  // How many moves `campaign` made after `from` up to `to`; null when not known here.
  between(campaign, from, to) {
    const first = this.at(campaign, from);
    const last = this.at(campaign, to);
    return first === null || last === null ? null : Math.max(0, last - first);
  }
}
