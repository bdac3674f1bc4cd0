// The lobby: the games this server hosts with their options (drawn from each game's JSON Schema)
// and seat layouts, creating a campaign, joining by invite link, and the public campaigns.

import * as api from "./api.js";
import { clear, h, humanize } from "./dom.js";
import { held, remember } from "./seats.js";

// -- options from JSON Schema -------------------------------------------------------------------

// A schema property as {choices, nullable, type, default}: enums (also inside anyOf with null)
// become choices, the rest a typed input.
function describeProperty(schema) {
  const variants = schema.anyOf || [schema];
  const nullable = variants.some((v) => v.type === "null");
  const choices = variants.flatMap((v) => v.enum || []);
  const typed = variants.find((v) => v.type && v.type !== "null") || {};
  const type = typed.type || (choices.length ? "enum" : "string");
  return { choices, nullable, type, default: schema.default ?? null, min: typed.minimum, max: typed.maximum };
}

function optionField(name, schema) {
  const prop = describeProperty(schema);
  const id = `option-${name}`;
  let input;
  if (prop.choices.length) {
    input = h("select", { id, name, dataset: { option: name } },
      prop.nullable ? h("option", { value: "" }, "default") : null,
      prop.choices.map((choice, i) =>
        h("option", { value: String(i), selected: choice === prop.default }, String(choice))));
  } else if (prop.type === "integer" || prop.type === "number") {
    input = h("input", {
      id, name, type: "number", step: prop.type === "integer" ? 1 : "any", min: prop.min, max: prop.max,
      value: prop.default ?? "", dataset: { option: name },
    });
  } else if (prop.type === "boolean") {
    input = h("input", { id, name, type: "checkbox", checked: Boolean(prop.default), dataset: { option: name } });
  } else {
    input = h("input", { id, name, type: "text", value: prop.default ?? "", dataset: { option: name } });
  }
  return { node: h("label", { class: "field" }, h("span", {}, humanize(name)), input), read: () => readOption(input, prop) };
}

function readOption(input, prop) {
  if (prop.choices.length) return input.value === "" ? undefined : prop.choices[Number(input.value)];
  if (prop.type === "boolean") return input.checked;
  if (input.value === "") return undefined;
  return prop.type === "integer" || prop.type === "number" ? Number(input.value) : input.value;
}

// -- a game's card ------------------------------------------------------------------------------

function layoutName(layout) {
  return layout.length === 1 ? `Solo (${layout[0]})` : `Together (${layout.join(" and ")})`;
}

function gameCard(game, onCreate) {
  const { info, options } = game;
  const fields = Object.entries(options.properties || {}).map(([name, schema]) => [name, optionField(name, schema)]);
  const layouts = info.seat_layouts;
  const layoutSelect = h("select", { name: "layout", dataset: { layouts: "" } },
    layouts.map((layout, i) => h("option", { value: String(i) }, layoutName(layout))));
  const seed = h("input", { type: "number", name: "seed", placeholder: "random", min: 0, step: 1 });
  const secret = h("input", { type: "checkbox", name: "private" });
  const status = h("p", { class: "form-status", role: "status" });
  const form = h("form", {
    class: "game-card",
    dataset: { game: info.name },
    onsubmit: async (event) => {
      event.preventDefault();
      const chosen = {};
      for (const [name, field] of fields) {
        const value = field.read();
        if (value !== undefined && value !== null) chosen[name] = value;
      }
      const body = { game: info.name, options: chosen, seats: layouts[Number(layoutSelect.value)] };
      if (seed.value !== "") body.seed = Number(seed.value);
      if (secret.checked) body.private = true;
      status.textContent = "Creating…";
      try {
        await onCreate(body);
      } catch (error) {
        status.textContent = error.message;
        status.classList.add("error");
      }
    },
  },
  h("h3", {}, info.title),
  h("p", { class: "facts" },
    h("span", { class: "chip" }, layouts.map(layoutName).join(" · ")),
    info.hidden_information ? h("span", { class: "chip chip-muted" }, "hidden information") : null,
    info.chance ? h("span", { class: "chip chip-muted" }, "dice and cards") : null,
    info.chapters ? h("span", { class: "chip chip-muted" }, "in chapters") : null),
  h("div", { class: "fields" },
    layouts.length > 1 ? h("label", { class: "field" }, h("span", {}, "Seats"), layoutSelect) : null,
    fields.map(([, field]) => field.node),
    h("label", { class: "field" }, h("span", {}, "Seed (optional)"), seed),
    h("label", { class: "field check" }, secret, h("span", {}, "Private (no spectators, not listed)"))),
  h("button", { type: "submit", class: "primary" }, `New ${info.title} campaign`),
  status);
  return form;
}

// -- the campaigns ------------------------------------------------------------------------------

