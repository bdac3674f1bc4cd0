// Where did it turn? (docs/analysis.md) The end panel offers the analysis of the campaign: the
// server estimates, in its bot workers, the chance of winning at every decision point from what
// the acting seat knew; this panel asks for it, shows its progress, and draws the chance across
// the campaign as a chart (SVG, readable without colour: the line, point shapes and numbered
// turning points; with a table of every point as its text alternative), then lists the turning
// points in words, each a link to that moment of the timeline and a "Try it" that forks there
// with fresh luck and plays the move the analysis preferred.

import { ApiError } from "./api.js";
import { clear, h, plural, s } from "./dom.js";
import { momentHash } from "./moment.js";
import { remember } from "./seats.js";

const POLL_MS = 1000;
const LEVELS = [
  [1, "Quick (8 playouts a move)"],
  [2, "Default (16 playouts a move)"],
  [3, "Deep (64 playouts a move)"],
];
const DEFAULT_LEVEL = 2;

// The chart's drawing, in its own units, scaled to the panel's width: narrower on a narrow
// screen, so that its words keep their size there.
const WIDE = { W: 640, H: 260 };
const NARROW = { W: 360, H: 230 };
const PAD = { left: 46, right: 14, top: 16, bottom: 40 };

async function call(method, path, { token, body } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError("offline", "The server cannot be reached.");
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data?.error || {};
    throw new ApiError(error.code || "http", error.message || `The server answered ${response.status}.`, response.status);
  }
  return data;
}

const base = (campaign) => `/api/campaigns/${encodeURIComponent(campaign)}/analysis`;
export const startAnalysis = (campaign, token, level) => call("POST", base(campaign), { token, body: { level } });
export const readAnalysis = (campaign, token, level) => call("GET", `${base(campaign)}?level=${level}`, { token });
export const tryPreferred = (campaign, token, version, level) =>
  call("POST", `${base(campaign)}/try`, { token, body: { version, level } });

const percent = (p) => `${Math.round(p * 100)}%`;

// The chance of winning after each move played, across the campaign, with the turning points
// numbered as in the list below it.
// The move chosen at a version, named by the version where no story of the campaign's moves is
// at hand.
const versionName = (version) => `the move at version ${version}`;
const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);

