// The seats panel: who is connected to which seat (the server's presence messages), the seats
// this browser holds a token for (play as, invite link), the seat's own link back and its export
// file, and watching instead.

import { clear, h } from "./dom.js";
import { held, inviteLink } from "./seats.js";
import { seatName } from "./turn.js";

// A link in a labelled read-only box with a Copy button beside it.
function linkBox(link, label, seat, kind, copyLabel) {
  const id = `${kind}-link-${seat}`;
  const field = h("input", { type: "text", readOnly: true, value: link, class: `${kind}-link`, id, dataset: { seat } });
  const copy = h("button", {
    type: "button",
    class: "ghost small",
    "aria-label": copyLabel,
    onclick: async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = "Copied";
      } catch {
        copy.textContent = "Select and copy";
      }
    },
  }, "Copy");
  return h("div", { class: kind }, h("label", { class: "muted small", for: id }, label), h("div", { class: "invite-row" }, field, copy));
}

function inviteBox(campaign, seat, token, name) {
  return linkBox(inviteLink(campaign, seat, token), `Invite a partner to play ${name}:`, seat, "invite", `Copy the invite for ${name}`);
}

// The seat this page plays: the link that brings its player back to it (from any browser), and the
// game as a file (the whole of it once it is over; the seat's own record before).
function yourSeat(campaign, seat, token, name, over, download) {
  return h("div", { class: "your-seat" },
    linkBox(inviteLink(campaign, seat, token), `Your link to come back to this seat (${name}); keep it to yourself:`, seat, "return", "Copy your link back"),
    h("button", { type: "button", class: "ghost small download", onclick: download },
      over ? "Download this game" : "Download this game so far"),
    h("p", { class: "muted small" }, over
      ? "The complete file: every move and the luck, which tabletale can import again."
      : `While the game runs the file holds what ${name} sees; the complete file comes once it is over.`));
}

// `online`: whether this page's own socket is up; while it is down nobody's presence is known.
// `bots`: seat -> the name of the bot that plays it.
// `download()`: fetch the export file for the seat this page plays.
export function renderSeats(node, { campaign, replica, playing, switchTo, info, online, download, bots = new Map() }) {
  const tokens = held(campaign)?.tokens || {};
  const connected = replica.connected();
  const rows = replica.seats.map((seat) => {
    const names = connected.get(seat);
    const here = online && names !== undefined;
    const bot = bots.get(seat);
    const who = bot ? `bot: ${bot}` : !online ? "not known while offline" : here ? names.join(", ") || "connected" : "free";
    const you = seat === playing;
    const name = seatName(info, seat);
    return h("li", { class: `seat${here ? " present" : ""}${you ? " you" : ""}${online ? "" : " unknown"}`, dataset: { seat } },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("strong", {}, name),
      h("span", { class: "who" }, you ? `${who} (you)` : who),
      tokens[seat] && !you ? h("button", { type: "button", class: "ghost small", onclick: () => switchTo(seat) }, `Play as ${name}`) : null);
  });
  const spectators = replica.presence?.spectators ?? 0;
  const invites = Object.entries(tokens)
    .filter(([seat]) => seat !== playing && replica.seats.length > 1 && !bots.has(seat))
    .map(([seat, token]) => inviteBox(campaign, seat, token, seatName(info, seat)));
  const watching = spectators === 1 ? "1 spectator watching" : `${spectators} spectators watching`;
  clear(node,
    h("h3", {}, "Seats"),
    h("ul", { class: "seats" }, rows),
    h("p", { class: "muted small" }, online ? watching : "Who is here will show when the connection is back."),
    invites,
    playing && tokens[playing] ? yourSeat(campaign, playing, tokens[playing], seatName(info, playing), replica.outcome !== "running", download) : null,
    playing ? h("button", { type: "button", class: "ghost small", onclick: () => switchTo(null) }, "Watch instead") : null);
}
