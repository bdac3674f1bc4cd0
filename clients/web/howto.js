// How to play: each game's rules in short, in our own words, one part per phase of a round, opened
// at the part the table is in now ("You are in PITCH: ..."), and why the usual actions of that part
// that the seat is not offered cannot be taken now (worked out from the view the seat sees).
//
// The words are ours: a summary for learning at the table, never the publisher's text.

import { h } from "./dom.js";
import { seatName } from "./turn.js";

// -- the parts ----------------------------------------------------------------------------------
// Each game: {goal, parts: [{id, title, phases, text, why?(ctx)}]}; `phases` are the view's
// `phase` values the part covers; `why(ctx)` lists the reasons usual actions are missing now.

const has = (legal, tag) => legal.some((id) => id === tag || id.startsWith(`${tag}:`));

function gilEnnisSleep({ view, legal, info, seat }) {
  if (view.step !== "choose" || !legal.length) return [];
  const name = (who) => seatName(info, who);
  const worry = view.worry_level;
  const reasons = [];
  for (const [who, other] of [["gil", "ennis"], ["ennis", "gil"]]) {
    if (has(legal, `dream-alone:${who}`) || (seat !== who && seat !== "player")) continue; // each seat dreams for its own character
    const hand = view[other]?.hand || 0;
    reasons.push(`${name(who)} cannot dream alone: ${name(other)}'s HAND die must be at least the worry level (${worry}), and it ${hand ? `shows ${hand}` : "is empty"}.`);
  }
  if (!has(legal, "dream-together")) {
    reasons.push(`Dreaming together needs both HAND dice at ${worry} or more; they are ${view.gil?.hand || "empty"} and ${view.ennis?.hand || "empty"}.`);
  }
  return reasons;
}

function gilEnnisPitch({ view, legal, info, seat }) {
  if (!legal.length) return [];
  const reasons = [];
  for (const who of ["gil", "ennis"].filter((one) => seat === one || seat === "player")) {
    if (view[who]?.organized && !legal.some((id) => id.startsWith(`organize:${who}`))) {
      reasons.push(`${seatName(info, who)} has already moved a die today: one move per character per day.`);
    }
  }
  if (view.special_used) reasons.push("This campsite's special action has been used.");
  return reasons;
}

function eilaDay({ view, legal }) {
  if (!view.present || view.option || !legal.length) return [];
  return ["Only the options you can take now are offered: an option is left off while you cannot pay what it takes away (fear excepted), or lack the item, habit or support card it asks for."];
}

function machinaExplorers({ view, legal, seat, info }) {
  const me = (view.explorers || []).find((who) => who.id === seat);
  if (!me || me.status !== "map") return me ? [`${seatName(info, seat)} is off the map (${me.status === "out" ? "out of health" : "exited"}) and acts no more this chapter.`] : [];
  const reasons = [];
  if (!me.stamina && has(legal, "end-turn")) {
    reasons.push(`${seatName(info, seat)} has no stamina left: every action but ending the turn costs stamina, and it comes back next round.`);
  }
  if (view.exploring_prevented) reasons.push("No exploring now: an effect in force seals the way on.");
  return reasons;
}

