// A combat (Additional Rules 03 and 06): the enemy card with its combat value and weakness, Eila's
// red die and the green die as rolled, the Energy spent and spells cast, and the sum against the
// enemy's value, with the roll, Energy and fight buttons beside them.

import { h, plural } from "../../dom.js";
import { die } from "../common.js";
import { shield, token } from "./tokens.js";

const TONES = { red: "red", green: "green" };
const SYMBOLS = { paw: "paw", shield: "shield" };

function enemyCard(combat) {
  return h("article", { class: "enemy-card", dataset: { enemy: combat.enemy } },
    h("span", { class: "enemy-id" }, combat.enemy),
    h("h4", {}, "Enemy"),
    h("h3", {}, combat.enemy_name),
    h("div", { class: "enemy-value", title: "The enemy's combat value" }, h("span", { class: "swords" }, "⚔"), h("strong", {}, String(combat.enemy_value))),
    combat.weakness ? h("p", { class: "weakness" }, h("strong", {}, "Weakness: "), combat.weakness) : null);
}

function diceRow(ctx, combat) {
  const held = ctx.view.item_support_area?.dice?.length ? ctx.view.item_support_area.dice : ["red"];
  const rolled = new Map((combat.rolled || []).map((d) => [d.die, d]));
  return h("div", { class: "combat-dice" }, held.map((name) => {
    const face = rolled.get(name);
    const caption = face
      ? [`shows ${face.value}`, face.shield ? [" ", shield(14), " prevents 1 HP loss"] : face.symbol ? ` (${SYMBOLS[face.symbol] || face.symbol})` : ""]
      : "not rolled yet";
    return h("figure", { class: `combat-die${face?.shield ? " has-shield" : ""}`, dataset: { combatDie: name } },
      die(face ? face.value : 0, { key: `combat.${name}`, tone: TONES[name] || "ivory", size: 44, memory: ctx.memory, label: face ? `${name} die showing ${face.value}` : `${name} die, not rolled` }),
      h("figcaption", {}, h("span", { class: "die-name" }, `${name === "red" ? "Eila's red" : name} die`), h("span", { class: "die-face-note" }, caption)));
  }));
}

function sum(combat) {
  const parts = [
    h("span", { class: "term" }, "Eila ", h("strong", {}, String(combat.eila_value))),
    combat.green_value ? h("span", { class: "term" }, "+ green ", h("strong", {}, String(combat.green_value))) : null,
    h("span", { class: "equals" }, "="),
    h("span", { class: "combat-value", dataset: { value: String(combat.combat_value) } }, String(combat.combat_value)),
    h("span", { class: "versus" }, "vs"),
    h("span", { class: "enemy-total" }, String(combat.enemy_value)),
  ];
  const winning = combat.combat_value >= combat.enemy_value;
  return h("div", { class: `combat-sum ${winning ? "winning" : "losing"}` }, parts,
    h("span", { class: "combat-verdict" }, winning ? "enough to win" : "not enough yet"));
}

function boosts(combat) {
  return h("ul", { class: "combat-boosts plain" },
    h("li", {}, token("energy", 16), ` Energy spent: `, h("strong", { class: "energy-spent" }, String(combat.energy_spent))),
    combat.spell_bonus ? h("li", {}, `Spells: +${combat.spell_bonus} combat value`) : null,
    h("li", {}, shield(16), ` ${plural(combat.shields, "shield")}: `, combat.shields ? `prevents ${plural(combat.shields, "HP loss", "HP losses")}` : "no HP loss prevented"));
}

export function combatPanel(ctx) {
  const combat = ctx.view.combat;
  if (!combat) return null;
  const { sink } = ctx;
  const actions = sink.tagged("roll", "spend_energy", "fight");
  return h("section", { class: "panel combat" },
    h("h3", {}, "Combat"),
    h("div", { class: "combat-row" },
      enemyCard(combat),
      h("div", { class: "combat-eila" }, diceRow(ctx, combat), boosts(combat), sum(combat),
        sink.buttons(actions, { className: "combat-actions" }))));
}
