// The Epic of Gil & Ennis's trail map in SVG: home and the shared trail, both paths from the fork
// to the summit, the campsites walked, the marker, and the worry dice where they stand.

import { humanize, s } from "../dom.js";
import { dieAt } from "./common.js";

// A campsite's special action, as its marker and the action list name it.
export const SPECIAL = {
  reroll: { icon: "↻", text: "Reroll dice" },
  calm: { icon: "☾", text: "Calm the worry" },
  give: { icon: "⇄", text: "Give a die" },
  cash_insights: { icon: "✦", text: "Cash insights" },
};

export const PHASES = {
  setup: "Setting up",
  hike: "Hike",
  pitch: "Pitch camp",
  sleep: "Sleep",
  break: "Break camp",
  final_night: "The final night",
  ended: "The journey is over",
};

// Node positions: home and the shared trail along the middle, each path a branch above or below
// (spread from the fork to the summit), the summit on the right.
function layout(map) {
  const width = 960;
  const height = 320;
  const middle = 172;
  const trail = map?.trail || [];
  const step = Math.min(100, 400 / Math.max(1, trail.length));
  const nodes = [{ id: "home", name: map?.home || "Home", x: 54, y: middle, kind: "home" }];
  trail.forEach((site, i) => nodes.push({ ...site, x: 54 + (i + 1) * step, y: middle, kind: "trail" }));
  const fork = nodes[nodes.length - 1];
  const summit = { id: "summit", name: map?.summit || "The summit", x: width - 96, y: middle - 12, kind: "summit" };
  const paths = (map?.paths || []).map((path, p, all) => {
    const y = all.length === 1 ? middle : 82 + (p * 180) / Math.max(1, all.length - 1);
    const count = path.campsites.length;
    const span = summit.x - 60 - fork.x;
    const sites = path.campsites.map((site, i) => ({
      ...site,
      x: fork.x + ((i + 1) * span) / (count + 1) + 20,
      y,
      kind: "path",
      path: path.id,
    }));
    return { ...path, y, sites };
  });
  for (const path of paths) nodes.push(...path.sites);
  nodes.push(summit);
  return { width, height, middle, nodes, trail: nodes.slice(0, trail.length + 1), paths, summit };
}

function line(points, className) {
  const d = points.map((p, i) => `${i ? "L" : "M"}${p.x},${p.y}`).join(" ");
  return s("path", { d, class: className });
}

function curve(a, b, className) {
  const mid = (a.x + b.x) / 2;
  return s("path", { d: `M${a.x},${a.y} C${mid},${a.y} ${mid},${b.y} ${b.x},${b.y}`, class: className });
}

