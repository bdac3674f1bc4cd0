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

// What each game is about, in a sentence of our own (the lobby's cards).
const ABOUT = {
  "gil-ennis": "Two friends hike to Mount Humbaba over a week of camps: pack and spend dice, dream for insight or give in to worry, and keep enough food to reach the peak with dice that match its challenge.",
  eila: "A small rabbit's adventure in chapters of seven days: choose an option on each card that comes up, gather food, coins and knowledge, keep fear at bay and reach the chapter's goal in time.",
  machina: "Explorers cross the tiles of a clockwork ruin round by round: move, search and fight the monsters that spawn, while the spawn and horror ratings slide and the threat grows.",
};

// Options that must agree, per game: choosing one leaves the other only the values that agree
// with it (the server refuses a campaign whose options disagree). [a, b, pairs of agreeing values]
const AGREE = {
  "gil-ennis": [["difficulty", "worry", [["easy", 1], ["normal", 3]]]],
};

// Makes the fields of `fields` (name -> field) keep to the game's rules of agreement.
function keepAgreement(game, fields) {
  for (const [a, b, pairs] of AGREE[game] || []) {
    const one = fields.get(a);
    const other = fields.get(b);
    if (!one || !other) continue;
    const sync = (from, to, index) => {
      const chosen = from.read();
      const allowed = chosen === undefined ? null : new Set(pairs.filter((pair) => pair[index] === chosen).map((pair) => pair[1 - index]));
      to.allowOnly(allowed);
    };
    one.input.addEventListener("change", () => sync(one, other, 0));
    other.input.addEventListener("change", () => sync(other, one, 1));
  }
}

// A chapter option names its chapters by their titles, when the game gives them. The field's
// label is the schema's title and its note the schema's description (GET /api/games).
function optionField(name, schema, info) {
  const chapters = name === "chapter" ? info?.chapter_names || {} : {};
  const prop = describeProperty(schema);
  const id = `option-${info.name}-${name}`;
  const noteId = `${id}-note`;
  const described = schema.description ? { "aria-describedby": noteId } : {};
  let input;
  if (prop.choices.length) {
    input = h("select", { id, name, dataset: { option: name }, ...described },
      prop.nullable ? h("option", { value: "" }, "default") : null,
      prop.choices.map((choice, i) =>
        h("option", { value: String(i), selected: choice === prop.default }, chapters[String(choice)] || optionValue(choice))));
  } else if (prop.type === "integer" || prop.type === "number") {
    input = h("input", {
      id, name, type: "number", step: prop.type === "integer" ? 1 : "any", min: prop.min, max: prop.max,
      value: prop.default ?? "", dataset: { option: name }, ...described,
    });
  } else if (prop.type === "boolean") {
    input = h("input", { id, name, type: "checkbox", checked: Boolean(prop.default), dataset: { option: name }, ...described });
  } else {
    input = h("input", { id, name, type: "text", value: prop.default ?? "", dataset: { option: name }, ...described });
  }
  const label = schema.title || humanize(name);
  const note = schema.description ? h("span", { class: "field-note", id: noteId }, schema.description) : null;
  const node = h("div", { class: "field" }, h("label", { for: id }, label), input, note);
  // Leaves only the values in `allowed` choosable (null: all); a value no longer allowed is left
  // for the first allowed one, and the player is told why.
  const allowOnly = (allowed) => {
    if (!prop.choices.length) return;
    for (const option of input.options) {
      if (option.value === "") continue;
      option.disabled = allowed !== null && !allowed.has(prop.choices[Number(option.value)]);
    }
    if (input.selectedOptions[0]?.disabled) {
      input.value = [...input.options].find((option) => !option.disabled && option.value !== "")?.value ?? "";
    }
  };
  return { node, input, read: () => readOption(input, prop), allowOnly };
}