function ago(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

function progress(entry) {
  const parts = [];
  if (entry.chapter !== null && entry.chapter !== undefined) parts.push(`Chapter ${entry.chapter}`);
  if (entry.day !== null && entry.day !== undefined) parts.push(`day ${entry.day}`);
  parts.push(`version ${entry.version}`);
  return parts.join(", ");
}

function campaignRow(entry, titles) {
  const mine = held(entry.id);
  const seats = Object.keys(mine?.tokens || {});
  const play = seats.map((seat) =>
    h("a", { class: "button", href: `#/c/${entry.id}`, dataset: { seat }, onclick: () => remember(entry.id, entry.game, {}, seat) }, `Play as ${seat}`));
  const lineage = entry.parent ? h("div", { class: "muted small" }, `fork of ${entry.parent.slice(0, 8)} at version ${entry.fork_version}`) : null;
  return h("tr", { dataset: { campaign: entry.id } },
    h("td", {}, h("strong", {}, titles[entry.game] || entry.game), h("div", { class: "muted small mono" }, entry.id.slice(0, 8)), lineage),
    h("td", {}, progress(entry)),
    h("td", {}, h("span", { class: `status status-${entry.status}` }, entry.status)),
    h("td", { class: "muted" }, ago(entry.updated_ms)),
    h("td", { class: "row-actions" }, h("div", {}, play, h("a", { class: "button ghost", href: `#/c/${entry.id}/watch` }, "Watch"))));
}

async function fillCampaigns(table, titles, more) {
  const body = table.querySelector("tbody");
  let page;
  try {
    page = await api.campaigns(0, 50);
  } catch (error) {
    clear(body, h("tr", {}, h("td", { colspan: 5, class: "error" }, error.message)));
    return;
  }
  clear(body, page.campaigns.length ? page.campaigns.map((entry) => campaignRow(entry, titles)) : h("tr", {}, h("td", { colspan: 5, class: "muted" }, "No campaigns yet: start one above.")));
  more.hidden = page.next_offset === null;
}

// -- the page -----------------------------------------------------------------------------------

// An invite link (or its fragment) as {campaign, seat, token}, or null.
export function parseInvite(text) {
  const hash = text.includes("#") ? text.slice(text.indexOf("#") + 1) : text;
  const parts = hash.replace(/^\//, "").split("/").map(decodeURIComponent);
  if (parts[0] !== "join" || parts.length !== 4) return null;
  return { campaign: parts[1], seat: parts[2], token: parts[3] };
}

export async function mountLobby(root, { navigate }) {
  const titles = {};
  const gamesBox = h("div", { class: "games" }, h("p", { class: "muted" }, "Loading the games…"));
  const table = h("table", { class: "campaigns" },
    h("thead", {}, h("tr", {}, ["Campaign", "Progress", "State", "Updated", ""].map((t) => h("th", {}, t)))),
    h("tbody", {}));
  const more = h("p", { class: "muted small", hidden: true }, "Showing the 50 newest.");
  const invite = h("input", { type: "text", name: "invite", placeholder: "Paste an invite link" });
  const inviteStatus = h("p", { class: "form-status" });
  clear(root,
    h("section", { class: "hero" },
      h("h1", {}, "Tabletop campaigns you can replay, rewind and fork"),
      h("p", {}, "Start a campaign, invite a partner with a link, or watch one being played. Every move is kept: scrub back through time, fork from any point and try again.")),
    h("section", {}, h("h2", {}, "Start a campaign"), gamesBox),
    h("section", { class: "join" },
      h("h2", {}, "Join with an invite link"),
      h("form", {
        class: "inline-form",
        onsubmit: (event) => {
          event.preventDefault();
          const found = parseInvite(invite.value.trim());
          if (!found) {
            inviteStatus.textContent = "That is not an invite link: it looks like …/#/join/<campaign>/<seat>/<token>.";
            return;
          }
          navigate(`#/join/${[found.campaign, found.seat, found.token].map(encodeURIComponent).join("/")}`);
        },
      }, invite, h("button", { type: "submit" }, "Join")),
      inviteStatus),
    h("section", {},
      h("div", { class: "section-head" }, h("h2", {}, "Campaigns"),
        h("button", { type: "button", class: "ghost", onclick: () => fillCampaigns(table, titles, more) }, "Refresh")),
      table, more));

  let listing;
  try {
    listing = await api.games();
  } catch (error) {
    clear(gamesBox, h("p", { class: "error" }, error.message));
    return () => {};
  }
  for (const game of listing.games) titles[game.info.name] = game.info.title;
  const create = async (body) => {
    const created = await api.create(body);
    remember(created.id, created.game, created.seats, body.seats[0]);
    navigate(`#/c/${created.id}`);
  };
  clear(gamesBox, listing.games.map((game) => gameCard(game, create)));
  await fillCampaigns(table, titles, more);
  return () => {};
}
