// Eila and Something Shiny: the Present card with its options, the goal card, hearts, Fear and the
// time track; a combat when one is fought; the Item & Support Area and the Chapter Element Area
// (eila/areas.js); the resources in their storage spaces; the decks (Future, Past and the rest as
// counts) and the save box.

import { h, humanize, plural } from "../dom.js";
import { chip, panel, readable } from "./common.js";
import { chapterElementArea, itemSupportArea } from "./eila/areas.js";
import { combatPanel } from "./eila/combat.js";
import { LETTERED, amounts, heart, labels, token } from "./eila/tokens.js";

// The fields this board draws; any other field is shown as it comes.
const KNOWN = new Set([
  "chapter", "chapter_title", "attempt", "mode", "phase", "outcome", "chapter_outcome", "day", "hp",
  "max_hp", "resources", "goal", "submitted", "night_submissions_left", "time_track",
  "time_track_length", "present", "option", "pending", "combat", "upcoming_count",
  "upcoming_known_on_top", "upcoming_known_at_bottom", "future_count", "past_count",
  "blue_deck_count", "red_deck_count", "habit_deck_count", "item_deck_count", "support_deck_count",
  "items", "item_support_area", "chapter_element_area", "saved_items", "saved_habits",
  "saved_supports", "progress", "endings", "lost_reason", "abandoning",
  "turn", // whose move it is: the page's turn bar says it
]);

const LOST = { hp: "Eila ran out of hearts.", time: "The time track filled up." };

const PHASES = {
  setup: "Setting up",
  arranging: "Arranging habits",
  day: "Daytime",
  dawn: "Dawn",
  resolving: "Resolving an option",
  night: "Night",
  won: "Chapter won",
  lost: "Chapter lost",
};

function storage(title, kinds, spaces, have, names) {
  const tokens = kinds.flatMap((kind) => Array.from({ length: have[kind] }, () => kind));
  const cells = [];
  for (let i = 0; i < Math.max(spaces, tokens.length); i += 1) {
    cells.push(h("span", { class: `space${i >= spaces ? " over" : ""}` }, tokens[i] ? token(tokens[i]) : null));
  }
  return h("div", { class: "storage" },
    h("div", { class: "storage-head" }, h("h4", { class: "storage-name" }, title), h("span", { class: "storage-count" }, `${tokens.length} of ${plural(spaces, "space")}`)),
    h("div", { class: "spaces" }, cells),
    h("div", { class: "legend" }, kinds.map((kind) => h("span", { class: "legend-item", dataset: { resource: kind } }, token(kind, 18), ` ${names[kind]} `, h("strong", {}, String(have[kind]))))));
}

function presentCard(ctx) {
  const { view, sink } = ctx;
  const options = sink.tagged("choose");
  const pauses = sink.tagged("take", "pick_item", "drop_items", "make_room", "pay_or_hp", "dawn");
  const card = view.present;
  if (!card) {
    return h("article", { class: "present-card empty" }, h("h3", {}, "The Present"), h("p", { class: "muted" }, "No card in the Present."), sink.buttons(pauses));
  }
  return h("article", { class: "present-card", dataset: { card: card.number } },
    h("div", { class: "present-number" }, card.number),
    h("h3", {}, card.name),
    h("p", { class: "present-text" }, card.text),
    view.option ? h("p", { class: "resolving" }, `Resolving option ${view.option}`, view.pending ? `: ${view.pending}` : "") : null,
    options.length ? h("div", { class: "options" }, h("h4", {}, "Choose an option"), sink.buttons(options, { group: 8, className: "option-buttons" })) : null,
    pauses.length ? h("div", { class: "pause" }, h("h4", {}, "How many?"), sink.buttons(pauses, { group: 10 })) : null);
}

function goalCard(ctx, names) {
  const { view, sink } = ctx;
  const submitted = amounts(view.submitted);
  const rows = (view.goal || []).map(([resource, need]) => {
    const done = Math.min(submitted[resource] || 0, need);
    return h("div", { class: `goal-row${done >= need ? " done" : ""}` },
      token(resource, LETTERED), h("span", {}, names[resource] || resource),
      h("span", { class: "goal-bar" }, h("span", { style: `width:${(100 * done) / Math.max(1, need)}%` })),
      h("strong", {}, `${done}/${need}`));
  });
  const actions = sink.tagged("submit", "end_night");
  return h("article", { class: "goal" },
    h("h3", {}, "Goal"),
    rows.length ? rows : h("p", { class: "muted" }, "Set when the chapter begins."),
    view.phase === "night" && view.night_submissions_left !== null && view.night_submissions_left !== undefined
      ? h("p", { class: "muted submissions-left" }, `${plural(view.night_submissions_left, "submission")} left tonight`)
      : null,
    sink.buttons(actions));
}

