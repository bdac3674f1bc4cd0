// Machina Arcana: To Eternity: the grid of map and chapter tiles (obstacles, spawn points, entry
// and exit tokens, action spaces) with the explorers and monsters on their spaces, the current
// chapter card, the spawn and horror rating sliders, the clock, the monster threat, the effects in
// force, each explorer's health, stamina and items, and the decks as counts.
//
// Everything comes from the view: `map` draws the spaces (one string per row from `map_x`,
// `map_y`), `tiles` outline the tiles, and the units stand on their `x`, `y`. Moves, attacks and
// interactions are buttons on the spaces they act on, exploring and connecting the chapter tile
// buttons on the tile sides the new tile goes beyond; the rest sit by the explorer or the map.

import { h, humanize, plural, s } from "../dom.js";
import { chip, panel } from "./common.js";

const CELL = 44;
const PAD = 24; // room around the spaces for the coordinates along the top and the left side
const SIDE_BUTTON = 0.7; // an explore or connect button's size, in spaces, across a tile's side
const ZOOM = 1.6; // at most this many pixels per unit of the drawing, so one tile is not a poster
const LEAST_ZOOM = 0.92; // on a phone, at least this many: a space is then 40 px, its marks 11 px
const MAX_GRID_HEIGHT = 640; // px: a tall area is drawn narrower rather than taller
const SLIDER_TOP = 8; // the highest rating a slider shows unless a chapter prints a higher one
const STEPS = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const ARROWS = { n: "↑", e: "→", s: "↓", w: "←" };
const SPACES = {
  ".": "floor", "#": "obstacle", S: "spawn", E: "entry", X: "exit", "*": "action",
};
const PHASES = {
  setup: "Setting up",
  explorers: "Explorer phase",
  placing: "Placing the chapter tile",
  over: "The expedition is over",
};
const EFFECTS = {
  haste: (amount) => `Haste: monsters move ${amount} more`,
  hit_cost: (amount) => `Each hit costs ${amount} health`,
  seal: () => "Sealed: no exploring",
};
const STATUS = { map: "", exited: "has exited", out: "is out" };

function effectText(effect) {
  return (EFFECTS[effect.kind] || ((amount) => `${humanize(effect.kind)} ${amount}`))(effect.amount);
}

function lettered(monsters) {
  const out = new Map();
  (monsters || []).forEach((monster, i) => out.set(monster.uid, String.fromCharCode(97 + (i % 26))));
  return out;
}

// -- the grid ----------------------------------------------------------------------------------

function geometry(view) {
  const rows = view.map || [];
  const columns = Math.max(0, ...rows.map((row) => row.length));
  return {
    rows,
    columns,
    width: columns * CELL + 2 * PAD,
    height: rows.length * CELL + 2 * PAD,
    // the top-left corner of the space at board coordinates (x, y)
    at: (x, y) => [PAD + (x - view.map_x) * CELL, PAD + (y - view.map_y) * CELL],
  };
}

