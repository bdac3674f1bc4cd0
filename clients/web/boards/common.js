// What every board draws with: dice that tumble when their value changes, action buttons placed
// where they act, panels.

import { h, humanize, plural, s } from "../dom.js";

const PIPS = {
  1: [[2, 2]],
  2: [[1, 1], [3, 3]],
  3: [[1, 1], [2, 2], [3, 3]],
  4: [[1, 1], [3, 1], [1, 3], [3, 3]],
  5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
  6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
};

// A die showing `value` (0 or null: an empty slot). `key` names the die across renders, so a
// die whose value changed since the last render (in `memory`) tumbles to its new face.
export function die(value, { key = null, tone = "ivory", size = 36, memory = null, label = "" } = {}) {
  const empty = !value;
  const box = s("svg", {
    class: `die die-${tone}${empty ? " die-empty" : ""}`,
    viewBox: "0 0 40 40",
    width: size,
    height: size,
    role: "img",
    "aria-label": label || (empty ? "empty slot" : `die showing ${value}`),
    dataset: key ? { die: key, value: String(value || 0) } : undefined,
  });
  box.append(s("rect", { x: 2, y: 2, width: 36, height: 36, rx: 8, class: "die-face" }));
  if (!empty) {
    for (const [col, row] of PIPS[value] || []) {
      box.append(s("circle", { cx: col * 9 + 2, cy: row * 9 + 2, r: 3.6, class: "die-pip" }));
    }
    if (!PIPS[value]) {
      box.append(s("text", { x: 20, y: 26, "text-anchor": "middle", class: "die-number" }, value));
    }
  }
  if (key && memory) {
    if (memory.has(key) && memory.get(key) !== (value || 0) && !empty) box.classList.add("rolling");
    memory.set(key, value || 0);
  }
  return box;
}

// The same die as an SVG group at (x, y), for drawing inside a larger SVG (the map).
export function dieAt(x, y, value, options = {}) {
  const node = die(value, options);
  node.setAttribute("x", x);
  node.setAttribute("y", y);
  return node;
}

function commonPrefix(labels) {
  if (labels.length < 2) return "";
  let prefix = labels[0];
  for (const label of labels.slice(1)) {
    while (!label.startsWith(prefix)) prefix = prefix.slice(0, -1);
  }
  const cut = Math.max(prefix.lastIndexOf(" "), prefix.lastIndexOf(":"));
  return cut > 4 ? prefix.slice(0, cut).replace(/[:,]$/, "") : "";
}

// The legal actions, handed out to the parts of a board that show them; whatever no part took
// is listed in the board's actions panel.
export class ActionSink {
  constructor(actions, context) {
    this.left = [...(actions || [])];
    this.context = context;
  }

  take(test) {
    const taken = this.left.filter(test);
    this.left = this.left.filter((action) => !taken.includes(action));
    return taken;
  }

  // Actions whose id starts with one of `tags` ("hike", "path", ...).
  tagged(...tags) {
    return this.take((action) => tags.includes(action.id.split(":")[0]));
  }

  // Buttons for `actions`, one run per tag; a run longer than `group` is folded under a summary
  // (`title`, else the labels' common start). `face(action)` may draw a button's face (dice, say):
  // its label then stays in the button as hidden text and as its accessible name and tooltip.
  buttons(actions, { group = 6, className = "", title = "", face = null } = {}) {
    if (!actions.length) return null;
    const byTag = new Map();
    for (const action of actions) {
      const tag = action.id.split(":")[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push(action);
    }
    const parts = [];
    for (const [tag, list] of byTag) {
      const buttons = list.map((action) => this.button(action, face?.(action)));
      if (list.length > group) {
        const summary = title || commonPrefix(list.map((a) => a.label)) || humanize(tag);
        parts.push(
          h("details", { class: "action-group" },
            h("summary", {}, `${summary} (${plural(list.length, "choice")})`),
            h("div", { class: `action-list ${className}` }, buttons)),
        );
      } else {
        parts.push(...buttons);
      }
    }
    return h("div", { class: `action-list ${className}` }, parts);
  }

  button(action, face = null) {
    const { act, busy } = this.context;
    return h(
      "button",
      {
        class: face ? "action action-face" : "action",
        type: "button",
        disabled: busy || !act,
        title: face ? action.label : null,
        "aria-label": face ? action.label : null,
        dataset: { action: action.id },
        onclick: () => act?.(action.id),
      },
      face ? [face, h("span", { class: "sr-only" }, action.label)] : action.label,
    );
  }
}

export function panel(title, className, ...children) {
  return h("section", { class: `panel ${className || ""}` }, title ? h("h3", {}, title) : null, children);
}

export function chip(text, tone = "") {
  return h("span", { class: `chip ${tone}` }, text);
}

// Any JSON value as readable HTML: objects as definition lists, lists of records as tables.
export function readable(value, depth = 0) {
  if (value === null || value === undefined || value === "") return h("span", { class: "muted" }, "—");
  if (typeof value === "boolean") return h("span", {}, value ? "yes" : "no");
  if (typeof value !== "object") return h("span", { class: typeof value === "number" ? "num" : "" }, String(value));
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, "none");
    if (value.every((item) => item === null || typeof item !== "object")) {
      return h("span", { class: "chips" }, value.map((item) => chip(String(item))));
    }
    const records = value.every((item) => item && typeof item === "object" && !Array.isArray(item));
    if (records) {
      const keys = [...new Set(value.flatMap((item) => Object.keys(item)))];
      return h("table", { class: "records" },
        h("thead", {}, h("tr", {}, keys.map((key) => h("th", {}, humanize(key))))),
        h("tbody", {}, value.map((item) =>
          h("tr", {}, keys.map((key) => h("td", {}, readable(item[key], depth + 1)))))));
    }
    return h("ol", { class: "plain" }, value.map((item) => h("li", {}, readable(item, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return h("span", { class: "muted" }, "nothing");
  return h("dl", { class: `fields depth-${Math.min(depth, 2)}` },
    entries.flatMap(([key, item]) => [h("dt", {}, humanize(key)), h("dd", {}, readable(item, depth + 1))]));
}