function lifeAndTime(ctx, names) {
  const { view } = ctx;
  const hearts = Array.from({ length: view.max_hp || 0 }, (_, i) => heart(i < view.hp));
  const slots = Array.from({ length: view.time_track_length || 0 }, (_, i) => {
    const mark = (view.time_track || [])[i];
    return h("span", { class: `time-slot${mark ? ` filled ${mark}` : ""}` },
      h("span", { class: "time-number" }, String(i + 1)),
      mark === "heart" ? heart(true, 20) : mark ? token(mark, LETTERED) : null);
  });
  const fear = amounts(view.resources).fear;
  return h("article", { class: "life" },
    h("div", { class: "hearts", title: `${view.hp} of ${view.max_hp} HP` }, h("strong", {}, "Hearts"), hearts),
    h("div", { class: "fear" }, h("strong", {}, "Fear"), token("fear", 22), h("span", { class: "fear-count" }, String(fear))),
    h("div", { class: "time-track" }, h("strong", {}, "Time track"), h("div", { class: "slots" }, slots)),
    h("p", { class: "muted small" }, `A night with ${names.energy} puts it on the track; without, a heart.`));
}

function deck(label, count, tone, extra = null) {
  return h("div", { class: `deck-stack deck-${tone}` },
    h("span", { class: "stack" }, String(count)),
    h("span", { class: "deck-label" }, label),
    extra);
}

function decks(ctx) {
  const { view } = ctx;
  const known = (view.upcoming_known_on_top || []).length
    ? h("span", { class: "muted small" }, `on top: ${view.upcoming_known_on_top.join(", ")}`)
    : null;
  const bottom = (view.upcoming_known_at_bottom || []).length
    ? h("span", { class: "muted small" }, `at the bottom: ${view.upcoming_known_at_bottom.join(", ")}`)
    : null;
  return panel("Decks", "decks",
    h("div", { class: "deck-row" },
      deck("Upcoming", view.upcoming_count, "green", [known, bottom]),
      deck("Future", view.future_count, "future"),
      deck("Past", view.past_count, "past"),
      deck("Blue", view.blue_deck_count, "blue"),
      deck("Red", view.red_deck_count, "red"),
      deck("Habits", view.habit_deck_count, "habit"),
      deck("Items", view.item_deck_count, "item"),
      view.support_deck_count !== undefined ? deck("Supports", view.support_deck_count, "support") : null));
}

function saveBox(ctx) {
  const { view, content } = ctx;
  const name = (id) => content?.items?.[id]?.name || id;
  const saved = [
    ...(view.saved_items || []).map((id) => `${id} ${name(id)}`),
    ...(view.saved_supports || []).map((id) => `support ${id}`),
  ];
  return panel("Save box", "save-box",
    saved.length ? h("p", { class: "chips" }, saved.map((text) => chip(text))) : h("p", { class: "muted" }, "Nothing saved."),
    (view.progress || []).length ? h("p", {}, "Chapters won: ", view.progress.map((c) => chip(`Chapter ${c}`, "chip-ok"))) : null,
    (view.endings || []).length ? h("p", {}, "Endings reached: ", view.endings.map((e) => chip(`Ending ${e}`))) : null);
}

function resourcesPanel(ctx, names) {
  const { view, content, sink } = ctx;
  const have = amounts(view.resources);
  const room = content?.storage;
  const conversions = sink.tagged("convert");
  const discards = sink.tagged("discard");
  return panel("Storage", "resources",
    h("div", { class: "storages" },
      storage("Tangible", room?.tangible || ["food", "coin", "stone"], room?.tangible_spaces ?? 8, have, names),
      storage("Intangible", room?.intangible || ["knowledge", "energy", "fear"], room?.intangible_spaces ?? 8, have, names)),
    conversions.length ? h("div", {}, h("h4", {}, "Convert"), sink.buttons(conversions)) : null,
    discards.length ? h("details", { class: "action-group" }, h("summary", {}, `Discard (${plural(discards.length, "choice")})`), sink.buttons(discards)) : null);
}

function unknownFields(ctx) {
  const extra = Object.entries(ctx.view).filter(([key]) => !KNOWN.has(key));
  if (!extra.length) return null;
  return panel("More", "eila-more", readable(Object.fromEntries(extra)));
}

export function render(ctx) {
  const { view } = ctx;
  const names = labels(ctx.content);
  const header = h("header", { class: "chapter-head" },
    h("h2", {}, `Chapter ${view.chapter}`, view.chapter_title ? `: ${view.chapter_title}` : ""),
    chip(`Day ${view.day}`), chip(PHASES[view.phase] || humanize(view.phase), view.phase === "night" ? "chip-night" : ""),
    chip(`Attempt ${view.attempt}`, "chip-muted"), chip(humanize(view.mode), "chip-muted"),
    view.lost_reason ? h("span", { class: "lost-reason" }, LOST[view.lost_reason] || humanize(view.lost_reason)) : null);
  return h("div", { class: `board board-eila phase-${view.phase}` },
    header,
    h("div", { class: "eila-top" }, presentCard(ctx), goalCard(ctx, names), lifeAndTime(ctx, names)),
    combatPanel(ctx),
    h("div", { class: "eila-areas" }, itemSupportArea(ctx), chapterElementArea(ctx, names)),
    resourcesPanel(ctx, names),
    h("div", { class: "eila-bottom" }, decks(ctx), saveBox(ctx)),
    unknownFields(ctx),
    ctx.sink.buttons(ctx.sink.tagged("retry", "begin_chapter", "arrange_habit"), { className: "chapter-actions" }));
}
