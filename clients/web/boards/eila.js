// Eila and Something Shiny: the Present card with its options, the goal card, the resources in
// their storage spaces, hearts and Fear, the time track, the decks (Future, Past and the rest as
// counts), items and habits, and whatever chapter element the view adds.

import { h, humanize, plural, s } from "../dom.js";
import { chip, panel, readable } from "./common.js";

const RESOURCES = ["food", "coin", "stone", "knowledge", "energy", "fear"];
const LABELS = { food: "Food", coin: "Coin", stone: "Magical Stone", knowledge: "Knowledge", energy: "Energy", fear: "Fear" };
const MARKS = { food: "F", coin: "C", stone: "S", knowledge: "K", energy: "E", fear: "!" };

// The fields this board draws; any other field (a chapter's own element) is shown as it comes.
const KNOWN = new Set([
  "chapter", "chapter_title", "attempt", "mode", "phase", "outcome", "chapter_outcome", "day", "hp",
  "max_hp", "resources", "goal", "submitted", "night_submissions_left", "time_track",
  "time_track_length", "present", "option", "upcoming_count", "upcoming_known_on_top",
  "future_count", "past_count", "blue_deck_count", "red_deck_count", "habit_deck_count",
  "item_deck_count", "items", "saved_items", "saved_habits", "progress", "lost_reason",
]);

const LOST = { hp: "Eila ran out of hearts.", time: "The time track filled up." };

const PHASES = {
  setup: "Setting up",
  arranging: "Arranging habits",
  day: "Daytime",
  resolving: "Resolving an option",
  night: "Night",
  won: "Chapter won",
  lost: "Chapter lost",
};

function labels(content) {
  const out = { ...LABELS };
  for (const [id, label] of content?.resources || []) out[id] = label;
  return out;
}

function amounts(list) {
  const out = {};
  RESOURCES.forEach((name, i) => { out[name] = (list || [])[i] || 0; });
  return out;
}

function token(resource, size = 26) {
  return s("svg", { class: `token token-${resource}`, viewBox: "0 0 30 30", width: size, height: size, role: "img", "aria-label": LABELS[resource] || resource },
    s("circle", { cx: 15, cy: 15, r: 13 }),
    s("text", { x: 15, y: 20, "text-anchor": "middle" }, MARKS[resource] || "?"));
}

function heart(full, size = 26) {
  return s("svg", { class: `heart${full ? " full" : ""}`, viewBox: "0 0 32 30", width: size, height: size, role: "img", "aria-label": full ? "heart" : "lost heart" },
    s("path", { d: "M16 28 C6 20 1 14 1 8.5 A7.5 7.5 0 0 1 16 6 A7.5 7.5 0 0 1 31 8.5 C31 14 26 20 16 28 Z" }));
}

function storage(title, kinds, spaces, have, names) {
  const tokens = kinds.flatMap((kind) => Array.from({ length: have[kind] }, () => kind));
  const cells = [];
  for (let i = 0; i < Math.max(spaces, tokens.length); i += 1) {
    cells.push(h("span", { class: `space${i >= spaces ? " over" : ""}` }, tokens[i] ? token(tokens[i]) : null));
  }
  return h("div", { class: "storage" },
    h("div", { class: "storage-head" }, h("strong", {}, title), h("span", { class: "muted" }, `${tokens.length} of ${spaces} spaces`)),
    h("div", { class: "spaces" }, cells),
    h("div", { class: "legend" }, kinds.map((kind) => h("span", { class: "legend-item", dataset: { resource: kind } }, token(kind, 18), ` ${names[kind]} `, h("strong", {}, String(have[kind]))))));
}

function presentCard(ctx) {
  const { view, sink } = ctx;
  const options = sink.tagged("choose");
  const pauses = sink.tagged("take", "pick_item", "drop_items", "make_room");
  const card = view.present;
  if (!card) {
    return h("article", { class: "present-card empty" }, h("h3", {}, "The Present"), h("p", { class: "muted" }, "No card in the Present."), sink.buttons(pauses));
  }
  return h("article", { class: "present-card", dataset: { card: card.number } },
    h("div", { class: "present-number" }, card.number),
    h("h3", {}, card.name),
    h("p", { class: "present-text" }, card.text),
    view.option ? h("p", { class: "resolving" }, `Resolving option ${view.option}`) : null,
    options.length ? h("div", { class: "options" }, h("h4", {}, "Choose an option"), sink.buttons(options, { group: 8, className: "option-buttons" })) : null,
    pauses.length ? h("div", { class: "pause" }, h("h4", {}, "How many?"), sink.buttons(pauses, { group: 10 })) : null);
}

