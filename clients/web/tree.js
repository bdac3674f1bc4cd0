// The family tree drawn: one lane per branch, left to right by move, a fork or an undone stretch
// joined to the lane it parts from at the move it starts from. Every joint (where a branch starts,
// where one parts from it, a rewind, its last move) is a link that opens that campaign's timeline
// at that move. Outcomes are said in words beside a mark, never by colour alone.
//
// Moves are placed by rank, not to scale: only the moves where something happens get a column, so
// a campaign of 100,000 moves with three forks is as wide as one of 30.

import { s } from "./dom.js";
import { branchName, outcomeOf } from "./lineage.js";
import { momentHash } from "./moment.js";

const COLUMN = 64;
const NARROW_COLUMN = 50; // a phone's: more of the tree in view before it scrolls
const ROW = 80;
const LEFT = 28;
const TOP = 40;
const END_WORDS = 230;

// The moves that get a column: every start, end, parting point and rewind, and the move shown.
function columns(branches, here) {
  const keys = new Set([1]);
  for (const b of branches) {
    for (const v of [b.first, b.last, b.parent?.version, b.undone_at]) if (Number.isInteger(v) && v > 0) keys.add(v);
    for (const r of b.rewinds || []) keys.add(r.at).add(r.to);
  }
  if (here) keys.add(here.version);
  return [...keys].sort((a, b) => a - b);
}

function placer(keys, column) {
  const rank = new Map(keys.map((v, i) => [v, i]));
  return (version) => {
    if (rank.has(version)) return LEFT + rank.get(version) * column;
    const after = keys.findIndex((v) => v > version);
    return LEFT + (after < 0 ? keys.length - 1 : Math.max(0, after - 0.5)) * column;
  };
}

// A version's number beside its joint, right of the link that may leave it downwards.
function number(x, y, version) {
  return s("text", { x: x + 9, y: y + 24, class: "joint-words" }, `${version}`);
}

function joint(x, y, { href, label, shape = "circle", current = false, kind = "" }) {
  const mark = shape === "diamond"
    ? s("path", { d: `M${x},${y - 8} L${x + 8},${y} L${x},${y + 8} L${x - 8},${y} Z`, class: "joint-mark" })
    : shape === "end"
      ? s("rect", { x: x - 7, y: y - 7, width: 14, height: 14, rx: 3, class: "joint-mark" })
      : shape === "end-diamond"
        ? s("path", { d: `M${x},${y - 9} L${x + 9},${y} L${x},${y + 9} L${x - 9},${y} Z`, class: "joint-mark" })
      : s("circle", { cx: x, cy: y, r: 7, class: "joint-mark" });
  return s("a", { href, class: `joint ${kind}${current ? " current" : ""}`, "aria-label": label },
    s("title", {}, label),
    s("circle", { cx: x, cy: y, r: 20, class: "joint-hit" }),
    current ? s("circle", { cx: x, cy: y, r: 13, class: "joint-ring" }) : null,
    mark);
}

// The versions a current line holds but a rewind on it undid, as ranges [first, last].
function undoneRanges(branch) {
  return (branch.rewinds || []).filter((r) => r.at - 1 >= r.to + 1).map((r) => [r.to + 1, r.at - 1]);
}

