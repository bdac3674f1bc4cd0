// The Epic of Gil & Ennis: the trail map with the marker and both paths, the worry dice, the two
// character cards with their HAND, BACKPACK and POCKET dice and insights, the camp (pool, dream,
// forage), the worries under the map, and Mount Humbaba on the final night.

import { h, humanize, plural } from "../dom.js";
import { chip, die, panel } from "./common.js";
import { PHASES, SPECIAL, mapSvg } from "./gil_ennis_map.js";

const TONES = { gil: "amber", ennis: "teal" };

function nameOf(content, character) {
  return content?.characters?.find((c) => c.id === character)?.name || humanize(character);
}

function dreamOf(content, id) {
  return content?.dreams?.find((d) => d.id === id) || null;
}

function requirement(r) {
  return r.low === r.high ? String(r.low) : `${r.low}–${r.high}`;
}

// -- the parts ---------------------------------------------------------------------------------

// PITCH in the rulebook's order (the view's `step`); taking a later step's action closes the
// earlier ones, and turning in ends the seat's pitch.
const PITCH_STEPS = [
  { id: "campsite", number: "i", name: "Campsite action" },
  { id: "abilities", number: "ii", name: "Abilities" },
  { id: "organize", number: "iii", name: "Organize" },
];
const CAMPSITE_TAGS = ["reroll", "calm", "give", "cash-insights"];

function siteOf(content, id) {
  const map = content?.map;
  const sites = [...(map?.trail || []), ...(map?.paths || []).flatMap((p) => p.campsites)];
  return sites.find((site) => site.id === id) || null;
}

// What a label adds about the steps it closes: "(ends step i, the campsite action)".
function closes(actions) {
  for (const action of actions) {
    const found = /\((ends [^)]*)\)\s*$/.exec(action.label);
    if (found) return found[1];
  }
  return "";
}

function stepTag(ctx, id) {
  if (ctx.view.phase !== "pitch") return null;
  const step = PITCH_STEPS.find((s) => s.id === id);
  return h("span", { class: "step-tag" }, `step ${step.number}`);
}

// The faces of action buttons, drawn from the action's id (its label stays the button's name).
const FACES = {
  // power:<who>:<kind>:<ref>:<slot>:<value>:<new> (new 0: a reroll)
  power: (parts, tone) => {
    const [, , , , slot, value, next] = parts;
    return h("span", { class: "face" }, h("span", { class: "face-slot" }, slot), die(Number(value), { tone, size: 22 }),
      Number(next) ? ["→", die(Number(next), { tone, size: 22 })] : h("span", { class: "face-word" }, "reroll"));
  },
  // organize:<who>:<slot>:<value>:<target>:<target value> (0: a move into an empty place)
  organize: (parts, tone) => {
    const [, , slot, value, target, targetValue] = parts;
    const swap = Number(targetValue);
    return h("span", { class: "face" }, h("span", { class: "face-slot" }, slot), die(Number(value), { tone, size: 22 }),
      swap ? "⇄" : "→", h("span", { class: "face-slot" }, target), swap ? die(swap, { tone, size: 22 }) : null);
  },
  // reroll:<who>:<slot>:<value>+<slot>:<value>...
  reroll: (parts, tone) => {
    const picked = parts.slice(2).join(":").split("+").map((d) => d.split(":"));
    return h("span", { class: "face" }, h("span", { class: "face-word" }, "reroll"),
      picked.map(([where, value]) => h("span", { class: "face-die" }, h("span", { class: "face-slot" }, where.charAt(0)), die(Number(value), { tone, size: 22 }))));
  },
};

function faceOf(character) {
  return (action) => {
    const parts = action.id.split(":");
    const draw = FACES[parts[0]];
    if (!draw) return null;
    try {
      return draw(parts, TONES[character]);
    } catch {
      return null;
    }
  };
}

function slot(label, values, character, ctx, slots = 1, preview = false) {
  const dice = [];
  for (let i = 0; i < slots; i += 1) {
    const key = preview ? null : `${character}.${label}.${i}`;
    dice.push(die(values[i] || 0, { tone: TONES[character], key, memory: ctx.memory, size: 42 }));
  }
  return h("div", { class: `slot slot-${label}` }, h("span", { class: "slot-label" }, label.toUpperCase()), h("div", { class: "slot-dice" }, dice));
}

function inventory(character, card, ctx, preview = false) {
  return h("div", { class: `inventory${preview ? " preview" : ""}` },
    slot("hand", [card.hand], character, ctx, 1, preview),
    slot("backpack", card.backpack || [], character, ctx, 3, preview),
    slot("pocket", [card.pocket], character, ctx, 1, preview));
}

