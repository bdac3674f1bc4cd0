// The pieces Eila's board draws with: resource tokens, hearts, a resource list as amounts.

import { s } from "../../dom.js";

export const RESOURCES = ["food", "coin", "stone", "knowledge", "energy", "fear"];
export const LABELS = { food: "Food", coin: "Coin", stone: "Magical Stone", knowledge: "Knowledge", energy: "Energy", fear: "Fear" };
const MARKS = { food: "F", coin: "C", stone: "S", knowledge: "K", energy: "E", fear: "!" };

// The resource names the game's content gives, over the defaults.
export function labels(content) {
  const out = { ...LABELS };
  for (const [id, label] of content?.resources || []) out[id] = label;
  return out;
}

// The view's resource array as {food: n, ...}.
export function amounts(list) {
  const out = {};
  RESOURCES.forEach((name, i) => { out[name] = (list || [])[i] || 0; });
  return out;
}

// A token carries its resource's letter when it is drawn large enough for the letter to be read
// (24 px and up: the letter is then 11 px tall); smaller ones stand beside the resource's name.
export const LETTERED = 24;

export function token(resource, size = 26) {
  return s("svg", { class: `token token-${resource}`, viewBox: "0 0 30 30", width: size, height: size, role: "img", "aria-label": LABELS[resource] || resource },
    s("circle", { cx: 15, cy: 15, r: 13 }),
    size >= LETTERED ? s("text", { x: 15, y: 20, "text-anchor": "middle" }, MARKS[resource] || "?") : null);
}

export function heart(full, size = 26) {
  return s("svg", { class: `heart${full ? " full" : ""}`, viewBox: "0 0 32 30", width: size, height: size, role: "img", "aria-label": full ? "heart" : "lost heart" },
    s("path", { d: "M16 28 C6 20 1 14 1 8.5 A7.5 7.5 0 0 1 16 6 A7.5 7.5 0 0 1 31 8.5 C31 14 26 20 16 28 Z" }));
}

// A small shield, for a combat die's shield face and the HP loss it prevents.
export function shield(size = 18) {
  return s("svg", { class: "shield-icon", viewBox: "0 0 20 22", width: size, height: size, role: "img", "aria-label": "shield" },
    s("path", { d: "M10 1 L19 4.5 C19 13 15.5 18 10 21 C4.5 18 1 13 1 4.5 Z" }));
}

// A card's price, like "1 Knowledge" or "3 Coin", with its tokens.
export function price(pairs, names) {
  return (pairs || []).map(([resource, amount]) => [token(resource, 16), ` ${amount} ${names[resource] || resource}`]);
}