function spaceShape(symbol, px, py, actionSpace) {
  const kind = actionSpace ? "action" : SPACES[symbol] || "floor";
  const g = s("g", { class: `m-space m-space-${kind}${actionSpace?.exit ? " treated-exit" : ""}` });
  g.append(s("rect", { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 5, class: "space-floor" }));
  const cx = px + CELL / 2;
  const cy = py + CELL / 2;
  if (kind === "obstacle") {
    g.append(s("rect", { x: px + 5, y: py + 5, width: CELL - 10, height: CELL - 10, rx: 4, class: "obstacle" }));
  } else if (kind === "spawn") {
    g.append(s("circle", { cx, cy, r: 12, class: "spawn-ring" }));
    g.append(s("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "space-mark" }, "S"));
    g.append(s("title", {}, "Spawn point"));
  } else if (kind === "entry") {
    g.append(s("path", { d: `M${cx - 10},${cy + 12} V${cy - 6} A10,10 0 0 1 ${cx + 10},${cy - 6} V${cy + 12} Z`, class: "entry-door" }));
    g.append(s("title", {}, "Entry token"));
  } else if (kind === "exit") {
    g.append(s("circle", { cx, cy, r: 13, class: "exit-token" }));
    g.append(s("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "space-mark exit-mark" }, "⇱"));
    g.append(s("title", {}, "Exit token"));
  } else if (kind === "action") {
    const gear = actionSpace?.kind === "search" ? "⌕" : "⚙";
    g.append(s("rect", { x: px + 4, y: py + 4, width: CELL - 8, height: CELL - 8, rx: 8, class: `action-space${actionSpace?.spent ? " spent" : ""}` }));
    g.append(s("text", { x: cx, y: cy + 6, "text-anchor": "middle", class: "space-mark action-mark" }, gear));
    if (actionSpace?.exit) g.append(s("circle", { cx, cy, r: 18, class: "exit-ring" }));
    const what = actionSpace ? `${actionSpace.name} (${actionSpace.kind}${actionSpace.spent ? ", searched" : ""}${actionSpace.exit ? ", treated as an exit token" : ""})` : "Action space";
    g.append(s("title", {}, what));
  }
  return g;
}

function tileOutline(tile, geo) {
  const [px, py] = geo.at(tile.x, tile.y);
  const w = tile.width * CELL;
  const hgt = tile.height * CELL;
  const g = s("g", { class: `m-tile m-tile-${tile.kind}`, dataset: { tile: tile.tile } });
  g.append(s("title", {}, tile.kind === "chapter" ? `${tile.name} (chapter tile)` : tile.name));
  g.append(s("rect", { x: px, y: py, width: w, height: hgt, rx: 8, class: "tile-ground" }));
  const sides = { n: [px, py, px + w, py], s: [px, py + hgt, px + w, py + hgt], w: [px, py, px, py + hgt], e: [px + w, py, px + w, py + hgt] };
  for (const side of tile.unexplored || []) {
    const [x1, y1, x2, y2] = sides[side];
    g.append(s("line", { x1, y1, x2, y2, class: "unexplored" }, s("title", {}, `Unexplored side of ${tile.name}`)));
  }
  return g;
}

// A tile's name is not drawn on the tile, where it would lie under the units and the buttons on
// its spaces: the tile is named by its tooltip, and the map's key lists the tiles in play.
function tileList(view) {
  const tiles = view.tiles || [];
  if (!tiles.length) return null;
  return h("ul", { class: "tile-list" }, tiles.map((tile) =>
    h("li", { class: `tile-name tile-name-${tile.kind}`, dataset: { tile: tile.tile } },
      tile.name, tile.kind === "chapter" ? h("span", { class: "tile-kind" }, " (chapter tile)") : null)));
}

function explorerToken(who, number, px, py, mine) {
  const cx = px + CELL / 2;
  const cy = py + CELL / 2;
  const g = s("g", { class: `unit explorer-token seat-${number}${mine ? " mine" : ""}${who.ended ? " ended" : ""}`, dataset: { explorer: who.id } });
  g.append(s("circle", { cx, cy, r: 16, class: "token-body" }));
  g.append(s("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "token-text" }, who.name.charAt(0)));
  const share = Math.max(0, Math.min(1, who.health / Math.max(1, who.max_health)));
  g.append(s("rect", { x: px + 6, y: py + CELL - 7, width: CELL - 12, height: 4, rx: 2, class: "bar-back" }));
  g.append(s("rect", { x: px + 6, y: py + CELL - 7, width: (CELL - 12) * share, height: 4, rx: 2, class: "bar-health" }));
  g.append(s("title", {}, `${who.name}: health ${who.health}/${who.max_health}, stamina ${who.stamina}/${who.max_stamina}`));
  return g;
}

function monsterToken(monster, letter, px, py) {
  const cx = px + CELL / 2;
  const cy = py + CELL / 2;
  const g = s("g", { class: "unit monster-token", dataset: { monster: String(monster.uid) } });
  g.append(s("path", { d: `M${cx},${cy - 17} L${cx + 16},${cy - 4} L${cx + 10},${cy + 15} L${cx - 10},${cy + 15} L${cx - 16},${cy - 4} Z`, class: "token-body" }));
  g.append(s("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: "token-text" }, letter));
  g.append(s("text", { x: px + CELL - 3, y: py + 11, "text-anchor": "end", class: "monster-health" }, `${monster.health}`));
  g.append(s("title", {}, `${letter}: ${monster.name}, health ${monster.health}/${monster.max_health}`));
  return g;
}

// The coordinates the hints and the log name spaces by ("move north to 1,0"): x above each
// column, y beside each row.
function coordinates(view, geo) {
  const g = s("g", { class: "coords", "aria-hidden": "true" });
  for (let c = 0; c < geo.columns; c += 1) {
    const [px] = geo.at(view.map_x + c, view.map_y);
    g.append(s("text", { x: px + CELL / 2, y: PAD - 7, "text-anchor": "middle", class: "coord" }, String(view.map_x + c)));
  }
  geo.rows.forEach((_, r) => {
    const [, py] = geo.at(view.map_x, view.map_y + r);
    g.append(s("text", { x: PAD - 5, y: py + CELL / 2 + 5, "text-anchor": "end", class: "coord" }, String(view.map_y + r)));
  });
  return g;
}

// A button laid over the space (x, y) of the map, positioned in percent of the drawing.
function overlay(ctx, geo, action, x, y, glyph, className) {
  const [px, py] = geo.at(x, y);
  const button = ctx.sink.button(action, h("span", { class: "glyph", "aria-hidden": "true" }, glyph));
  button.classList.add("on-space", className);
  button.style.left = `${(100 * px) / geo.width}%`;
  button.style.top = `${(100 * py) / geo.height}%`;
  button.style.width = `${(100 * CELL) / geo.width}%`;
  button.style.height = `${(100 * CELL) / geo.height}%`;
  return button;
}

// A button laid across the middle of `side` of `tile`: exploring through that side, or connecting
// the chapter tile to it, puts the new tile beyond it.
function onSide(ctx, geo, action, tile, side, className) {
  const [px, py] = geo.at(tile.x, tile.y);
  const width = tile.width * CELL;
  const height = tile.height * CELL;
  const middles = { n: [px + width / 2, py], s: [px + width / 2, py + height], w: [px, py + height / 2], e: [px + width, py + height / 2] };
  const [cx, cy] = middles[side];
  const size = SIDE_BUTTON * CELL;
  const button = ctx.sink.button(action, h("span", { class: "glyph", "aria-hidden": "true" }, `+${ARROWS[side]}`));
  button.classList.add("on-side", className);
  button.dataset.tile = tile.tile;
  button.dataset.side = side;
  button.style.left = `${(100 * cx) / geo.width}%`;
  button.style.top = `${(100 * cy) / geo.height}%`;
  button.style.width = `${(100 * size) / geo.width}%`;
  button.style.height = `${(100 * size) / geo.height}%`;
  return button;
}

function tileAt(view, x, y) {
  return (view.tiles || []).find((tile) =>
    x >= tile.x && x < tile.x + tile.width && y >= tile.y && y < tile.y + tile.height);
}

function sideButtons(ctx, geo, me) {
  const { view, sink } = ctx;
  const buttons = [];
  const here = me ? tileAt(view, me.x, me.y) : null;
  if (here) {
    for (const action of sink.tagged("explore")) {
      buttons.push(onSide(ctx, geo, action, here, action.id.split(":")[1], "explore-here"));
    }
  }
  const byOrder = new Map((view.tiles || []).map((tile) => [String(tile.order), tile]));
  for (const action of sink.take((a) => a.id.startsWith("place-tile:") && byOrder.has(a.id.split(":")[1]))) {
    const [, anchor, side] = action.id.split(":");
    buttons.push(onSide(ctx, geo, action, byOrder.get(anchor), side, "place-here"));
  }
  return buttons;
}

function spaceButtons(ctx, geo) {
  const { view, sink } = ctx;
  const me = (view.explorers || []).find((who) => who.id === ctx.seat && who.status === "map");
  const buttons = sideButtons(ctx, geo, me);
  if (me) {
    for (const action of sink.tagged("move")) {
      const [dx, dy] = STEPS[action.id.split(":")[1]] || [0, 0];
      buttons.push(overlay(ctx, geo, action, me.x + dx, me.y + dy, ARROWS[action.id.split(":")[1]] || "•", "move-here"));
    }
  }
  const monsters = new Map((view.monsters || []).map((monster) => [String(monster.uid), monster]));
  for (const action of sink.take((a) => a.id.startsWith("attack:") && monsters.has(a.id.split(":")[2]))) {
    const monster = monsters.get(action.id.split(":")[2]);
    buttons.push(overlay(ctx, geo, action, monster.x, monster.y, "⚔", "attack-here"));
  }
  for (const action of sink.tagged("interact")) {
    const [, x, y] = action.id.split(":").map(Number);
    buttons.push(overlay(ctx, geo, action, x, y, "✋", "interact-here"));
  }
  return buttons;
}

// A grid wider than its frame opens on the seat's explorer, and stays where the player scrolled
// it until that explorer moves.
function followExplorer(ctx, frame) {
  const me = (ctx.view.explorers || []).find((who) => who.id === ctx.seat);
  const at = me ? `${me.x},${me.y}` : "";
  const moved = ctx.memory?.get("grid.at") !== at;
  ctx.memory?.set("grid.at", at);
  // the board is in the page once this render returns
  queueMicrotask(() => {
    if (!frame.isConnected || frame.scrollWidth <= frame.clientWidth) return;
    if (!moved && ctx.memory?.has("grid.scroll")) {
      frame.scrollLeft = ctx.memory.get("grid.scroll");
      return;
    }
    const token = frame.querySelector(".explorer-token.mine")?.getBoundingClientRect();
    const box = frame.getBoundingClientRect();
    if (token) frame.scrollLeft += token.left + token.width / 2 - box.left - box.width / 2;
  });
}

function grid(ctx) {
  const { view } = ctx;
  const geo = geometry(view);
  const svg = s("svg", {
    class: "machina-grid",
    viewBox: `0 0 ${geo.width} ${geo.height}`,
    role: "img",
    "aria-label": `The play area: ${plural((view.tiles || []).length, "tile")} in play; spaces x ${view.map_x} to ${view.map_x + geo.columns - 1} from west to east, y ${view.map_y} to ${view.map_y + geo.rows.length - 1} from north to south`,
  });
  svg.append(s("rect", { x: 0, y: 0, width: geo.width, height: geo.height, rx: 14, class: "grid-ground" }));
  for (const tile of view.tiles || []) svg.append(tileOutline(tile, geo));
  svg.append(coordinates(view, geo));
  const actionSpaces = new Map((view.action_spaces || []).map((space) => [`${space.x},${space.y}`, space]));
  const units = new Set([
    ...(view.explorers || []).filter((who) => who.status === "map").map((who) => `${who.x},${who.y}`),
    ...(view.monsters || []).map((monster) => `${monster.x},${monster.y}`),
  ]);
  geo.rows.forEach((row, r) => {
    [...row].forEach((symbol, c) => {
      if (symbol === " ") return;
      const x = view.map_x + c;
      const y = view.map_y + r;
      // under a unit the view draws the unit; the space itself is one a unit can stand on
      const shown = units.has(`${x},${y}`) && !SPACES[symbol] ? "." : symbol;
      const [px, py] = geo.at(x, y);
      svg.append(spaceShape(shown, px, py, actionSpaces.get(`${x},${y}`)));
    });
  });
  const letters = lettered(view.monsters);
  for (const monster of view.monsters || []) {
    const [px, py] = geo.at(monster.x, monster.y);
    svg.append(monsterToken(monster, letters.get(monster.uid), px, py));
  }
  (view.explorers || []).forEach((who, i) => {
    if (who.status !== "map") return;
    const [px, py] = geo.at(who.x, who.y);
    svg.append(explorerToken(who, i + 1, px, py, who.id === ctx.seat));
  });
  const buttons = spaceButtons(ctx, geo);
  const legend = h("p", { class: "grid-legend muted small" },
    h("span", { class: "key key-spawn" }, "S spawn point"), h("span", { class: "key key-entry" }, "entry token"),
    h("span", { class: "key key-exit" }, "exit token"), h("span", { class: "key key-action" }, "⚙ mechanism · ⌕ search"),
    h("span", { class: "key key-unexplored" }, "unexplored side"),
    h("span", { class: "key key-coords" }, "a space is named x,y: x along the top, y down the side"),
    h("span", { class: "key key-side" }, "+ explore or connect a tile here"));
  // on a narrow screen the grid keeps its spaces 40 px wide and scrolls sideways in its frame
  const least = Math.round(geo.width * LEAST_ZOOM);
  // the frame keeps the grid's proportions, so the buttons laid over it in percentages land on
  // the spaces and sides they name: its height is capped through its width
  const widest = Math.round(Math.min(geo.width * ZOOM, (MAX_GRID_HEIGHT * geo.width) / geo.height));
  const frame = h("div", {
    class: "grid-scroll", tabindex: 0, role: "region", "aria-label": "The play area (it scrolls sideways on a narrow screen)",
    dataset: { scrolls: "" }, onscroll: () => ctx.memory?.set("grid.scroll", frame.scrollLeft),
  }, h("div", { class: "grid-frame", style: `aspect-ratio: ${geo.width} / ${geo.height}; max-width: ${widest}px; --least-width: ${least}px` }, svg, buttons));
  followExplorer(ctx, frame);
  return h("div", { class: "machina-map" }, frame, tileList(view), legend);
}

// -- the chapter, the sliders, the clock ---------------------------------------------------------

function chapterCard(ctx) {
  const { view } = ctx;
  const card = view.chapter;
  const kind = view.endgame ? "endgame" : view.chapter_kind || "";
  if (!card) return h("article", { class: "chapter-card empty" }, h("p", { class: "muted" }, "No chapter in play yet."));
  return h("article", { class: `chapter-card kind-${view.chapter_kind}`, dataset: { chapter: card.id } },
    h("div", { class: "chapter-kind" }, kind === "endgame" ? "Endgame · Eternity" : `${humanize(kind)} chapter`),
    h("h3", {}, card.title),
    h("p", { class: "chapter-text" }, card.text),
    h("p", { class: "objective" }, h("strong", {}, "Objective: "), view.objective),
    card.charges ? h("p", { class: "card-charges" }, plural(card.charges, "charge"), " on the card") : null,
    (view.endgame_cards || []).length
      ? h("ul", { class: "endgame-cards plain" }, view.endgame_cards.map((extra) =>
        h("li", {}, h("strong", {}, extra.title), extra.charges ? ` (${plural(extra.charges, "charge")})` : "", `: ${extra.text}`)))
      : null,
    h("p", { class: "muted small" }, `${plural(view.chapters_left, "chapter")} left in the deck`,
      (view.board_top || []).length ? ` · ${plural(view.board_top.length, "card")} on the chapter board` : ""));
}

function slider(name, rating, regular) {
  const top = Math.max(SLIDER_TOP, rating);
  const marks = Array.from({ length: top }, (_, i) => {
    const value = i + 1;
    return h("span", { class: `notch${value === rating ? " current" : ""}${value < rating ? " below" : ""}` }, String(value));
  });
  const note = regular ? `a die roll of ${rating}+` : rating === 1 ? "at its lowest" : "falls by 1 each round";
  return h("div", { class: `rating-slider slider-${name.toLowerCase()}`, role: "meter", "aria-label": `${name} rating`, "aria-valuenow": rating, "aria-valuemin": 1, "aria-valuemax": top, dataset: { rating: String(rating) } },
    h("div", { class: "slider-head" }, h("strong", {}, `${name} rating`), h("span", { class: "slider-value" }, String(rating)), h("span", { class: "muted small" }, note)),
    h("div", { class: "slider-track" }, marks));
}

function sliders(ctx) {
  const { view } = ctx;
  const regular = view.chapter_kind === "regular";
  const effects = [
    ...(view.spawn_effects || []).map((effect) => chip(effectText(effect), "chip-spawn")),
    ...(view.horror_effects || []).map((effect) => chip(effectText(effect), "chip-horror")),
  ];
  const threat = Array.from({ length: view.threat_track + 1 }, (_, i) =>
    h("span", { class: `threat-step${i <= view.threat && i > 0 ? " on" : ""}${i === view.threat ? " current" : ""}` }, String(i)));
  const left = Math.max(0, view.clock_limit - view.clock);
  return panel(regular ? "Ratings (rolled against)" : "Rating sliders", "machina-sliders",
    slider("Spawn", view.spawn_rating, regular),
    slider("Horror", view.horror_rating, regular),
    h("div", { class: "effects" }, h("h4", {}, "In force"),
      effects.length ? effects : h("span", { class: "muted small" }, "No spawn or horror effect."),
      view.hit_cost > 1 ? chip(`A hit costs ${view.hit_cost} health`, "chip-horror") : null,
      view.exploring_prevented && !(view.horror_effects || []).some((e) => e.kind === "seal") ? chip("No exploring in this chapter", "chip-muted") : null),
    h("div", { class: "threat" }, h("h4", {}, "Monster threat"), h("div", { class: "threat-track" }, threat),
      h("span", { class: "muted small" }, `monster tier ${view.tier}`)),
    h("div", { class: "clock" }, h("h4", {}, "Clock"),
      h("div", { class: "clock-bar", title: `${view.clock} of ${view.clock_limit}` },
        h("span", { style: `width:${(100 * view.clock) / Math.max(1, view.clock_limit)}%` })),
      h("span", { class: "clock-text" }, `${view.clock} of ${view.clock_limit} · ${plural(left, "round")} left`)));
}

// -- explorers, monsters, decks ------------------------------------------------------------------

function pips(count, full, className) {
  return h("span", { class: `pips ${className}` },
    Array.from({ length: Math.max(full, count) }, (_, i) => h("span", { class: `pip${i < count ? " on" : ""}` })));
}

function explorerCard(ctx, who, number) {
  const { view, sink } = ctx;
  const mine = who.id === ctx.seat;
  const items = (view.items || []).filter((item) => item.holder === who.id);
  const actions = mine ? sink.tagged("equip", "give", "use") : [];
  const status = STATUS[who.status] ?? who.status;
  return h("article", { class: `explorer-card seat-${number}${mine ? " mine" : ""} status-${who.status}`, dataset: { explorer: who.id } },
    h("header", {}, h("span", { class: "seat-number", title: `Seat ${number}` }, who.name.charAt(0)), h("h3", {}, who.name),
      mine ? chip("you") : null, status ? chip(status, "chip-muted") : who.ended ? chip("turn ended", "chip-muted") : null),
    h("div", { class: "stat" }, h("span", { class: "stat-label" }, "Health"), pips(who.health, who.max_health, "pips-health"), h("strong", { class: "health-value" }, `${who.health}/${who.max_health}`)),
    h("div", { class: "stat" }, h("span", { class: "stat-label" }, "Stamina"), pips(who.stamina, who.max_stamina, "pips-stamina"), h("strong", { class: "stamina-value" }, `${who.stamina}/${who.max_stamina}`)),
    h("div", { class: "stat muted small" }, `Defense ${who.defense}`, who.status === "map" ? ` · at ${who.x},${who.y}` : ""),
    items.length
      ? h("ul", { class: "items plain" }, items.map((item) =>
        h("li", { class: `item${item.equipped ? " equipped" : ""}`, dataset: { item: item.card }, title: item.text },
          h("span", { class: "hand" }, item.equipped ? "in hand" : "pack"), h("strong", {}, item.name),
          item.max_charges ? h("span", { class: "charges" }, `${item.charges}/${item.max_charges}`) : null)))
      : h("p", { class: "muted small" }, "No items."),
    sink.buttons(actions, { group: 4 }));
}

function monstersPanel(ctx) {
  const { view } = ctx;
  const letters = lettered(view.monsters);
  const rows = (view.monsters || []).map((monster) =>
    h("li", { class: "monster", dataset: { monster: String(monster.uid) } },
      h("span", { class: "monster-letter" }, letters.get(monster.uid)),
      h("strong", {}, monster.name),
      h("span", { class: "monster-health" }, `health ${monster.health}/${monster.max_health}`),
      h("span", { class: "muted small" }, `defense ${monster.defense} · move ${monster.move} · attack ${monster.attack} · at ${monster.x},${monster.y}`)));
  return panel("Monsters", "machina-monsters",
    rows.length ? h("ul", { class: "plain" }, rows) : h("p", { class: "muted" }, "No monster in play."));
}

function deck(label, count, discard = null) {
  return h("div", { class: "machina-deck" },
    h("span", { class: "deck-count" }, String(count)),
    h("span", { class: "deck-name" }, label),
    discard === null ? null : h("span", { class: "muted small" }, `${discard} discarded`));
}

function decksPanel(ctx) {
  const { view } = ctx;
  return panel("Decks (face down)", "machina-decks",
    h("div", { class: "m-deck-row" },
      deck("Chapters", view.chapters_left),
      deck("Map tiles", view.map_deck_count),
      deck("Monsters", view.monster_deck_count, (view.monster_discard || []).length),
      deck("Horrors", view.horror_deck_count, (view.horror_discard || []).length),
      deck("Items", view.item_deck_count, (view.item_discard || []).length)),
    h("p", { class: "muted small" }, `The play area holds ${view.area_halves} of ${view.area_limit} half map tiles.`));
}

function turnPanel(ctx, map) {
  const { sink, view } = ctx;
  const placing = sink.tagged("place-tile");
  const turn = sink.tagged("explore", "exit", "end-turn");
  const connecting = Boolean(map.querySelector("button.place-here"));
  if (!placing.length && !turn.length && !connecting) return null;
  return h("div", { class: "machina-turn" },
    placing.length || connecting ? h("div", { class: "placing" },
      h("h4", {}, `Connect ${humanize(view.pending_tile || "the chapter tile")}`),
      connecting ? h("p", { class: "muted small" }, "Choose a + on the side of a tile on the map.") : null,
      sink.buttons(placing, { group: 8 })) : null,
    turn.length ? sink.buttons(turn, { className: "turn-buttons" }) : null);
}

export function render(ctx) {
  const { view } = ctx;
  const over = view.result && view.result !== "running";
  const header = h("header", { class: "chapter-head" },
    h("h2", {}, view.chapter ? view.chapter.title : "Machina Arcana: To Eternity"),
    chip(`Round ${view.round}`), chip(PHASES[view.phase] || humanize(view.phase)),
    chip(`Clock ${view.clock}/${view.clock_limit}`, "chip-muted"),
    over ? chip(`${humanize(view.result)}: ${humanize(view.reason)}`, view.result === "won" ? "chip-ok" : "chip-bad") : null);
  const map = grid(ctx);
  return h("div", { class: `board board-machina phase-${view.phase} kind-${view.chapter_kind}` },
    header,
    h("div", { class: "machina-top" },
      h("div", { class: "machina-play" }, map, turnPanel(ctx, map)),
      h("div", { class: "machina-side" }, chapterCard(ctx), sliders(ctx))),
    h("div", { class: "machina-explorers" }, (view.explorers || []).map((who, i) => explorerCard(ctx, who, i + 1))),
    h("div", { class: "machina-bottom" }, monstersPanel(ctx), decksPanel(ctx)));
}