export function chanceChart(analysis, campaignName = "the campaign", moveOf = versionName) {
  const { W, H } = window.matchMedia("(max-width: 600px)").matches ? NARROW : WIDE;
  const points = analysis.points;
  const turning = new Map(analysis.turning_points.map((t, i) => [t.version, i + 1]));
  const first = points.length ? points[0].version : 0;
  const last = points.length ? points[points.length - 1].version : 1;
  const span = Math.max(1, last - first);
  const x = (version) => PAD.left + ((version - first) / span) * (W - PAD.left - PAD.right);
  const y = (p) => PAD.top + (1 - p) * (H - PAD.top - PAD.bottom);
  const id = `chance-${Math.random().toString(36).slice(2, 8)}`;
  const grid = [0, 0.25, 0.5, 0.75, 1].map((p) => s("g", { class: "chance-grid" },
    s("line", { x1: PAD.left, x2: W - PAD.right, y1: y(p), y2: y(p) }),
    s("text", { x: PAD.left - 6, y: y(p) + 4, "text-anchor": "end" }, percent(p))));
  const path = points.map((p, i) => `${i ? "L" : "M"}${x(p.version).toFixed(1)},${y(p.after_played.p).toFixed(1)}`).join(" ");
  const band = points.length > 1
    ? [...points.map((p) => `${x(p.version).toFixed(1)},${y(p.after_played.high).toFixed(1)}`),
      ...points.slice().reverse().map((p) => `${x(p.version).toFixed(1)},${y(p.after_played.low).toFixed(1)}`)].join(" ")
    : "";
  // The dots first, the turning points over them.
  const dots = points.filter((p) => !turning.has(p.version)).map((p) =>
    s("circle", { class: "chance-dot", cx: x(p.version), cy: y(p.after_played.p), r: 3.5 },
      s("title", {}, `${capital(moveOf(p.version))} (${p.seat}): ${percent(p.after_played.p)}`)));
  const turns = points.filter((p) => turning.has(p.version)).map((p) => {
    const number = turning.get(p.version);
    const cx = x(p.version);
    const cy = y(p.after_played.p);
    return s("g", { class: "chance-turn", dataset: { version: String(p.version) } },
      s("line", { class: "chance-drop", x1: cx, x2: cx, y1: y(p.after_preferred.p), y2: cy }),
      s("circle", { class: "chance-better", cx, cy: y(p.after_preferred.p), r: 4 }),
      s("rect", { class: "chance-turn-mark", x: cx - 9, y: cy - 9, width: 18, height: 18, rx: 3, transform: `rotate(45 ${cx} ${cy})` }),
      s("text", { class: "chance-turn-number", x: cx, y: cy + 5, "text-anchor": "middle" }, String(number)),
      s("title", {}, `Turning point ${number}, ${moveOf(p.version)}`));
  });
  const summary = points.length
    ? `The chance of winning after each of ${plural(points.length, "decision")} of ${campaignName}, from ${percent(points[0].after_played.p)} at ${moveOf(points[0].version)} to ${percent(points[points.length - 1].after_played.p)} at ${moveOf(points[points.length - 1].version)}; ${plural(analysis.turning_points.length, "turning point")} numbered (the table below lists every point).`
    : "No decision point has been estimated yet.";
  return s("svg", { class: "chance-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "aria-labelledby": `${id}-title ${id}-desc` },
    s("title", { id: `${id}-title` }, "The chance of winning across the campaign"),
    s("desc", { id: `${id}-desc` }, summary),
    grid,
    band ? s("polygon", { class: "chance-band", points: band }) : null,
    s("path", { class: "chance-line", d: path }),
    dots,
    turns,
    s("text", { class: "chance-axis", x: (W + PAD.left) / 2, y: H - 8, "text-anchor": "middle" }, "Moves, first to last"),
    s("text", { class: "chance-axis", x: PAD.left, y: H - 24, "text-anchor": "start" }, capital(moveOf(first))),
    s("text", { class: "chance-axis", x: W - PAD.right, y: H - 24, "text-anchor": "end" }, capital(moveOf(last))));
}

// Every point as a table row: the chart's text alternative.
function pointsTable(campaign, analysis, moveOf) {
  return h("details", { class: "chance-table" },
    h("summary", {}, "Every decision point as a table"),
    h("div", { class: "chance-table-box", tabindex: 0, role: "region", "aria-label": "Every decision point" },
      h("table", {},
        h("thead", {}, h("tr", {},
          h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Seat"), h("th", { scope: "col" }, "Played"),
          h("th", { scope: "col" }, "Chance after"), h("th", { scope: "col" }, "Preferred"), h("th", { scope: "col" }, "Chance after"))),
        h("tbody", {}, analysis.points.map((p) => {
          const same = p.preferred.id === p.played.id;
          return h("tr", {},
            h("td", {}, h("a", { href: momentHash(campaign, p.version) }, capital(moveOf(p.version)))),
            h("td", {}, p.seat),
            h("td", {}, p.played.label),
            h("td", { class: "num" }, `${percent(p.after_played.p)} (${percent(p.after_played.low)}–${percent(p.after_played.high)})`),
            h("td", {}, same ? "the same" : p.preferred.label),
            h("td", { class: "num" }, same ? "" : percent(p.after_preferred.p)));
        })))));
}

function turningList(campaign, token, analysis, level, tried, moveOf) {
  if (!analysis.turning_points.length) {
    return h("p", { class: "muted" }, "No move cost much: no turning point.");
  }
  return h("ol", { class: "turning-points" }, analysis.turning_points.map((t, i) =>
    h("li", { dataset: { version: String(t.version) } },
      h("span", { class: "turn-number", "aria-hidden": "true" }, String(i + 1)),
      h("div", {},
        h("p", { class: "turn-words" }, `${capital(moveOf(t.version))}, ${capital(t.seat)}: `, t.words, "."),
        h("p", { class: "turn-played muted" }, `Played: ${t.played.label}.`),
        h("p", { class: "turn-links" },
          h("a", { href: momentHash(campaign, t.version) }, `Go to where ${moveOf(t.version)} was chosen`),
          h("button", { type: "button", class: "ghost try-it", onclick: (event) => tried(t, event.currentTarget) }, "Try it"))))));
}

function luckList(analysis) {
  if (!analysis.luck.length) return null;
  return [h("h4", {}, "The luck that cost most"),
    h("ul", { class: "luck-list" }, analysis.luck.map((l) => h("li", {}, l.words, ".")))];
}

// The end panel's offer: a level, a button, and the analysis once asked for.
// ``moveOf(version)``: the move a seat chose at ``version``, as players count moves ("move 12").
export function analysisOffer({ campaign, token, navigate, moveOf = versionName }) {
  const status = h("p", { class: "analysis-status", role: "status", "aria-live": "polite" });
  const bar = h("progress", { class: "analysis-progress", max: 1, value: 0, hidden: true, "aria-label": "Analysis progress" });
  const body = h("div", { class: "analysis-body" });
  const select = h("select", { id: `analysis-level-${campaign}` },
    LEVELS.map(([value, label]) => h("option", { value: String(value), selected: value === DEFAULT_LEVEL }, label)));
  let timer = null;
  let level = DEFAULT_LEVEL;

  async function tried(turning, button) {
    button.disabled = true;
    try {
      const out = await tryPreferred(campaign, token, turning.version, level);
      remember(out.fork.id, out.fork.game, out.fork.seats, out.seat);
      if (navigate) navigate(`#/c/${out.fork.id}`);
      else location.hash = `#/c/${out.fork.id}`;
    } catch (error) {
      status.textContent = `The move could not be tried: ${error.message}`;
      button.disabled = false;
    }
  }

  function draw(out) {
    bar.hidden = out.state === "done";
    bar.max = Math.max(1, out.total);
    bar.value = out.done;
    status.textContent = out.state === "done"
      ? `Every decision point estimated (${out.total}), from what each seat knew when it acted.`
      : out.state === "running"
        ? `Estimating: ${out.done} of ${out.total} decision points.`
        : `Stopped at ${out.done} of ${out.total} decision points: ask again to go on.`;
    clear(body,
      chanceChart(out.analysis, "the campaign", moveOf),
      h("p", { class: "chance-legend small muted" },
        "The line is the chance of winning after the move played (the shaded band its 95% interval); each numbered diamond is a turning point, the small circle above it the chance after the move preferred."),
      pointsTable(campaign, out.analysis, moveOf),
      h("h4", {}, "Turning points"),
      turningList(campaign, token, out.analysis, level, tried, moveOf),
      luckList(out.analysis));
    body.dataset.state = out.state;
  }

  async function follow() {
    if (!node.isConnected) return; // the page moved on: nothing to show it to
    try {
      const out = await readAnalysis(campaign, token, level);
      draw(out);
      if (out.state === "running") timer = setTimeout(follow, POLL_MS);
    } catch (error) {
      status.textContent = error.message;
    }
  }

  async function ask() {
    clearTimeout(timer);
    level = Number(select.value);
    button.disabled = true;
    status.textContent = "Asking for the analysis…";
    try {
      const out = await startAnalysis(campaign, token, level);
      draw(out);
      if (out.state === "running") timer = setTimeout(follow, POLL_MS);
    } catch (error) {
      status.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  }

  const button = h("button", { type: "button", class: "analyse", onclick: ask }, "Where did it turn?");
  const node = h("section", { class: "analysis", "aria-label": "Where did it turn?" },
    h("div", { class: "analysis-ask" },
      h("label", { for: select.id }, "How deep"), select, button),
    status, bar, body);
  return node;
}
