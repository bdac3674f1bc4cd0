// Actions that end a campaign or throw progress away live apart from play: in a menu of their own,
// styled as dangerous, and behind a dialog that says what is lost, where the safe answer is the
// default and Escape cancels.

import { h } from "./dom.js";

// The legal actions that end things, by id, with what the dialog says of them. `then` names the
// action that completes the same step when the game asks to confirm it (Eila's abandoning is asked
// and then confirmed, so one "yes" in the dialog takes both).
const DANGERS = [
  {
    ids: ["abandon", "confirm_abandon:true"],
    menu: "Abandon the campaign…",
    title: "Abandon the campaign?",
    lost: "The campaign ends for good and counts as lost: nobody can play on from here. "
      + "Its timeline stays readable, and you can still fork it from an earlier move to try again.",
    confirm: "Abandon the campaign",
    then: "confirm_abandon:true",
  },
];

export function dangerOf(actionId) {
  return DANGERS.find((danger) => danger.ids.includes(actionId)) || null;
}

export function isDangerous(action) {
  return dangerOf(action.id) !== null;
}

// Ask before something is lost. Resolves true only when the person chose `confirm`; the safe
// answer has the focus, and Escape or a click on "Keep playing" resolves false.
export function confirmDanger({ title, lost, confirm, safe = "Keep playing" }) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const keep = h("button", { type: "button", class: "primary", value: "keep", autofocus: true }, safe);
    const yes = h("button", { type: "button", class: "danger", value: "yes" }, confirm);
    const heading = h("h2", { id: "danger-title" }, title);
    const dialog = h("dialog", { class: "danger-dialog", "aria-labelledby": "danger-title", "aria-describedby": "danger-lost" },
      heading,
      h("p", { id: "danger-lost" }, lost),
      h("div", { class: "dialog-actions" }, keep, yes));
    let answered = false;
    const finish = (answer) => {
      if (answered) return;
      answered = true;
      dialog.close();
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(answer);
    };
    keep.addEventListener("click", () => finish(false));
    yes.addEventListener("click", () => finish(true));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    dialog.addEventListener("close", () => finish(false));
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  });
}

// The campaign's danger menu: a disclosure apart from play holding one button per dangerous legal
// action. `take(danger, action)` is called once the dialog has been answered "yes".
export function dangerMenu(actions, take) {
  const dangerous = actions.filter(isDangerous);
  if (!dangerous.length) return null;
  const seen = new Set();
  const buttons = [];
  for (const action of dangerous) {
    const danger = dangerOf(action.id);
    if (seen.has(danger)) continue;
    seen.add(danger);
    buttons.push(h("button", {
      type: "button",
      class: "danger",
      dataset: { danger: action.id },
      onclick: async () => {
        if (await confirmDanger(danger)) take(danger, action);
      },
    }, danger.menu));
  }
  return h("details", { class: "danger-menu" },
    h("summary", {}, "Leave or end…"),
    h("div", { class: "danger-list" }, buttons));
}