function goalCard(ctx, names) {
  const { view, sink } = ctx;
  const submitted = amounts(view.submitted);
  const rows = (view.goal || []).map(([resource, need]) => {
    const done = Math.min(submitted[resource] || 0, need);
    return h("div", { class: `goal-row${done >= need ? " done" : ""}` },
      token(resource, 22), h("span", {}, names[resource] || resource),
      h("span", { class: "goal-bar" }, h("span", { style: `width:${(100 * done) / Math.max(1, need)}%` })),
      h("strong", {}, `${done}/${need}`));
  });
  const actions = sink.tagged("submit", "end_night");
  return h("article", { class: "goal" },
    h("h3", {}, "Goal"),
    rows.length ? rows : h("p", { class: "muted" }, "Set when the chapter begins."),
    view.phase === "night" ? h("p", { class: "muted" }, `${plural(view.night_submissions_left, "submission")} left tonight`) : null,
    sink.buttons(actions));
}

function lifeAndTime(ctx, names) {
  const { view } = ctx;
  const hearts = Array.from({ length: view.max_hp || 0 }, (_, i) => heart(i < view.hp));
  const slots = Array.from({ length: view.time_track_length || 0 }, (_, i) => {
    const mark = (view.time_track || [])[i];
    return h("span", { class: `time-slot${mark ? ` filled ${mark}` : ""}` },
      h("span", { class: "time-number" }, String(i + 1)),
      mark === "heart" ? heart(true, 20) : mark ? token(mark, 20) : null);
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
  return panel("Decks", "decks",
    h("div", { class: "deck-row" },
      deck("Upcoming", view.upcoming_count, "green", known),
      deck("Future", view.future_count, "future"),
      deck("Past", view.past_count, "past"),
      deck("Blue", view.blue_deck_count, "blue"),
      deck("Red", view.red_deck_count, "red"),
      deck("Habits", view.habit_deck_count, "habit"),
      deck("Items", view.item_deck_count, "item")));
}

function belongings(ctx) {
  const { view, content } = ctx;
  const item = (id) => {
    const found = content?.items?.[id];
    return h("li", { class: "item" }, h("strong", {}, found?.name || id), found ? h("span", { class: "muted" }, ` ${found.text}`) : null);
  };
  const habit = (id) => h("li", {}, h("strong", {}, id), ` ${content?.habits?.[id] || ""}`);
  const list = (items, render, none) => (items || []).length ? h("ul", { class: "plain" }, items.map(render)) : h("p", { class: "muted" }, none);
  return panel("Items and habits", "belongings",
    h("h4", {}, "Items held"), list(view.items, item, "No items."),
    h("h4", {}, "Save box"), list(view.saved_items, item, "No saved items."),
    list(view.saved_habits, habit, "No saved habits."),
    (view.progress || []).length ? h("p", {}, "Chapters won: ", view.progress.map((c) => chip(`Chapter ${c}`, "chip-ok"))) : null);
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
    discards.length ? h("details", { class: "action-group" }, h("summary", {}, `Discard (${discards.length} choices)`), sink.buttons(discards)) : null);
}

function chapterElement(ctx) {
  const extra = Object.entries(ctx.view).filter(([key]) => !KNOWN.has(key));
  if (!extra.length) return null;
  return panel("This chapter", "chapter-element", readable(Object.fromEntries(extra)));
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
    resourcesPanel(ctx, names),
    h("div", { class: "eila-bottom" }, decks(ctx), belongings(ctx)),
    chapterElement(ctx),
    ctx.sink.buttons(ctx.sink.tagged("retry", "begin_chapter", "arrange_habit"), { className: "chapter-actions" }));
}
