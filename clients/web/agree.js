// Rewinds at a table of several people (docs/protocol.md, "Rewinds at a table of several
// people"): a seat's ask, shown to the seats whose yes it needs as a dialog where keeping the game
// is the default (the focus, Escape), and to the seat that asked as a line it may withdraw; how an
// ask ended; and, after any rewind, a banner on every seat's page saying who rewound and what it
// undid. The server pushes each of these over the play socket; a page reads the open ask when it
// connects.

import * as api from "./api.js";
import { clear, h } from "./dom.js";
import { moveName } from "./story.js";
import { seatName } from "./turn.js";

function names(info, seats) {
  const all = seats.map((seat) => seatName(info, seat));
  return all.length <= 1 ? all.join("") : `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

function undoneList(undone, moves) {
  const items = undone.map((line) => h("li", {}, h("span", { class: "v" }, `Move ${line.move}`), " ", line.text));
  const shown = new Set(undone.map((line) => line.move)).size;
  const more = moves > shown ? h("li", { class: "muted" }, `and ${countMoves(moves - shown)} more`) : null;
  return h("ul", { class: "undone-moves" }, items, more);
}

function countMoves(moves) {
  return moves === 1 ? "1 move" : `${moves} moves`;
}

// `node`: where the asking seat's line and the banners go (under the turn bar); `notice(text,
// tone)`: a passing notice.
export class Agreement {
  constructor({ campaign, seat, token, info, node, notice }) {
    this.campaign = campaign;
    this.seat = seat;
    this.token = token;
    this.info = info;
    this.node = node;
    this.notice = notice;
    this.open = null;
    this.dialog = null;
    this.line = h("div", { class: "proposal-line", hidden: true, role: "status", "aria-live": "polite" });
    this.banners = h("div", { class: "rewind-banners" });
    clear(node, this.line, this.banners);
  }

  // The page connected (or came back): the ask open now, if any.
  async refresh() {
    if (!this.token) return;
    try {
      const { proposal } = await api.proposal(this.campaign, this.token);
      this.show(proposal);
    } catch {
      // shown again at the next push or connection
    }
  }

  // The campaign moved on: an ask made at an earlier version has ended with it.
  moved(version) {
    if (this.open && this.open.at !== version) this.show(null);
  }

  pushed(message) {
    if (message.type === "rewound") {
      this.banner(message);
      return;
    }
    if (message.ended) this.ended(message.ended);
    this.show(message.open || null);
  }

  show(proposal) {
    this.open = proposal;
    const mine = proposal && proposal.by === this.seat;
    const asked = proposal && proposal.asked.includes(this.seat) && !proposal.accepted.includes(this.seat);
    this.line.hidden = !proposal || (!mine && asked);
    if (!proposal) {
      clear(this.line);
      this.closeDialog();
      return;
    }
    const back = moveName(proposal.to_move);
    const waiting = proposal.asked.filter((seat) => !proposal.accepted.includes(seat));
    if (mine) {
      clear(this.line,
        h("span", {}, `You asked to rewind to ${back}, undoing ${countMoves(proposal.moves)}; waiting for ${names(this.info, waiting)} to agree. Nothing changes until they do.`),
        h("button", { type: "button", class: "small ghost withdraw", onclick: () => this.answer(false) }, "Withdraw the ask"));
    } else if (asked) {
      this.ask(proposal);
    } else {
      clear(this.line, h("span", {}, `${seatName(this.info, proposal.by)} asked to rewind to ${back}; waiting for ${names(this.info, waiting)}.`));
    }
    if (!asked) this.closeDialog();
  }

  // The dialog for a seat whose yes the ask needs: keeping the game has the focus, and Escape
  // keeps it too.
  ask(proposal) {
    if (this.dialog?.dataset.proposal === proposal.id) return;
    this.closeDialog();
    const who = seatName(this.info, proposal.by);
    const back = moveName(proposal.to_move);
    const keep = h("button", { type: "button", class: "primary keep-game", autofocus: true, onclick: () => this.answer(false) }, "Keep the game");
    const yes = h("button", { type: "button", class: "danger agree-rewind", onclick: () => this.answer(true) }, `Rewind to ${back}`);
    const dialog = h("dialog", { class: "danger-dialog proposal-dialog", "aria-labelledby": "proposal-title", "aria-describedby": "proposal-what", dataset: { proposal: proposal.id } },
      h("h2", { id: "proposal-title" }, `${who} asks to rewind to ${back}`),
      h("div", { id: "proposal-what" },
        h("p", {}, `That undoes ${countMoves(proposal.moves)} for both of you:`),
        undoneList(proposal.undone, proposal.moves),
        h("p", { class: "muted small" }, "Nothing changes unless you agree. Keeping the game says no; the undone moves would stay readable in the timeline.")),
      h("div", { class: "dialog-actions" }, keep, yes));
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      this.answer(false);
    });
    this.dialog = dialog;
    document.body.append(dialog);
    dialog.showModal();
    keep.focus();
  }

  closeDialog() {
    const dialog = this.dialog;
    this.dialog = null;
    if (dialog) {
      dialog.close();
      dialog.remove();
    }
  }

  async answer(accept) {
    const proposal = this.open;
    if (!proposal) return;
    this.closeDialog();
    try {
      const answered = await api.answerProposal(this.campaign, this.token, proposal.id, accept);
      if (answered.ended) this.ended(answered.ended);
      this.show(answered.proposal);
    } catch (error) {
      this.notice(`That answer was not taken: ${error.message}`, "error");
      this.refresh();
    }
  }

  ended(ended) {
    if (this.lastEnded === ended.id) return;
    this.lastEnded = ended.id;
    const asker = ended.by === this.seat ? "your ask" : `${seatName(this.info, ended.by)}'s ask`;
    const by = ended.answered_by === this.seat ? "you" : seatName(this.info, ended.answered_by || "");
    const words = {
      declined: `${by === "you" ? "You" : by} kept the game: ${asker} to rewind was declined, and nothing changed.`,
      withdrawn: ended.by === this.seat ? "You withdrew your ask to rewind; nothing changed." : `${seatName(this.info, ended.by)} withdrew the ask to rewind; nothing changed.`,
      moved_on: `A move was made, so ${asker} to rewind ended; nothing changed.`,
      accepted: null, // the banner of the rewind says it
    }[ended.ending];
    if (words) this.notice(words, "info");
  }

  // After any rewind: who made it, and what it undid.
  banner(message) {
    const who = message.by === this.seat ? "You" : message.by ? seatName(this.info, message.by) : "The server";
    const agreed = message.agreed.length ? ` with ${message.agreed.includes(this.seat) ? "your" : `${names(this.info, message.agreed)}'s`} agreement` : "";
    const text = `${who} rewound the game to ${moveName(message.to_move)}${agreed}, undoing ${countMoves(message.moves)}.`;
    this.banners.querySelector(`[data-version="${message.version}"]`)?.remove();
    const box = h("div", { class: "rewind-banner", role: "status", dataset: { version: String(message.version) } },
      h("div", {}, h("strong", {}, text), message.undone.length ? undoneList(message.undone, message.moves) : null),
      h("button", { type: "button", class: "close", "aria-label": "Dismiss the rewind's note", onclick: () => box.remove() }, "×"));
    clear(this.banners, box);
  }

  stop() {
    this.closeDialog();
  }
}
