// Chapter 3's mine: map tiles of 2x2 grids, face up or face down, laid out from the bottom-left
// corner; each face-up grid with its location number (under a cover token once covered), the
// shelter icon, darkness, and its sides (walls, cliffs, hidden passages); the Eila & Leo token;
// and the token's legal steps as buttons on the grids they lead to.

import { h, plural, s } from "../../dom.js";

const CELL = 60;
const EDGE = 12;
const NEAR = 0.4 * CELL;
const MOVES = { north: [0, 1], east: [1, 0], south: [0, -1], west: [-1, 0] };
const ARROWS = { north: "↑", east: "→", south: "↓", west: "←" };
const PAYS = { energy: "1 Energy", hp: "1 HP" };

function frame(mine) {
  const width = mine.columns * CELL + 2 * EDGE;
  const height = mine.rows * CELL + 2 * EDGE;
  // grid (x, y) counts from the bottom-left; the SVG counts down from the top
  const at = (x, y) => ({ x: EDGE + x * CELL, y: EDGE + (mine.rows - 1 - y) * CELL });
  return { width, height, at };
}

// One side of a grid: 0 north, 1 east, 2 south, 3 west.
function side(kind, index, { x, y }) {
  const ends = [
    [x, y, x + CELL, y],
    [x + CELL, y, x + CELL, y + CELL],
    [x, y + CELL, x + CELL, y + CELL],
    [x, y, x, y + CELL],
  ][index];
  const [x1, y1, x2, y2] = ends;
  if (kind === "cliff") {
    const points = [];
    for (let i = 0; i <= 8; i += 1) {
      const t = i / 8;
      const jag = i % 2 ? 4 : -4;
      const px = x1 + (x2 - x1) * t + (y1 === y2 ? 0 : jag);
      const py = y1 + (y2 - y1) * t + (y1 === y2 ? jag : 0);
      points.push(`${px},${py}`);
    }
    return s("polyline", { points: points.join(" "), class: "mine-side side-cliff" });
  }
  return s("line", { x1, y1, x2, y2, class: `mine-side side-${kind}` });
}

function tileNode(tile, at) {
  const { x, y } = at(2 * tile.col, 2 * tile.row + 1);
  const size = 2 * CELL;
  const g = s("g", { class: `mine-tile ${tile.face_up ? "face-up" : "face-down"}`, dataset: { col: String(tile.col), row: String(tile.row), tile: tile.tile || "" } });
  g.append(s("rect", { x: x + 2, y: y + 2, width: size - 4, height: size - 4, rx: 8, class: "tile-card" }));
  if (tile.face_up) {
    g.append(s("title", {}, `${tile.tile}: ${tile.name}`));
  } else {
    g.append(s("path", { d: `M${x + 14},${y + 14} L${x + size - 14},${y + size - 14} M${x + size - 14},${y + 14} L${x + 14},${y + size - 14}`, class: "tile-back-cross" }));
    g.append(s("text", { x: x + size / 2, y: y + size / 2 + 8, "text-anchor": "middle", class: "tile-back-mark" }, "?"));
    g.append(s("title", {}, "A face-down map tile"));
  }
  return g;
}

// A face-up tile's id on its corner, drawn over its grids.
function tileLabel(tile, at) {
  const { x, y } = at(2 * tile.col + 1, 2 * tile.row);
  return s("g", { class: "mine-tile-label" },
    s("rect", { x: x + CELL - 36, y: y + CELL - 19, width: 34, height: 17, rx: 4 }),
    s("text", { x: x + CELL - 19, y: y + CELL - 6, "text-anchor": "middle" }, tile.tile),
    s("title", {}, tile.name));
}

