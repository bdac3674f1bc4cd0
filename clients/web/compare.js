// Two branches of a family side by side: the move where they part, in the timeline's words, and
// both boards at the same step after it (step k after the parting point on each branch; k steps
// either way), with what differs between the two boards listed. Each state is read as this browser may see that campaign: its saved seat, or a
// spectator.

import * as api from "./api.js";
import { ActionSink } from "./boards/common.js";
import { boardFor } from "./boards/index.js";
import { clear, h, humanize } from "./dom.js";
import { shared } from "./lineage.js";
import { momentHash } from "./moment.js";
import { playing } from "./seats.js";
import { seatName } from "./turn.js";

const tokenFor = (campaign) => playing(campaign).token;

// The timeline's words for one version of `campaign`, or null when it has no line of its own.
async function wordsAt(campaign, version) {
  try {
    const { lines } = await api.timelinePage(campaign, tokenFor(campaign), version - 1, 1);
    return lines.length && lines[0].version === version ? lines[0].text : null;
  } catch {
    return null;
  }
}

// What differs between two views, in words: each top-level part of the view that is not the same
// (a part that is a record of its own, such as a character, is looked into one level more).
// [{part, first, second}] with each value in short.
const QUIET = new Set(["turn", "seat", "seats", "result", "reason"]);

function short(value) {
  if (value === null || value === undefined || value === "") return "none";
  if (Array.isArray(value)) {
    if (!value.length) return "none";
    return value.some((item) => item && typeof item === "object") ? `${value.length} entries` : value.map(short).join(", ");
  }
  if (typeof value === "object") return "…";
  return String(value);
}

export function differences(a, b, seatNameOf = (id) => humanize(id)) {
  const found = [];
  const keys = [...new Set([...Object.keys(a || {}), ...Object.keys(b || {})])].filter((key) => !QUIET.has(key));
  for (const key of keys) {
    const [x, y] = [a?.[key], b?.[key]];
    if (JSON.stringify(x) === JSON.stringify(y)) continue;
    const record = (v) => v && typeof v === "object" && !Array.isArray(v);
    if (record(x) && record(y)) {
      const owner = (a?.seats || []).includes(key) ? seatNameOf(key) : humanize(key);
      for (const inner of new Set([...Object.keys(x), ...Object.keys(y)])) {
        if (JSON.stringify(x[inner]) !== JSON.stringify(y[inner])) {
          found.push({ part: `${owner}: ${humanize(inner).toLowerCase()}`, first: short(x[inner]), second: short(y[inner]) });
        }
      }
    } else {
      found.push({ part: humanize(key), first: short(x), second: short(y) });
    }
  }
  return found;
}

export class Comparison {
  // family: {lineage, names, game, content, info, seats, moves (FamilyMoves)}
  constructor(family) {
    this.family = family;
    this.step = 1;
    this.asked = 0;
    this.node = h("section", { class: "panel compare", "aria-labelledby": "compare-title" });
  }

  branchOptions(selected) {
    const { lineage, names } = this.family;
    return lineage.branches.filter((b) => b.last).map((b) =>
      h("option", { value: b.id, selected: b.id === selected }, names.get(b.id)));
  }

  // The form to pick two branches; `a` and `b` are picked at first.
  mount(slot, a, b) {
    this.first = h("select", { id: "compare-a", class: "compare-pick" }, this.branchOptions(a));
    this.second = h("select", { id: "compare-b", class: "compare-pick" }, this.branchOptions(b));
    this.result = h("div", { class: "compare-result" });
    clear(this.node,
      h("h2", { id: "compare-title", class: "panel-title" }, "Compare two branches"),
      h("form", { class: "compare-form", onsubmit: (event) => { event.preventDefault(); this.show(this.first.value, this.second.value); } },
        h("label", { for: "compare-a" }, "First branch"), this.first,
        h("label", { for: "compare-b" }, "Second branch"), this.second,
        h("button", { type: "submit", class: "primary" }, "Compare")),
      this.result);
    slot.append(this.node);
  }