function without(values, ...taken) {
  const rest = [...values];
  for (const value of taken) rest.splice(rest.indexOf(value), 1);
  return rest;
}

// Set-up: the five rolled dice, and one button per way to pack them: a row per HAND die, a column
// per POCKET die, the BACKPACK dice (the other three) on the button. Pointing at a button shows
// the packing in the inventory above.
function packing(character, card, actions, ctx, shown) {
  const { content } = ctx;
  const tone = TONES[character];
  const name = nameOf(content, character);
  const rolled = card.rolled || [];
  const choices = new Map();
  for (const action of actions) {
    const [, , hand, pocket] = action.id.split(":");
    choices.set(`${hand}:${pocket}`, action);
  }
  const hands = [...new Set([...choices.keys()].map((k) => Number(k.split(":")[0])))];
  const pockets = [...new Set([...choices.keys()].map((k) => Number(k.split(":")[1])))].sort((a, b) => b - a);
  const show = (hand, pocket) => {
    const next = hand ? inventory(character, { hand, pocket, backpack: without(rolled, hand, pocket) }, ctx, true) : shown.base;
    shown.node.replaceWith(next);
    shown.node = next;
  };
  const grid = !choices.size ? null : h("table", { class: "pack-grid" },
    h("caption", {}, "Each button shows the three dice it leaves for the BACKPACK."),
    h("thead", {},
      h("tr", {}, h("td", {}), h("th", { class: "axis", colspan: pockets.length }, "POCKET")),
      h("tr", {}, h("th", { class: "axis" }, "HAND"), pockets.map((p) => h("th", { scope: "col" }, die(p, { tone, size: 26 }))))),
    h("tbody", {}, hands.map((hand) => h("tr", {},
      h("th", { scope: "row" }, die(hand, { tone, size: 26 })),
      pockets.map((pocket) => {
        const action = choices.get(`${hand}:${pocket}`);
        if (!action) return h("td", { class: "none" }, "");
        const face = h("span", { class: "face" }, without(rolled, hand, pocket).map((v) => die(v, { tone, size: 18 })));
        const button = ctx.sink.button(action, face);
        button.classList.add("pack-choice");
        button.addEventListener("mouseenter", () => show(hand, pocket));
        button.addEventListener("focus", () => show(hand, pocket));
        button.addEventListener("mouseleave", () => show(0, 0));
        button.addEventListener("blur", () => show(0, 0));
        return h("td", {}, button);
      })))));
  const waiting = ctx.seat === null ? `${name}'s seat packs them.` : `Waiting for ${name}'s seat to pack them.`;
  return h("div", { class: "packing" },
    h("h4", {}, "Pack the dice", h("span", { class: "step-tag" }, "set-up")),
    h("div", { class: "rolled" }, h("span", { class: "label" }, "Rolled"), rolled.map((v) => die(v, { tone, size: 30 }))),
    grid
      ? [h("p", { class: "hint" }, "Pick the HAND die (a row) and the POCKET die (a column); the other three fill the BACKPACK."),
        h("div", { class: "pack-frame" }, grid)]
      : h("p", { class: "muted" }, waiting));
}

// Dice drawn together (cashed insights): added one at a time through the HAND, in the players' order.
function drawn(character, card, actions, ctx) {
  const tone = TONES[character];
  return h("div", { class: "packing" },
    h("h4", {}, "Drawn dice to add"),
    h("div", { class: "rolled" }, h("span", { class: "label" }, "Drawn"), (card.rolled || []).map((v) => die(v, { tone, size: 30 }))),
    actions.length
      ? [h("p", { class: "hint" }, "Each goes in through the HAND and pushes the HAND die down: the last one added stays in the HAND."), ctx.sink.buttons(actions, { group: 6 })]
      : h("p", { class: "muted" }, `Waiting for ${nameOf(ctx.content, character)}'s seat to add them.`));
}

function powerButtons(actions, character, ctx) {
  if (!actions.length) return null;
  return h("div", { class: "uses" },
    ctx.sink.buttons(actions, { group: 4, title: "Use it", face: faceOf(character), className: "face-list" }));
}

const SPECIAL_HELP = {
  reroll: "One character rerolls any of their dice (H, B, P: hand, backpack, pocket).",
  calm: "One character discards a die; the worry level falls by its value.",
  give: "One character gives a die to the other, in through the HAND.",
  cash_insights: "Each character may discard insights to draw as many dice.",
};

const SPECIAL_PICK = {
  reroll: "Choose the dice to reroll",
  calm: "Choose the die to discard",
  give: "Choose the die to give",
  cash_insights: "Choose the insights to discard",
};

