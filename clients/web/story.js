// The readable timeline of a campaign (GET /api/campaigns/{id}/timeline), fetched again after
// changes, and "what just happened": the lines of the versions a change brought.

import * as api from "./api.js";
import { clear, h, humanize } from "./dom.js";

export class Story {
  constructor(campaign, token) {
    this.campaign = campaign;
    this.token = token;
    this.lines = [];
    this.head = 0;
    // where the campaign may be forked and rewound to: windows of runs [first, last] of points
    // (docs/protocol.md), around the head (from the timeline) and around the version shown
    this.windows = { head: null, shown: null };
    this.loading = null;
    this.again = false;
  }

  // Fetch the lines; calls made while one is under way share one more fetch after it.
  async refresh() {
    if (this.loading) {
      this.again = true;
      return this.loading;
    }
    this.loading = (async () => {
      do {
        this.again = false;
        const answer = await api.timeline(this.campaign, this.token);
        this.lines = answer.lines;
        this.head = answer.head;
        this.takePoints("head", answer.points);
      } while (this.again);
    })();
    try {
      await this.loading;
    } finally {
      this.loading = null;
    }
  }

  takePoints(which, points) {
    if (points) this.windows[which] = points;
  }

  // The known runs of fork (or rewind) points, oldest first, the windows' overlaps merged.
  runs(kind = "fork") {
    const all = Object.values(this.windows).filter(Boolean).flatMap((w) => w[kind]).sort((a, b) => a[0] - b[0]);
    const merged = [];
    for (const [first, last] of all) {
      const top = merged[merged.length - 1];
      if (top && first <= top[1] + 1) top[1] = Math.max(top[1], last);
      else merged.push([first, last]);
    }
    return merged;
  }

  isPoint(version, kind = "fork") {
    return this.runs(kind).some(([first, last]) => first <= version && version <= last);
  }

  // The nearest known fork point before (after) `version`, or undefined.
  pointBefore(version) {
    const below = this.runs().filter(([first]) => first < version).map(([, last]) => Math.min(last, version - 1));
    return below.length ? Math.max(...below) : undefined;
  }

  pointAfter(version) {
    const above = this.runs().filter(([, last]) => last > version).map(([first]) => Math.max(first, version + 1));
    return above.length ? Math.min(...above) : undefined;
  }

  // The campaign's first fork point, when a window reaches back to it.
  firstPoint() {
    const whole = Object.values(this.windows).filter((w) => w && !w.more_before && w.fork.length);
    return whole.length ? Math.min(...whole.map((w) => w.fork[0][0])) : undefined;
  }

  between(first, last) {
    return this.lines.filter((line) => line.version >= first && line.version <= last);
  }

  // The line that describes version `version` or the last one before it.
  at(version) {
    let found = null;
    for (const line of this.lines) if (line.version <= version) found = line;
    return found;
  }

  // The move version `version` belongs to, as players count moves (one action of a seat, however
  // many events it appends; 0: the set-up). Versions stay in links and the API.
  moveAt(version) {
    return this.at(version)?.move || 0;
  }
}

// "move 12", or "set-up" before any seat has acted.
export function moveName(move) {
  return move ? `move ${move}` : "set-up";
}

// An event as a few words, when the timeline has no line for it.
export function eventWords(seen) {
  const type = seen?.event?.type || "event";
  return humanize(type.includes("/") ? type.split("/").pop() : type);
}

// For each line a rewind undid, the line of that rewind: a rewind at version v back to version k
// undoes the versions after k and before v (the first such rewind after a line is the one).
export function undoneBy(lines) {
  const undone = new Map();
  const rewinds = lines.filter((line) => line.rewound_to !== undefined && line.rewound_to !== null);
  for (const line of lines) {
    const rewind = rewinds.find((r) => r.version > line.version && r.rewound_to < line.version);
    if (rewind) undone.set(line.version, rewind);
  }
  return undone;
}

export function renderRecent(node, story, range, events) {
  const [first, last] = range;
  const fresh = story.between(first, last);
  const earlier = story.lines.filter((line) => line.version < first).slice(-4);
  const fallback = !fresh.length && events.length ? events.map((e) => ({ version: e.version, text: eventWords(e) })) : [];
  const undone = undoneBy(story.lines);
  const item = (line, className) => {
    const by = undone.get(line.version); // the rewind that undid the line, if one did
    return h("li", { class: `${className}${by ? " undone" : ""}`, dataset: { version: String(line.version), move: String(line.move || 0) } },
      h("span", { class: "v" }, moveName(line.move)),
      h("span", { class: "text" }, by ? h("s", {}, line.text) : line.text,
        line.by ? h("span", { class: "by-bot" }, ` (played by the ${line.by})`) : null),
      by ? h("span", { class: "undone-note" }, `undone by the rewind back to ${moveName(by.move)}`) : null);
  };
  clear(node,
    h("h3", {}, "What just happened"),
    h("ol", { class: "recent" },
      earlier.map((line) => item(line, "old")),
      [...fresh, ...fallback].map((line) => item(line, "new"))));
}
