// The turn bar: it stays in view and says, in the game's words, whose move it is and what is asked
// ("Your move: pack your five dice…" or "Waiting for Gil to pack their dice"), how many choices the
// seat has, and a control that brings the first of them into view. The page's title says the same
// in short ("Your move · The Epic of Gil & Ennis"), so a player in another tab sees the turn come.
//
// What is asked comes from the view's `turn` ({to_act, asked, waiting}); a game whose view has none
// still gets "Your move" or "Waiting" from the seat's legal actions.

import { h, humanize, plural } from "./dom.js";

// The name a person knows a seat by: the game's own (GameInfo.seat_names), else the seat's id in
// words.
export function seatName(info, seat) {
  return info?.seat_names?.[seat] || humanize(seat);
}

function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function sentence(text) {
  const trimmed = String(text || "").trim();
  return trimmed ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : "";
}

// What the bar says, as data: {tone, headline, detail, short, choices}.
//   tone: "you" (the seat is asked), "wait", "over", "offline", "watch"
//   short: the words the page title starts with
export function turnState({ view, seat, legal, outcome, info, online, offlineNote = null, viewingPast }) {
  const title = info?.title || "";
  const turn = view?.turn || null;
  const choices = legal.length;
  if (!online) {
    const detail = offlineNote || "Connecting to the table…";
    return { tone: "offline", headline: offlineNote ? "Offline" : "Connecting", detail, short: offlineNote ? "Offline" : "Connecting", choices: 0 };
  }
  if (outcome === "won" || outcome === "lost") {
    const headline = outcome === "won" ? "Won!" : "Lost";
    return { tone: "over", headline, detail: "The campaign is over.", short: headline, choices: 0 };
  }
  if (viewingPast) {
    return { tone: "watch", headline: "Looking back", detail: seat ? "The timeline shows an earlier move; close it to play on." : "The timeline shows an earlier move; close it to watch the game live.", short: "Looking back", choices: 0 };
  }
  const toAct = turn?.to_act || (choices && seat ? [seat] : []);
  if (seat && choices) {
    const asked = sentence(turn?.asked) || "Choose what to do next.";
    return { tone: "you", headline: "Your move", detail: asked, short: "Your move", choices };
  }
  const others = toAct.filter((other) => other !== seat).map((other) => seatName(info, other));
  if (others.length) {
    const waiting = turn?.waiting ? ` ${turn.waiting}` : "";
    const who = joinNames(others);
    const headline = seat ? `Waiting for ${who}` : `${who} to move`;
    const detail = seat ? `Waiting for ${who}${waiting}.` : `${who} ${others.length > 1 ? "are" : "is"} asked: ${sentence(turn?.asked) || "a move"}.`;
    return { tone: seat ? "wait" : "watch", headline, detail, short: seat ? `Waiting for ${who}` : `${who} to move`, choices: 0 };
  }
  return { tone: seat ? "wait" : "watch", headline: seat ? "Waiting" : "Watching", detail: title ? `${title} goes on.` : "", short: seat ? "Waiting" : "Watching", choices: 0 };
}

export class TurnBar {
  // show(): bring the seat's first choice into view and mark where the choices are
  constructor({ show }) {
    this.show = show;
    this.headline = h("strong", { class: "turn-headline", tabindex: "-1" });
    this.detail = h("span", { class: "turn-detail" });
    this.count = h("span", { class: "turn-count" });
    this.button = h("button", { type: "button", class: "primary turn-show", onclick: () => this.show(), "aria-keyshortcuts": "n", "aria-label": "Show my choices" },
      "Show", h("span", { class: "wide-only" }, " my choices"));
    this.words = h("div", { class: "turn-words" }, this.headline, this.detail);
    this.tools = h("div", { class: "turn-tools" }, this.count, this.button);
    this.node = h("div", { class: "turn-bar", role: "region", "aria-label": "Whose move", dataset: { tone: "wait" } },
      this.words, this.tools);
    this.last = null;
  }

  // Another control for the bar (before "Show my choices") and what it says (under the question).
  attach(control, said) {
    this.tools.insertBefore(control, this.count);
    this.words.append(said);
  }

  // Draws `state` (from turnState); returns true when the seat's move has just begun.
  update(state, title) {
    this.node.dataset.tone = state.tone;
    this.headline.textContent = state.headline;
    this.detail.textContent = state.detail;
    this.count.textContent = state.choices ? plural(state.choices, "choice") : "";
    this.count.hidden = !state.choices;
    this.button.hidden = !state.choices;
    document.title = title ? `${state.short} · ${title}` : `${state.short} · tabletale`;
    const began = state.tone === "you" && this.last !== "you";
    this.last = state.tone;
    return began;
  }
}