  async show(aId, bId) {
    const { lineage } = this.family;
    const a = lineage.branch(aId);
    const b = lineage.branch(bId);
    if (aId === bId) {
      clear(this.result, h("p", { class: "notice notice-warn", role: "status" }, "Pick two different branches to compare."));
      return;
    }
    this.a = a;
    this.b = b;
    this.paths = [lineage.path(aId), lineage.path(bId)];
    let common = 0;
    if (a.kind !== "undone" && b.kind !== "undone" && a.campaign !== b.campaign) {
      try {
        common = (await api.compare(a.campaign, b.campaign, tokenFor(a.campaign) || tokenFor(b.campaign))).common;
      } catch {
        common = 0; // the branches' own histories still say where they part
      }
    }
    this.shared = shared(this.paths[0], this.paths[1], common);
    this.most = Math.max(this.paths[0].length, this.paths[1].length) - this.shared;
    this.step = Math.min(1, this.most);
    const parting = this.paths[0][this.shared - 1] || null;
    const firsts = await Promise.all(this.paths.map((path) => {
      const moment = path[this.shared];
      return moment ? wordsAt(moment.campaign, moment.version) : null;
    }));
    const names = [this.family.names.get(a.id), this.family.names.get(b.id)];
    const apart = this.paths.map((path, i) => {
      const moment = path[this.shared];
      if (!moment) return h("li", {}, h("strong", {}, `${names[i]}: `), "ends there, with no move of its own after it.");
      return h("li", { dataset: { version: String(moment.version) } }, h("strong", {}, `${names[i]}: `),
        h("a", { href: momentHash(moment.campaign, moment.version) }, this.moveName(moment.campaign, moment.version)), ", ",
        firsts[i] || "a move the timeline does not describe", ".");
    });
    this.boards = [h("div", { class: "compare-board" }), h("div", { class: "compare-board" })];
    this.position = h("p", { class: "compare-step", role: "status", "aria-live": "polite" });
    this.back = h("button", { type: "button", class: "ghost step-back", onclick: () => this.go(this.step - 1) }, "◀ One step back");
    this.on = h("button", { type: "button", class: "ghost step-on", onclick: () => this.go(this.step + 1) }, "One step on ▶");
    clear(this.result,
      h("div", { class: "parting" },
        h("h3", {}, parting ? `They part after ${this.moveName(parting.campaign, parting.version)}` : "They share no move"),
        parting ? h("p", { class: "muted" }, `Up to the end of ${this.moveName(parting.campaign, parting.version)} both are the same game. The first thing each did apart:`) : null,
        h("ul", { class: "parting-moves" }, apart)),
      h("div", { class: "compare-controls" }, this.position, this.back, this.on),
      this.differs = h("section", { class: "compare-differs", "aria-label": "What differs" }),
      h("div", { class: "compare-boards" }, this.boards));
    await this.go(this.step);
  }

  // Show move `step` after the parting point on both branches (0: the parting point itself).
  async go(step) {
    this.step = Math.max(0, Math.min(this.most, step));
    this.back.disabled = this.step === 0;
    this.on.disabled = this.step >= this.most;
    this.position.textContent = this.step === 0
      ? "Showing where they part, on both."
      : `Showing step ${this.step} after they part (each step one event of the game), on each branch.`;
    const asked = ++this.asked;
    const names = [this.family.names.get(this.a.id), this.family.names.get(this.b.id)];
    const states = [];
    const sides = await Promise.all(this.paths.map((path, i) => this.side(path, names[i], [this.a, this.b][i], states, i)));
    if (asked !== this.asked) return;
    this.boards.forEach((slot, i) => clear(slot, sides[i]));
    this.drawDifferences(names, states);
  }

  // Marks what differs between the two boards shown: a list of the parts, with each side's value.
  drawDifferences(names, states) {
    if (!states[0] || !states[1]) {
      clear(this.differs);
      return;
    }
    const found = differences(states[0].view, states[1].view, (id) => seatName(this.family.info, id));
    clear(this.differs,
      h("h3", {}, found.length ? `What differs here (${found.length})` : "Nothing differs here"),
      found.length ? h("table", { class: "records differs-table" },
        h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Part"), h("th", { scope: "col" }, names[0]), h("th", { scope: "col" }, names[1]))),
        h("tbody", {}, found.map((d) => h("tr", { class: "differs" }, h("th", { scope: "row" }, d.part), h("td", {}, d.first), h("td", {}, d.second))))) : null);
  }

  moveName(campaign, version) {
    return this.family.moves ? this.family.moves.name(campaign, version) : `move ${version}`;
  }

  async side(path, name, branch, states, index_) {
    const index = this.shared - 1 + this.step;
    const past = index >= path.length;
    const moment = path[Math.min(index, path.length - 1)];
    const head = h("h3", { class: "compare-name" }, name);
    if (!moment) return [head, h("p", {}, "This branch has no moves to show.")];
    let drawn;
    let state;
    try {
      // a branch's moves are read through its own campaign: a fork reads its parent's prefix
      state = await api.state(branch.campaign, tokenFor(branch.campaign), moment.version);
      states[index_] = state;
      drawn = this.draw(state);
    } catch (error) {
      drawn = h("p", { class: "notice notice-error", role: "alert" }, `This point cannot be shown: ${error.message}`);
    }
    const words = await wordsAt(branch.campaign, moment.version);
    const as = state?.seat ? `as ${seatName(this.family.info, state.seat)} sees it` : "as a spectator sees it";
    return [head,
      h("p", { class: "compare-at", dataset: { version: String(moment.version) } },
        past ? `This branch ends at ${this.moveName(branch.campaign, moment.version)}, before step ${this.step} after the parting; its last move, ${as}.` : `${this.moveName(branch.campaign, moment.version).replace(/^./, (c) => c.toUpperCase())}, ${as}.`,
        words ? h("span", { class: "compare-words" }, ` ${words}`) : null,
        " ", h("a", { href: momentHash(branch.campaign, moment.version) }, "Open its timeline here")),
      h("div", { class: "board-slot historic", dataset: { version: String(moment.version) } }, drawn)];
  }

  draw(state) {
    const { game, content, info, seats } = this.family;
    const context = {
      view: state.view, seat: state.seat || null, seats, content, info,
      sink: new ActionSink([], { act: null, busy: false }), memory: new Map(), live: false,
    };
    try {
      return boardFor(game).render(context);
    } catch (error) {
      return h("p", { class: "error" }, `This board could not be drawn: ${error.message}`);
    }
  }
}