export function mapSvg(ctx) {
  const { view, content, memory } = ctx;
  const map = layout(content?.map);
  const svg = s("svg", { class: "trail-map", viewBox: `0 0 ${map.width} ${map.height}`, role: "img", "aria-label": "The trail map" });
  svg.append(s("rect", { x: 0, y: 0, width: map.width, height: map.height, rx: 18, class: "map-ground" }));
  // hills in the background, for the look of a map
  for (const [x, y, r] of [[200, 350, 130], [520, 370, 170], [840, 350, 150], [380, -30, 90], [690, -40, 80]]) {
    svg.append(s("circle", { cx: x, cy: y, r, class: "map-hill" }));
  }
  for (const [x, y] of [[130, 250], [150, 262], [300, 92], [318, 104], [470, 270], [760, 248], [780, 262], [905, 270]]) {
    svg.append(s("path", { d: `M${x},${y - 16} L${x + 9},${y} L${x - 9},${y} Z`, class: "map-tree" }));
  }
  const here = view.campsite;
  const order = map.nodes.map((n) => n.id);
  const route = [...map.trail];
  const chosen = map.paths.find((p) => p.id === view.path);
  if (chosen) route.push(...chosen.sites);
  const hereIndex = route.findIndex((n) => n.id === here);
  const reached = here === "summit" ? route.length : hereIndex + 1;

  svg.append(line(map.trail, "trail"));
  const last = map.trail[map.trail.length - 1];
  for (const path of map.paths) {
    const state = !view.path ? "open" : path.id === view.path ? "chosen" : "dropped";
    const points = [last, ...path.sites, map.summit];
    for (let i = 0; i + 1 < points.length; i += 1) svg.append(curve(points[i], points[i + 1], `trail path-${state}`));
    const above = path.y < map.middle;
    const first = path.sites[0] || map.summit;
    svg.append(s("text", { x: (last.x + first.x) / 2 - 10, y: (last.y + path.y) / 2 + (above ? -16 : 26), "text-anchor": "end", class: `path-name path-name-${state}` }, path.name));
  }
  // the way walked so far, drawn over the trail
  if (reached > 1) {
    const walked = route.slice(0, reached);
    if (here === "summit") walked.push(map.summit);
    for (let i = 0; i + 1 < walked.length; i += 1) svg.append(curve(walked[i], walked[i + 1], "walked"));
  }

  for (const node of map.nodes) {
    const visited = route.slice(0, reached).some((n) => n.id === node.id);
    const g = s("g", { class: `site site-${node.kind}${visited ? " visited" : ""}${node.id === here ? " here" : ""}`, dataset: { site: node.id } });
    if (node.kind === "summit") {
      const { x, y } = node;
      g.append(s("path", { d: `M${x - 58},${y + 46} L${x - 14},${y - 48} L${x + 6},${y - 18} L${x + 20},${y - 34} L${x + 62},${y + 46} Z`, class: "mountain" }));
      g.append(s("path", { d: `M${x - 24},${y - 27} L${x - 14},${y - 48} L${x - 3},${y - 30} L${x - 10},${y - 24} Z`, class: "snow" }));
      g.append(s("text", { x, y: y + 68, "text-anchor": "middle", class: "site-name summit-name" }, node.name));
    } else {
      g.append(s("circle", { cx: node.x, cy: node.y, r: node.kind === "home" ? 17 : 15, class: "site-dot" }));
      const special = SPECIAL[node.special];
      g.append(s("text", { x: node.x, y: node.y + 5, "text-anchor": "middle", class: "site-icon" }, node.kind === "home" ? "⌂" : special?.icon || "·"));
      // names sit below their site, clear of the marker that stands above it
      g.append(s("text", { x: node.x, y: node.y + 36, "text-anchor": "middle", class: "site-name" }, node.name));
      if (special) g.append(s("title", {}, `${node.name}: ${special.text}`));
    }
    svg.append(g);
  }
  const at = here === "summit" ? { x: map.summit.x - 6, y: map.summit.y - 10 } : map.nodes[order.indexOf(here)] || map.nodes[0];
  const moved = memory?.has("marker") && memory.get("marker") !== here;
  memory?.set("marker", here);
  const marker = s("g", { class: `marker${moved ? " arrived" : ""}`, transform: `translate(${at.x},${at.y - 30})`, "aria-label": `Gil and Ennis at ${here}` });
  marker.append(s("path", { d: "M0,22 C-12,6 -14,-2 -14,-8 A14,14 0 1 1 14,-8 C14,-2 12,6 0,22 Z", class: "marker-pin" }));
  marker.append(s("text", { x: 0, y: -3, "text-anchor": "middle", class: "marker-text" }, "G·E"));
  svg.append(marker);

  // the worry dice sit on the map
  const worry = s("g", { class: "worry-box", transform: "translate(18,16)" });
  const dice = view.worry_dice || [];
  worry.append(s("rect", { x: 0, y: 0, width: 74 + Math.max(1, dice.length) * 44, height: 58, rx: 12, class: "worry-bg" }));
  worry.append(s("text", { x: 14, y: 24, class: "worry-label" }, "WORRY"));
  worry.append(s("text", { x: 14, y: 48, class: "worry-level" }, String(view.worry_level)));
  dice.forEach((value, i) => worry.append(dieAt(70 + i * 44, 10, value, { tone: "red", size: 38, key: `worry.${i}`, memory })));
  svg.append(worry);
  const day = view.day ? `Day ${view.day}` : "Setting out";
  svg.append(s("text", { x: map.width - 24, y: 36, "text-anchor": "end", class: "map-day" }, `${day} · ${PHASES[view.phase] || humanize(view.phase)}`));
  return svg;
}

