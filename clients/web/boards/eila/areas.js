// The two areas beside the game board (Additional Rule 01): on the left the Item & Support Area
// (the dice, items, support cards with their spells, and the habits kept), on the right the
// Chapter Element Area (quiz cards, the mine, the markets, the trail: whatever the chapter has).

import { h } from "../../dom.js";
import { die, panel } from "../common.js";
import { marketsArea } from "./markets.js";
import { mineArea } from "./mine.js";
import { quizArea } from "./quiz.js";
import { trailArea } from "./trail.js";

const DICE = { red: "red", green: "green" };

// An item or support card; its "use" action (an item used, a spell cast) sits on the card.
function heldCard(ctx, card, kind) {
  const use = ctx.sink.take((action) => action.id === `use:${card.id}`);
  return h("li", { class: `held-card ${kind}-card`, dataset: { card: card.id } },
    h("span", { class: "card-id" }, card.id),
    h("strong", {}, card.name),
    card.text ? h("span", { class: "held-text" }, card.text) : null,
    ctx.sink.buttons(use));
}

function cards(ctx, list, kind, none) {
  return list.length
    ? h("ul", { class: "held-cards" }, list.map((card) => heldCard(ctx, card, kind)))
    : h("p", { class: "muted" }, none);
}

export function itemSupportArea(ctx) {
  const { view, content } = ctx;
  const area = view.item_support_area || {};
  // an older view lists only item ids: look their names up in the game's content
  const items = area.items || (view.items || []).map((id) => ({ id, name: content?.items?.[id]?.name || id, text: content?.items?.[id]?.text || "" }));
  const supports = area.supports || [];
  const habits = view.saved_habits || [];
  const dice = (area.dice || []).map((name) => h("li", { class: "held-die", dataset: { heldDie: name } },
    die(6, { tone: DICE[name] || "ivory", size: 26, label: `${name} die` }), name === "red" ? " Eila's red die" : ` The ${name} die`));
  const part = (title, ...children) => h("div", { class: "isa-part" }, h("h4", {}, title), children);
  return panel("Item & Support Area", "item-support-area",
    h("div", { class: "isa-parts" },
      part("Dice", dice.length ? h("ul", { class: "held-dice" }, dice) : h("p", { class: "muted" }, "No dice.")),
      part("Items", cards(ctx, items, "item", "No items.")),
      part("Supports", cards(ctx, supports, "support", "No support cards.")),
      part("Habits", habits.length
        ? h("ul", { class: "held-cards" }, habits.map((id) => h("li", { class: "held-card habit-card", dataset: { card: id } }, h("span", { class: "card-id" }, id), h("strong", {}, content?.habits?.[id] || id))))
        : h("p", { class: "muted" }, "No habits kept."))));
}

export function chapterElementArea(ctx, names) {
  const area = ctx.view.chapter_element_area;
  if (!area) return null;
  const parts = [
    quizArea(ctx, area),
    mineArea(ctx, area.mine),
    marketsArea(ctx, area.markets, names),
    trailArea(ctx, area),
  ].filter(Boolean);
  return parts.length ? panel("Chapter Element Area", "chapter-element-area", parts) : null;
}
