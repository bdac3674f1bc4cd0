// The board of a game this client has no drawing for: its view, readable. Simple values become
// tiles, lists that hold one value per seat become a table by seat, the rest readable panels.

import { h, humanize } from "../dom.js";
import { panel, readable } from "./common.js";

const isSimple = (value) => value === null || typeof value !== "object";

function tile(key, value) {
  const shown = value === null || value === "" ? "—" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
  return h("div", { class: "tile" }, h("span", { class: "tile-label" }, humanize(key)), h("span", { class: "tile-value" }, shown));
}

export function render(ctx) {
  const view = ctx.view && typeof ctx.view === "object" ? ctx.view : { view: ctx.view };
  const seats = Array.isArray(view.seats) ? view.seats : ctx.seats || [];
  const tiles = [];
  const bySeat = [];
  const panels = [];
  for (const [key, value] of Object.entries(view)) {
    if (key === "seats" || key === "seat") continue;
    if (isSimple(value)) tiles.push(tile(key, value));
    else if (Array.isArray(value) && seats.length && value.length === seats.length) bySeat.push([key, value]);
    else panels.push(panel(humanize(key), "generic-part", readable(value)));
  }
  let table = null;
  if (bySeat.length) {
    table = h("table", { class: "records by-seat" },
      h("thead", {}, h("tr", {}, h("th", {}, "Seat"), bySeat.map(([key]) => h("th", {}, humanize(key))))),
      h("tbody", {}, seats.map((seat, index) =>
        h("tr", { class: seat === ctx.seat ? "mine" : "" },
          h("th", {}, seat),
          bySeat.map(([, values]) => h("td", {}, readable(values[index])))))));
  }
  const actions = ctx.sink.take(() => true);
  return h("div", { class: "board board-generic" },
    h("p", { class: "generic-note muted small" }, `${ctx.info?.title || "This game"} has no board of its own in this client yet: here is its view as the server sends it.`),
    actions.length ? panel("Your move", "generic-actions", ctx.sink.buttons(actions, { group: 12 })) : null,
    tiles.length ? h("div", { class: "tiles" }, tiles) : null,
    table ? panel("Seats", "generic-seats", table) : null,
    panels);
}