const RULES = {
  "gil-ennis": {
    goal: "Gil and Ennis walk to Mount Humbaba, one camp a day. At the mountain the dice they still carry must match the dice of its challenge. Whoever cannot eat breakfast ends the journey there.",
    parts: [
      { id: "setup", title: "Setting out", phases: ["setup"], text: "Each character rolls five dice and packs them: one in the HAND, one in the POCKET and three in the BACKPACK. The HAND die decides who may dream; the POCKET die is the next breakfast. Dice not in a pack wait in the pool." },
      { id: "hike", title: "HIKE", phases: ["hike"], text: "The marker walks on to the next campsite. At the fifth hike the trail splits: choose the high ridge or the misty valley." },
      { id: "pitch", title: "PITCH", phases: ["pitch"], text: "Camp for the night, in this order: the campsite's special action, if it has one and you meet its need; the characters' abilities, each as often as printed (once a day or once a game); then each character may move one die a slot up or down into an empty slot, or swap two dice in slots next to each other.", why: gilEnnisPitch },
      { id: "sleep", title: "SLEEP", phases: ["sleep"], text: "Choose who dreams. One may dream alone if the other's HAND die is at least the worry level; both may dream together if both HAND dice are. Draw a dream and pay its dice. Paid alone: keep the dream as an insight, worry rises by 2. Paid together: the dream is discarded, worry rises by 1. Not paid, or nobody dreams: it becomes a worry under the map, worry falls by 1.", why: gilEnnisSleep },
      { id: "break", title: "BREAK", phases: ["break"], text: "Breakfast: each POCKET die goes down by 1, and a 1 is eaten up. An empty pocket eats from the partner's; with no pocket die at all, the journey ends. After a good night's dream, forage: roll a die from the pool into the HAND, pushing the dice below it down a slot." },
      { id: "final", title: "The final night", phases: ["final_night"], text: "At the mountain, the worry dice and the worries under the map make the challenge. Change your dice with abilities and insights, then place your dice on the challenge: match every one of its dice to reach the peak." },
    ],
  },
  eila: {
    goal: "Eila has seven days to meet the chapter's goal. She loses the chapter when her last heart goes or when the seventh slot of the time track fills; then it begins again.",
    parts: [
      { id: "day", title: "Daytime", phases: ["day", "dawn", "arranging"], text: "A card comes up from the upcoming deck into the Present. Pick one of its options; it is carried out from left to right and top to bottom, and the card then moves where the option says: to the Future, to the Past or back to its deck. When the upcoming deck is empty, night falls.", why: eilaDay },
      { id: "resolving", title: "Carrying out an option", phases: ["resolving"], text: "Say how much to take or pay and which item to keep. Food, coins and magical stones are tangible, knowledge, energy and fear intangible: at most 8 of each. Fear is always taken, even if other resources must make room; past 8, each fear costs a heart. In a fight, roll Eila's red die and add 2 for each energy spent: reach the enemy's number to win." },
      { id: "night", title: "Night", phases: ["night"], text: "Put resources from storage on the goal card (two a night at most in chapters 0 and 1). Then one energy goes on the next slot of the time track, or a heart if there is no energy. The Future is shuffled into the upcoming deck and a new day begins." },
      { id: "end", title: "The end of a chapter", phases: ["won", "lost", "abandoned"], text: "Meeting the goal wins the chapter at once and the next one opens, with the items and habits kept. A lost chapter starts again from its beginning." },
    ],
  },
  machina: {
    goal: "The explorers work through the scenario's chapters, then its endgame, before the clock reaches its last round. Everybody wins or everybody loses; an explorer at 0 health is out.",
    parts: [
      { id: "explorers", title: "The explorer phase", phases: ["explorers", "setup"], text: "Each explorer on the map acts one action at a time, until they end their turn: move a space (1 stamina), attack with the weapon in hand, use a tool, search or work the space next to you, equip, give an item to a neighbour, explore the unexplored side you stand by, or exit in an escape chapter. Stamina comes back every round. A place is named x,y, as the map's edges are labelled: x grows to the east (right), y to the south (down).", why: machinaExplorers },
      { id: "after", title: "Spawn, horror and the monsters", phases: ["spawn", "horror", "monsters"], text: "These play by themselves after the explorers. Monsters appear at spawn points; horror events raise the threat. Each monster walks toward the explorer nearest to reach and attacks: every die at or above your defense is a hit. In an Eternity chapter nothing is rolled: the spawn and horror ratings fall by one each round and do what the chapter lists; at spawn 1 every explorer spawns a monster." },
      { id: "placing", title: "A chapter tile comes into play", phases: ["placing"], text: "When the objective is met, the chapter turns over. If its back is a chapter tile, choose the unexplored side of a map tile its diamond joins (a circle joins the matching circle), and the next chapter begins." },
      { id: "over", title: "The end", phases: ["over"], text: "The expedition ends in victory when the endgame's objective is met, and in defeat when every explorer is out or the clock runs out." },
    ],
  },
};

export function rulesOf(game) {
  return RULES[game] || null;
}

// -- the dialog ---------------------------------------------------------------------------------

// The control ("How to play") and the dialog it opens. `table()` gives {view, legal, seat}: the
// view on screen and the ids of the seat's legal actions.
export class HowTo {
  constructor({ game, info, table }) {
    this.rules = rulesOf(game);
    this.info = info;
    this.table = table;
    this.button = this.rules
      ? h("button", { type: "button", class: "ghost how-to-open", "aria-haspopup": "dialog", "aria-keyshortcuts": "?", onclick: () => this.open() }, "How to play")
      : null;
  }

  // The part for the phase the view is in (the first part while none names it).
  current(view) {
    const phase = view?.phase === "resolving" || view?.option ? "resolving" : view?.phase;
    return this.rules.parts.find((part) => part.phases.includes(phase))
      || this.rules.parts.find((part) => part.phases.includes(view?.phase)) || this.rules.parts[0];
  }

  open() {
    if (!this.rules) return;
    const opener = document.activeElement;
    const { view, legal, seat } = this.table();
    const here = this.current(view);
    const reasons = here.why ? here.why({ view: view || {}, legal, seat, info: this.info }) : [];
    const title = this.info?.title || "this game";
    const close = h("button", { type: "button", class: "primary" }, "Back to the table");
    const heading = h("h2", { id: "how-to-title", tabindex: "-1" }, `How to play ${title}`);
    const dialog = h("dialog", { class: "how-to", "aria-labelledby": "how-to-title" },
      heading,
      h("p", { class: "how-to-goal" }, this.rules.goal),
      h("section", { class: "how-to-now", "aria-labelledby": "how-to-now" },
        h("h3", { id: "how-to-now" }, `You are in ${here.title}`),
        h("p", {}, here.text),
        reasons.length ? [h("h4", {}, "Why some actions are not offered now"), h("ul", { class: "why-not" }, reasons.map((text) => h("li", {}, text)))] : null),
      h("h3", {}, "The other parts"),
      this.rules.parts.filter((part) => part !== here).map((part) =>
        h("details", { class: "how-to-part", dataset: { part: part.id } }, h("summary", {}, part.title), h("p", {}, part.text))),
      h("p", { class: "muted small" }, "A summary in our own words, for playing at this table."),
      h("div", { class: "dialog-actions" }, close));
    const finish = () => {
      if (!dialog.isConnected) return;
      dialog.close();
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
    close.addEventListener("click", finish);
    dialog.addEventListener("close", finish);
    dialog.addEventListener("click", (event) => { if (event.target === dialog) finish(); });
    document.body.append(dialog);
    dialog.showModal();
    heading.focus(); // read from the top; Tab reaches the parts and the way back
    dialog.scrollTop = 0;
    return dialog;
  }
}