function section(title, tag, actions, character, ctx, { note = "", group = 6, summary = "" } = {}) {
  if (!actions.length) return null;
  const closing = closes(actions);
  return h("div", { class: "card-section step-section" },
    h("h4", {}, title, tag),
    note ? h("p", { class: "hint" }, note) : null,
    ctx.sink.buttons(actions, { group, title: summary, face: faceOf(character), className: "face-list" }),
    closing ? h("p", { class: "closes" }, `Taking one ${closing}.`) : null);
}

function characterCard(character, ctx) {
  const { view, content, sink } = ctx;
  const card = view[character] || {};
  const name = nameOf(content, character);
  const mine = ctx.seat === character || ctx.seat === "player";
  const actions = sink.take((a) => {
    const parts = a.id.split(":");
    return parts[1] === character || (parts[0] === "pledge" && parts[2] === character);
  });
  const byTag = (...tags) => actions.filter((a) => tags.includes(a.id.split(":")[0]));
  const powerKey = (a) => a.id.split(":").slice(2, 4).join(":");
  const powers = byTag("power");
  const placed = new Set();
  const usesOf = (key) => {
    const found = powers.filter((a) => powerKey(a) === key);
    found.forEach((a) => placed.add(a));
    return powerButtons(found, character, ctx);
  };
  const abilities = (content?.characters?.find((c) => c.id === character)?.abilities || []).map((ability) => {
    const key = `ability:${character}/${ability.id}`;
    const used = ability.frequency === "round" ? (view.used_round || []).includes(key) : (view.used_game || []).includes(key);
    return h("li", { class: used ? "used" : "" },
      h("div", {}, h("strong", {}, ability.name), ` ${ability.text} `,
        h("span", { class: "muted" }, ability.frequency === "round" ? "(each round)" : "(once a game)"),
        used ? chip("used", "chip-muted") : null),
      usesOf(key));
  });
  const insights = (card.insights || []).map((id) => {
    const insight = dreamOf(content, id)?.insight;
    const used = (view.used_round || []).includes(`insight:${id}`);
    return h("li", { class: `insight${used ? " used" : ""}` },
      h("div", {}, h("strong", {}, insight?.name || humanize(id)), " ", insight?.text || "",
        insight ? h("span", { class: "muted" }, ` (${humanize(insight.step)})`) : null,
        used ? chip("used", "chip-muted") : null),
      usesOf(`insight:${id}`));
  });
  // `ready` lists the seats that are done for the day; a solo seat plays both characters
  const ready = (view.ready || []).includes(character) || (view.ready || []).includes("player");
  const site = siteOf(content, view.campsite);
  const shown = {};
  shown.base = inventory(character, card, ctx);
  shown.node = shown.base;
  const rolled = (card.rolled || []).length
    ? (view.phase === "setup" ? packing(character, card, byTag("assign"), ctx, shown) : drawn(character, card, byTag("add-drawn"), ctx))
    : null;
  const special = byTag(...CAMPSITE_TAGS);
  const closing = closes(powers);
  const organizing = byTag("organize");
  const taken = new Set([...byTag("assign", "add-drawn", ...CAMPSITE_TAGS, "organize"), ...placed]);
  const rest = actions.filter((a) => !taken.has(a));
  return h("article", { class: `character character-${character}${mine ? " mine" : ""}`, dataset: { character } },
    h("header", {}, h("h3", {}, name),
      card.organized ? chip("organized", "chip-muted") : null,
      ready ? chip("done for today", "chip-ok") : null),
    shown.node,
    rolled,
    section(`At ${site?.name || "the campsite"}`, stepTag(ctx, "campsite"), special, character, ctx,
      { group: 4, note: SPECIAL_HELP[site?.special], summary: SPECIAL_PICK[site?.special] || "" }),
    h("div", { class: "card-section" }, h("h4", {}, "Abilities", stepTag(ctx, "abilities")),
      closing ? h("p", { class: "closes" }, `Using an ability or insight ${closing}.`) : null,
      h("ul", { class: "abilities" }, abilities)),
    h("div", { class: "card-section" }, h("h4", {}, "Insights"),
      insights.length ? h("ul", { class: "insights" }, insights) : h("p", { class: "muted" }, "No insights yet.")),
    section("Organize", stepTag(ctx, "organize"), organizing, character, ctx, { group: 4, summary: "Choose a move or a swap", note: card.organized ? "" : "One die one level up or down, or two dice swapped, once a round." }),
    sink.buttons(rest, { group: 5 }));
}

