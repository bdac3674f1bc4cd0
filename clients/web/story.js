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
    // where the campaign may be forked and rewound to, as of `head` (docs/protocol.md)
    this.forkPoints = [];
    this.rewindPoints = [];
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
        this.forkPoints = answer.fork_points || [];
        this.rewindPoints = answer.rewind_points || [];
      } while (this.again);
    })();
    try {
      await this.loading;
    } finally {
      this.loading = null;
    }
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
}

// An event as a few words, when the timeline has no line for it.
export function eventWords(seen) {
  const type = seen?.event?.type || "event";
  return humanize(type.includes("/") ? type.split("/").pop() : type);
}

// For each line a rewind undid, the move of that rewind: a rewind at move v back to move k undoes
// the moves after k and before v (the first such rewind after a line is the one that undid it).
export function undoneBy(lines) {
  const undone = new Map();
  const rewinds = lines.filter((line) => line.rewound_to !== undefined && line.rewound_to !== null);
  for (const line of lines) {
    const rewind = rewinds.find((r) => r.version > line.version && r.rewound_to < line.version);
    if (rewind) undone.set(line.version, rewind.version);
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
    const by = undone.get(line.version);
    return h("li", { class: `${className}${by ? " undone" : ""}`, dataset: { version: String(line.version) } },
      h("span", { class: "v" }, `move ${line.version}`),
      h("span", { class: "text" }, by ? h("s", {}, line.text) : line.text),
      by ? h("span", { class: "undone-note" }, `undone by the rewind at move ${by}`) : null);
  };
  clear(node,
    h("h3", {}, "What just happened"),
    h("ol", { class: "recent" },
      earlier.map((line) => item(line, "old")),
      [...fresh, ...fallback].map((line) => item(line, "new"))));
}