// "to-eternity" -> "To Eternity"; numbers stay as they are.
function optionValue(choice) {
  if (typeof choice !== "string") return String(choice);
  return choice.split(/[-_\s]+/).filter(Boolean).map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join(" ");
}

function readOption(input, prop) {
  if (prop.choices.length) return input.value === "" ? undefined : prop.choices[Number(input.value)];
  if (prop.type === "boolean") return input.checked;
  if (input.value === "") return undefined;
  return prop.type === "integer" || prop.type === "number" ? Number(input.value) : input.value;
}

// -- a game's card ------------------------------------------------------------------------------

// A seat's name for players: the game's own (GameInfo.seat_names), else its id made readable.
function seatName(info, seat) {
  return info?.seat_names?.[seat] || humanize(seat);
}

function layoutName(info, layout) {
  const names = layout.map((seat) => seatName(info, seat));
  if (names.length === 1) return `Solo (${names[0]})`;
  return `Together (${names.slice(0, -1).join(", ")} and ${names[names.length - 1]})`;
}

// A seed is a whole number from 0 to 2**64 - 1, sent as its decimal digits: a JavaScript number
// cannot carry every such seed exactly.
const MOST_SEED = 18446744073709551615n;
const SEED_RULE = "A seed is a whole number from 0 to 18446744073709551615, without leading zeros.";

function readSeed(text) {
  const digits = text.trim();
  if (digits === "") return { seed: null };
  // The seed as typed is the seed as shown and hashed: "042" is refused, never read as "42".
  if (!/^(0|[1-9][0-9]{0,19})$/.test(digits) || BigInt(digits) > MOST_SEED) return { error: SEED_RULE };
  return { seed: digits };
}

// A campaign played on stream may show its spectators the game behind the table (the players
// always see it live). Each choice's value is the creation's `spectator_delay`, as JSON.
const DELAYS = [
  ["", "Live"],
  ['{"moves":1}', "1 move behind"],
  ['{"moves":2}', "2 moves behind"],
  ['{"moves":3}', "3 moves behind"],
  ['{"moves":10}', "10 moves behind"],
  ['{"seconds":30}', "30 seconds behind"],
  ['{"seconds":120}', "2 minutes behind"],
  ['{"seconds":600}', "10 minutes behind"],
];

function delayField(info) {
  const select = h("select", { name: "spectator_delay", "aria-describedby": `delay-note-${info.name}` },
    DELAYS.map(([value, label]) => h("option", { value }, label)));
  const node = h("label", { class: "field" }, h("span", {}, "Spectators see"), select,
    h("span", { class: "field-note", id: `delay-note-${info.name}` }, "For games played on stream; until the campaign ends."));
  return { node, read: () => (select.value ? JSON.parse(select.value) : undefined) };
}

// -- bot seats ----------------------------------------------------------------------------------

const BOT_LEVELS = [1, 2, 3]; // the search bot's levels (the server names them when it refuses)

// Who plays each seat of the chosen layout: a person, or the search bot at a level. Redrawn when
// the layout changes; `read()` gives the creation's `bots` (none: every seat a person's).
function botSeats(info, layouts, layoutSelect) {
  const node = h("fieldset", { class: "field bot-seats-field" });
  let selects = [];
  function draw() {
    const layout = layouts[Number(layoutSelect.value)] || layouts[0];
    selects = layout.map((seat) => [seat, h("select", { name: `bot-${seat}`, dataset: { botSeat: seat } },
      h("option", { value: "" }, "a person"),
      BOT_LEVELS.map((level) => h("option", { value: String(level) }, `search bot, level ${level}`)))]);
    clear(node, h("legend", {}, "Who plays"),
      selects.map(([seat, select]) => h("label", { class: "field" }, h("span", {}, seatName(info, seat)), select)));
  }
  layoutSelect.addEventListener("change", draw);
  draw();
  const read = () => {
    const bots = {};
    for (const [seat, select] of selects) if (select.value) bots[seat] = { bot: "search", level: Number(select.value) };
    return Object.keys(bots).length ? bots : undefined;
  };
  return { node, read };
}