// The SVG of `branches` (in the lineage's order), with the moment `here` ({campaign, version})
// ringed and the lane of `campaign` marked as this campaign; `narrow`: for a phone.
// `moves` (FamilyMoves): versions said as moves; without it, as versions.
export function drawTree(branches, { names, here, campaign, narrow = false, moves = null }) {
  const said = (owner, version) => (moves ? moves.name(owner, version) : `move ${version}`);
  const numeral = (owner, version) => moves?.at(owner, version) ?? version;
  const shown = branches.filter((b) => b.first || b.kind === "root" || b.private);
  const keys = columns(shown, here);
  const column = narrow ? NARROW_COLUMN : COLUMN;
  const x = placer(keys, column);
  const lane = new Map(shown.map((b, i) => [b.id, i]));
  const y = (id) => TOP + lane.get(id) * ROW;
  const width = LEFT + (keys.length - 1) * column + END_WORDS;
  const height = TOP + shown.length * ROW - 24;
  const svg = s("svg", {
    class: "tree", width, height, viewBox: `0 0 ${width} ${height}`,
    role: "group", "aria-label": "The family tree: one lane per branch; each point opens the timeline there",
  });
  const links = s("g", { class: "links" });
  const lanes = s("g", { class: "lanes" });
  const joints = s("g", { class: "joints" });
  svg.append(links, lanes, joints);
  // one joint per lane and move: where a fork parts at a lane's own start, its start stands for both
  const drawn = new Set();
  const place = (laneId, version, options) => {
    const key = `${laneId}:${version}`;
    if (drawn.has(key)) return;
    drawn.add(key);
    const [px, py] = [x(version), y(laneId)];
    joints.append(joint(px, py, options));
    lanes.append(number(px, py, numeral(options.campaign, version)));
  };
  for (const branch of shown) {
    const row = y(branch.id);
    const name = names.get(branch.id) || branchName(branch);
    const mine = branch.campaign === campaign && branch.kind !== "undone";
    const laneClass = `lane lane-${branch.kind}${mine ? " mine" : ""}${branch.private ? " private" : ""}`;
    lanes.append(s("text", { x: x(branch.first || 1) - 8, y: row - 16, class: "lane-name" }, mine ? `${name} (this campaign)` : name));
    if (!branch.first) continue; // a private placeholder: named, with no moves to show
    const start = branch.parent && lane.has(branch.parent.branch) ? branch.parent.version : branch.first;
    if (branch.parent && lane.has(branch.parent.branch)) {
      const from = [x(branch.parent.version), y(branch.parent.branch)];
      const to = [x(Math.min(branch.first, branch.last)), row];
      links.append(s("path", {
        d: `M${from[0]},${from[1]} C${from[0]},${(from[1] + to[1]) / 2} ${from[0]},${to[1]} ${to[0]},${to[1]}`,
        class: `link link-${branch.kind}`,
      }));
    }
    const dashed = undoneRanges(branch);
    // a fork with no move of its own yet is a point: where it starts, on its own lane
    const first = Math.min(branch.first, branch.last);
    lanes.append(s("line", { x1: x(Math.max(start, first)), y1: row, x2: x(branch.last), y2: row, class: laneClass }));
    // the moves a rewind undid: the line goes on from the rewind, drawn thin across them
    for (const [first, last] of dashed) {
      lanes.append(s("line", { x1: x(first - 1), y1: row, x2: x(last + 1), y2: row, class: "lane-gap" }));
      lanes.append(s("line", { x1: x(first - 1), y1: row, x2: x(last + 1), y2: row, class: "lane-skip" }));
    }
    const at = (version) => momentHash(branch.campaign, version);
    const isHere = (version) => here && here.campaign === branch.campaign && here.version === version;
    const outcome = outcomeOf(branch);
    const rewinds = new Map((branch.rewinds || []).map((r) => [r.at, r.to]));
    for (const [version, to] of rewinds) {
      lanes.append(s("text", { x: x(version) + 9, y: row + 40, class: "joint-words rewind-words" }, `↶ to ${numeral(branch.campaign, to)}`));
    }
    // its last move first: when a rewind is the last move, one joint says both
    const lastTo = rewinds.get(branch.last);
    place(branch.id, branch.last, {
      href: at(branch.last), shape: lastTo === undefined ? "end" : "end-diamond",
      label: `${name}: its last move, ${said(branch.campaign, branch.last)}${lastTo === undefined ? "" : `, a rewind to ${said(branch.campaign, lastTo)}`}, ${outcome.words}`,
      current: isHere(branch.last), kind: lastTo === undefined ? "end" : "end rewind", campaign: branch.campaign,
    });
    lanes.append(s("text", { x: x(branch.last) + 16, y: row + 5, class: `outcome outcome-${outcome.kind}` }, `${outcome.mark} ${outcome.words}`));
    place(branch.id, first, { href: at(first), label: `${name}: its first move, ${said(branch.campaign, first)}`, current: isHere(first), kind: "start", campaign: branch.campaign });
    for (const [version, to] of rewinds) {
      place(branch.id, version, { href: at(version), shape: "diamond", label: `${name}: a rewind to ${said(branch.campaign, to)}`, current: isHere(version), kind: "rewind", campaign: branch.campaign });
    }
    if (here && here.campaign === branch.campaign && branch.first <= here.version && here.version <= branch.last
      && !dashed.some(([a, b]) => a <= here.version && here.version <= b)) {
      place(branch.id, here.version, { href: at(here.version), label: `${name}: ${said(branch.campaign, here.version)}, the move you came from`, current: true, kind: "here", campaign: branch.campaign });
    }
  }
  // the points where branches part, on the lane they part from
  for (const branch of shown) {
    const parent = branch.parent && lane.has(branch.parent.branch) ? shown[lane.get(branch.parent.branch)] : null;
    if (!parent || !parent.first) continue;
    const version = branch.parent.version;
    const row = y(parent.id);
    const name = names.get(parent.id) || branchName(parent);
    const what = branch.kind === "undone" ? "where a rewind went back to" : "where a fork parts";
    place(parent.id, version, {
      href: momentHash(parent.campaign, version), label: `${name}: ${said(parent.campaign, version)}, ${what}`,
      current: here && here.campaign === parent.campaign && here.version === version, kind: "parting", campaign: parent.campaign,
    });
  }
  return svg;
}