// Where PITCH stands: its three steps in order, what each offers here, and who has turned in.
function pitchSteps(ctx) {
  const { view, content } = ctx;
  if (view.phase !== "pitch") return null;
  const at = PITCH_STEPS.findIndex((s) => s.id === view.step);
  const site = siteOf(content, view.campsite);
  const special = SPECIAL[site?.special];
  let campsite = "nothing at this campsite";
  if (special && site.special === "cash_insights") {
    const cashed = (view.cashed || []).map((c) => nameOf(content, c));
    campsite = cashed.length ? `${special.text}: ${cashed.join(" and ")} cashed` : `${special.text}, each character once`;
  } else if (special) {
    campsite = view.special_used ? `${special.text}: done` : `${special.text}, one character`;
  }
  const notes = { campsite, abilities: "abilities and pitch insights", organize: "one move or swap each" };
  const turned = (view.ready || []).map((seat) => (seat === "player" ? "both" : nameOf(content, seat)));
  return h("ol", { class: "pitch-steps", "aria-label": "Pitch camp, in order" },
    PITCH_STEPS.map((step, i) => {
      const state = i < at ? "closed" : i === at ? "current" : "open";
      return h("li", { class: `pitch-step ${state}`, dataset: { step: step.id } },
        h("span", { class: "step-number" }, step.number),
        h("span", { class: "step-text" }, h("strong", {}, step.name), h("span", { class: "muted" }, i < at ? "passed" : notes[step.id])));
    }),
    h("li", { class: "pitch-step turn-in" },
      h("span", { class: "step-number" }, "☾"),
      h("span", { class: "step-text" }, h("strong", {}, "Turn in"), h("span", { class: "muted" }, turned.length ? `turned in: ${turned.join(", ")}` : "each seat when done"))));
}

function setupNote(ctx) {
  const { view, content } = ctx;
  if (view.phase !== "setup") return null;
  const left = ["gil", "ennis"].filter((c) => (view[c]?.rolled || []).length).map((c) => nameOf(content, c));
  return h("p", { class: "hint" }, "Five dice were rolled for each character. Pack them: one in the HAND, one in the POCKET, three in the BACKPACK. The HAND die is what lets the other character dream alone; the POCKET die is breakfast.",
    left.length ? h("span", { class: "muted" }, ` Still to pack: ${left.join(" and ")}.`) : null);
}

function dreamCard(ctx) {
  const { view, content } = ctx;
  const dream = dreamOf(content, view.dream);
  if (!view.dream) return null;
  const pledged = (index) => (view.pledges || []).find((p) => p.requirement === index);
  const together = (view.dreamers || []).length > 1;
  const asks = (together ? dream?.together : dream?.alone) || [];
  return h("div", { class: "dream-card" },
    h("div", { class: "dream-title" }, "Dream: ", h("strong", {}, dream?.name || humanize(view.dream))),
    h("div", { class: "muted" }, (view.dreamers || []).length ? `Dreaming: ${view.dreamers.map((c) => nameOf(content, c)).join(" and ")}` : "Nobody dreams"),
    asks.length ? h("div", { class: "requirements" }, asks.map((r, i) => {
      const p = pledged(i);
      return h("div", { class: `requirement${p ? " met" : ""}` },
        h("span", {}, requirement(r)),
        p ? die(p.value, { tone: TONES[p.character], size: 28 }) : h("span", { class: "muted" }, "open"));
    })) : null,
    dream ? h("div", { class: "dream-outcomes" },
      h("div", {}, h("em", {}, "Insight: "), `${dream.insight.name}: ${dream.insight.text}`),
      h("div", {}, h("em", {}, "Worry: "), `${dream.worry.name}: ${dream.worry.text}`)) : null);
}

function camp(ctx) {
  const { view, sink, memory } = ctx;
  const pool = Array.from({ length: Math.min(view.pool || 0, 14) }, (_, i) =>
    die(1 + ((i * 5) % 6), { tone: "ivory", size: 18 }));
  const actions = sink.tagged("turn-in", "dream-together", "skip-dream", "wake", "eat", "stow", "end-climb");
  const pitchStep = PITCH_STEPS.find((s) => s.id === view.step);
  const step = view.phase === "pitch" && pitchStep ? ` · step ${pitchStep.number}` : view.step ? ` · ${humanize(view.step)}` : "";
  return h("section", { class: "camp" },
    h("h3", {}, PHASES[view.phase] || humanize(view.phase), h("span", { class: "muted" }, step)),
    setupNote(ctx),
    pitchSteps(ctx),
    h("div", { class: "camp-row" },
      h("div", { class: "pool", title: "Dice in the pool" },
        h("span", { class: "label" }, "Pool"),
        h("span", { class: "pool-dice" }, pool),
        h("strong", {}, String(view.pool))),
      h("div", { class: "deck", title: "The dream deck lies face down" },
        h("span", { class: "card-back" }, String(view.deck_count)),
        h("span", { class: "label" }, `dream ${view.deck_count === 1 ? "card" : "cards"}`),
        (view.discard || []).length ? h("span", { class: "muted" }, ` · ${view.discard.length} discarded`) : null)),
    view.forage ? h("div", { class: "forage" }, "Foraged: ", die(view.forage, { tone: "ivory", size: 34, key: "forage", memory })) : null,
    dreamCard(ctx),
    sink.buttons(actions, { group: 6 }));
}