function gridNode(grid, at) {
  const corner = at(grid.x, grid.y);
  const g = s("g", { class: `mine-grid${grid.dark ? " dark" : ""}${grid.shelter ? " shelter" : ""}`, dataset: { x: String(grid.x), y: String(grid.y), location: grid.location } });
  g.append(s("rect", { x: corner.x + 4, y: corner.y + 4, width: CELL - 8, height: CELL - 8, rx: 5, class: "grid-floor" }));
  if (grid.shelter) {
    const { x, y } = { x: corner.x + 6, y: corner.y + 6 };
    g.append(s("path", { d: `M${x},${y + 11} L${x + 7},${y} L${x + 14},${y + 11} Z`, class: "shelter-icon" }, s("title", {}, "Shelter")));
  }
  if (grid.location) {
    const cx = corner.x + CELL / 2;
    const cy = corner.y + CELL / 2;
    g.append(s("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "location-number" }, grid.location));
    if (grid.covered) {
      g.append(s("circle", { cx, cy, r: 15, class: "cover-token" }, s("title", {}, `Location ${grid.location} is covered`)));
    }
  }
  grid.sides.forEach((kind, index) => {
    if (kind !== "open") g.append(side(kind, index, corner));
  });
  return g;
}

function moveButtons(ctx, mine, box) {
  const steps = ctx.sink.tagged("step");
  const byDirection = new Map();
  for (const action of steps) {
    const direction = action.id.split(":")[1];
    if (!byDirection.has(direction)) byDirection.set(direction, []);
    byDirection.get(direction).push(action);
  }
  const [tx, ty] = mine.token;
  return [...byDirection].map(([direction, actions]) => {
    const [dx, dy] = MOVES[direction] || [0, 0];
    // on the grid the step leads to, near the side it crosses, clear of the grid's number
    const corner = box.at(tx + dx, ty + dy);
    const left = (100 * (corner.x + CELL / 2 - dx * NEAR)) / box.width;
    const top = (100 * (corner.y + CELL / 2 + dy * NEAR)) / box.height;
    return h("div", { class: "mine-move", style: `left:${left}%;top:${top}%`, dataset: { direction } },
      actions.map((action) => {
        const pay = action.id.split(":")[2];
        return ctx.sink.button(action, h("span", { class: "move-face" }, ARROWS[direction] || "•", pay ? h("small", {}, PAYS[pay] || pay) : null));
      }));
  });
}

function legend() {
  const swatch = (kind, text) => h("span", { class: `legend-item mine-key key-${kind}` }, h("i", {}), text);
  return h("div", { class: "legend mine-legend" },
    swatch("wall", "Wall"), swatch("cliff", "Cliff: 1 Energy or 1 HP, free with a rope"),
    swatch("passage", "Hidden passage: needs a magnifier"), swatch("dark", "Dark: +1 Fear on entering"),
    swatch("shelter", "Shelter"), swatch("cover", "Cover token"), swatch("face-down", "Face-down tile"));
}

export function mineArea(ctx, mine) {
  if (!mine) return null;
  const box = frame(mine);
  const svg = s("svg", { class: "mine-map", viewBox: `0 0 ${box.width} ${box.height}`, role: "img", "aria-label": "The mine map" });
  svg.append(s("rect", { x: 0, y: 0, width: box.width, height: box.height, rx: 14, class: "mine-ground" }));
  for (const tile of mine.tiles) svg.append(tileNode(tile, box.at));
  for (const grid of mine.grids) svg.append(gridNode(grid, box.at));
  for (const tile of mine.tiles.filter((t) => t.face_up)) svg.append(tileLabel(tile, box.at));
  const [tx, ty] = mine.token;
  const here = box.at(tx, ty);
  const moved = ctx.memory?.has("mine.token") && ctx.memory.get("mine.token") !== `${tx},${ty}`;
  ctx.memory?.set("mine.token", `${tx},${ty}`);
  svg.append(s("g", { class: `mine-token${moved ? " arrived" : ""}`, dataset: { x: String(tx), y: String(ty) }, transform: `translate(${here.x + CELL / 2},${here.y + CELL / 2})` },
    s("circle", { r: 19 }),
    s("text", { y: 4.5, "text-anchor": "middle" }, "E&L"),
    s("title", {}, "The Eila & Leo token")));
  const stop = ctx.sink.tagged("stop");
  const faceDown = mine.tiles.filter((tile) => !tile.face_up).length;
  return h("div", { class: "mine-area" },
    h("h4", {}, "The mine"),
    h("div", { class: "mine-board" }, svg, moveButtons(ctx, mine, box)),
    h("div", { class: "mine-controls" },
      h("span", { class: "muted small" }, `${mine.tiles.length - faceDown} of ${mine.tiles.length} tiles face up`),
      ctx.view.chapter_element_area?.location_deck_count
        ? h("span", { class: "muted small location-events" }, `${plural(ctx.view.chapter_element_area.location_deck_count, "location event card")} face down`)
        : null,
      ctx.view.pending && stop.length ? h("span", { class: "mine-pending" }, `Moving: ${ctx.view.pending}`) : null,
      ctx.sink.buttons(stop)),
    legend());
}