function gameCard(game, onCreate) {
  const { info, options } = game;
  const fields = Object.entries(options.properties || {}).map(([name, schema]) => [name, optionField(name, schema, info)]);
  keepAgreement(info.name, new Map(fields));
  const layouts = info.seat_layouts;
  const layoutSelect = h("select", { name: "layout", dataset: { layouts: "" } },
    layouts.map((layout, i) => h("option", { value: String(i) }, layoutName(info, layout))));
  const seed = h("input", {
    type: "text", name: "seed", inputmode: "numeric", autocomplete: "off", placeholder: "random",
    pattern: "0|[1-9][0-9]{0,19}", title: SEED_RULE, "aria-describedby": `seed-rule-${info.name}`,
  });
  const secret = h("input", { type: "checkbox", name: "private" });
  const players = botSeats(info, layouts, layoutSelect);
  const delay = delayField(info);
  const status = h("p", { class: "form-status", role: "status" });
  const form = h("form", {
    class: "game-card",
    dataset: { game: info.name },
    noValidate: true, // the seed's rule is said in the status line, in words
    onsubmit: async (event) => {
      event.preventDefault();
      const chosen = {};
      for (const [name, field] of fields) {
        const value = field.read();
        if (value !== undefined && value !== null) chosen[name] = value;
      }
      const body = { game: info.name, options: chosen, seats: layouts[Number(layoutSelect.value)] };
      const read = readSeed(seed.value);
      if (read.error) {
        status.textContent = read.error;
        status.classList.add("error");
        seed.setAttribute("aria-invalid", "true");
        seed.focus();
        return;
      }
      seed.removeAttribute("aria-invalid");
      status.classList.remove("error");
      if (read.seed !== null) body.seed = read.seed;
      if (secret.checked) body.private = true;
      const bots = players.read();
      if (bots) body.bots = bots;
      const behind = delay.read();
      if (behind) body.spectator_delay = behind;
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
  ABOUT[info.name] ? h("p", { class: "about" }, ABOUT[info.name]) : null,
  h("p", { class: "facts" },
    layouts.map((layout) => h("span", { class: "chip" }, layoutName(info, layout))),
    info.hidden_information ? h("span", { class: "chip chip-muted" }, "hidden information") : null,
    info.chance ? h("span", { class: "chip chip-muted" }, "dice and cards") : null,
    info.chapters ? h("span", { class: "chip chip-muted" }, "in chapters") : null),
  h("div", { class: "fields" },
    layouts.length > 1 ? h("label", { class: "field" }, h("span", {}, "Seats"), layoutSelect) : null,
    players.node,
    fields.map(([, field]) => field.node),
    h("label", { class: "field" }, h("span", {}, "Seed (optional)"), seed,
      h("span", { class: "field-note", id: `seed-rule-${info.name}` }, "Digits only, no leading zeros; leave empty for random luck.")),
    h("label", { class: "field check" }, secret, h("span", {}, "Private (no spectators, not listed)")),
    delay.node),
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

// "The Orrery · round 5": the chapter by its title (GameInfo.chapter_names) and the day or round
// by the game's word for it (GameInfo.round_name).
function chapterName(info, chapter) {
  const title = info?.chapter_names?.[String(chapter)];
  if (title) return title;
  return typeof chapter === "number" || /^[0-9]+$/.test(String(chapter)) ? `Chapter ${chapter}` : humanize(chapter);
}

function progress(entry, info) {
  // a campaign recorded under rules this server does not have: kept and listed, not played here
  if (entry.played === false) return "kept as recorded, under rules this server does not play";
  const parts = [];
  if (entry.chapter !== null && entry.chapter !== undefined) parts.push(chapterName(info, entry.chapter));
  if (entry.day !== null && entry.day !== undefined) parts.push(`${info?.round_name || "day"} ${entry.day}`);
  // the catalog counts events (versions), not moves as players count them: the campaign's own
  // page says its move; here the chapter and the day or round say how far it is
  if (!parts.length) parts.push(entry.status === "running" ? "under way" : "over");
  return parts.join(" · ");
}

const STATUS = { running: "Playing", won: "Won", lost: "Lost", unknown: "Not played here" };
const KNOWN_LUCK = "Its luck could be known before a choice (a chosen seed, a fork sharing its luck, or a take-back past a roll or a draw), so its result is counted apart.";

function campaignRow(entry, infos) {
  const info = infos[entry.game];
  const mine = held(entry.id);
  const seats = Object.keys(mine?.tokens || {});
  const play = seats.map((seat) =>
    h("a", { class: "button", href: `#/c/${entry.id}`, dataset: { seat }, onclick: () => remember(entry.id, entry.game, {}, seat) }, `Play as ${seatName(info, seat)}`));
  const lineage = entry.parent ? h("div", { class: "muted small" }, `a fork of ${entry.parent.slice(0, 8)}`) : null;
  return h("tr", { dataset: { campaign: entry.id } },
    h("td", { dataset: { label: "Campaign" } }, h("strong", {}, info?.title || entry.game), h("div", { class: "muted small mono" }, entry.id.slice(0, 8)), lineage),
    h("td", { dataset: { label: "Progress" } }, progress(entry, info)),
    h("td", { dataset: { label: "State" } }, h("span", { class: `status status-${entry.status}` }, STATUS[entry.status] || humanize(entry.status)),
      entry.known_luck ? h("div", { class: "muted small known-luck", title: KNOWN_LUCK }, "known luck") : null),
    h("td", { class: "muted", dataset: { label: "Updated" } }, ago(entry.updated_ms)),
    entry.played === false
      ? h("td", { class: "row-actions muted small" }, "Readable, not playable here")
      : h("td", { class: "row-actions" }, h("div", {}, play, h("a", { class: "button ghost", href: `#/c/${entry.id}/watch` }, "Watch"))));
}

async function fillCampaigns(table, infos, more) {
  const body = table.querySelector("tbody");
  let page;
  try {
    page = await api.campaigns(0, 50);
  } catch (error) {
    clear(body, h("tr", {}, h("td", { colspan: 5, class: "error" }, error.message)));
    return;
  }
  clear(body, page.campaigns.length ? page.campaigns.map((entry) => campaignRow(entry, infos)) : h("tr", {}, h("td", { colspan: 5, class: "muted" }, "No campaigns yet: start one above.")));
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
  const infos = {};
  const gamesBox = h("div", { class: "games" }, h("p", { class: "muted" }, "Loading the games…"));
  const table = h("table", { class: "campaigns" },
    h("thead", {}, h("tr", {}, ["Campaign", "Progress", "State", "Updated", "Open"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}));
  const more = h("p", { class: "muted small", hidden: true }, "Showing the 50 newest.");
  const invite = h("input", { type: "text", name: "invite", placeholder: "Paste an invite link", "aria-label": "Invite link" });
  const inviteStatus = h("p", { class: "form-status", role: "status" });
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
        h("button", { type: "button", class: "ghost", onclick: () => fillCampaigns(table, infos, more) }, "Refresh")),
      h("div", { class: "table-frame" }, table), more));

  let listing;
  try {
    listing = await api.games();
  } catch (error) {
    clear(gamesBox, h("p", { class: "error" }, error.message));
    return () => {};
  }
  for (const game of listing.games) infos[game.info.name] = game.info;
  const create = async (body) => {
    const created = await api.create(body);
    remember(created.id, created.game, created.seats, body.seats[0]);
    navigate(`#/c/${created.id}`);
  };
  clear(gamesBox, listing.games.map((game) => gameCard(game, create)));
  await fillCampaigns(table, infos, more);
  return () => {};
}