function worries(ctx) {
  const { view, content } = ctx;
  const cards = (view.worries || []).map((id, i) => {
    const worry = dreamOf(content, id)?.worry;
    return h("div", { class: "worry-card", dataset: { worry: id } },
      h("span", { class: "worry-number" }, String(i + 1)),
      h("strong", {}, worry?.name || humanize(id)),
      h("p", {}, worry?.text || ""));
  });
  return h("section", { class: "worries" },
    h("h3", {}, "Worries under the map"),
    cards.length ? h("div", { class: "worry-cards" }, cards) : h("p", { class: "muted" }, "None yet: every restless night adds one."));
}

function humbaba(ctx) {
  const { view, content, memory } = ctx;
  if (!(view.challenge || []).length && view.phase !== "final_night") return null;
  const spaces = (view.challenge || []).map((value, i) => {
    const placed = (view.placed || [])[i] || 0;
    return h("div", { class: `challenge-space${placed ? " matched" : ""}` },
      die(value, { tone: "stone", size: 44, key: `challenge.${i}`, memory }),
      placed ? die(placed, { tone: "ivory", size: 34 }) : h("span", { class: "slot-open" }, "match"));
  });
  return h("section", { class: "humbaba" },
    h("h3", {}, content?.humbaba?.name || "Mount Humbaba"),
    h("p", { class: "muted" }, content?.humbaba?.text || ""),
    h("div", { class: "challenge" }, spaces));
}

// The map keeps its proportions and a readable size: on a narrow screen it scrolls sideways in
// its frame, which opens on the marker and then stays where the player scrolled it until the
// marker moves on.
function mapFrame(ctx) {
  const { memory, view } = ctx;
  const frame = h("div", {
    class: "map-frame", tabindex: 0, role: "region", "aria-label": "The trail map (it scrolls sideways on a narrow screen)",
    dataset: { scrolls: "" },
    onscroll: () => memory?.set("map.scroll", frame.scrollLeft),
  }, mapSvg(ctx));
  const moved = memory?.get("map.at") !== view.campsite;
  memory?.set("map.at", view.campsite);
  // the board is in the page once this render returns
  queueMicrotask(() => {
    if (!frame.isConnected || frame.scrollWidth <= frame.clientWidth) return;
    if (!moved && memory?.has("map.scroll")) {
      frame.scrollLeft = memory.get("map.scroll");
      return;
    }
    const marker = frame.querySelector(".marker")?.getBoundingClientRect();
    const box = frame.getBoundingClientRect();
    if (marker) frame.scrollLeft += marker.left + marker.width / 2 - box.left - box.width / 2;
  });
  return frame;
}

// The day and the worry, which the map draws in its corners, in a line above the map for a
// narrow screen, where the map scrolls and its corners may be out of sight.
function mapSummary(ctx) {
  const { view } = ctx;
  const day = view.day ? `Day ${view.day}` : "Setting out";
  return h("p", { class: "map-summary" },
    h("strong", {}, `${day} · ${PHASES[view.phase] || humanize(view.phase)}`),
    h("span", { class: "map-summary-worry" }, "Worry ", h("strong", {}, String(view.worry_level)),
      (view.worry_dice || []).map((value) => die(value, { tone: "red", size: 24 }))));
}

export function render(ctx) {
  const { sink } = ctx;
  const mapActions = sink.tagged("hike", "path");
  return h("div", { class: "board board-gil-ennis" },
    h("section", { class: "map-area" }, h("h2", { class: "sr-only" }, "The trail"), mapSummary(ctx), mapFrame(ctx), sink.buttons(mapActions, { className: "map-actions" })),
    humbaba(ctx),
    worries(ctx),
    h("div", { class: `table-row phase-${ctx.view.phase}` }, characterCard("gil", ctx), camp(ctx), characterCard("ennis", ctx)),
    h("p", { class: "muted small" }, plural(ctx.view.deck_count, "dream card"), " face down; the order stays hidden."));
}
