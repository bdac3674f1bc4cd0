// The seats panel: who is connected to which seat (the server's presence messages), the seats
// this browser holds a token for (play as, invite link), and watching instead.

import { clear, h } from "./dom.js";
import { held, inviteLink } from "./seats.js";
import { seatName } from "./turn.js";

function inviteBox(campaign, seat, token, name) {
  const link = inviteLink(campaign, seat, token);
  const field = h("input", { type: "text", readOnly: true, value: link, class: "invite-link", dataset: { seat } });
  const copy = h("button", {
    type: "button",
    class: "ghost small",
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
  return h("div", { class: "invite" }, h("span", { class: "muted small" }, `Invite a partner to play ${name}:`), h("div", { class: "invite-row" }, field, copy));
}

// `online`: whether this page's own socket is up; while it is down nobody's presence is known.
// `bots`: seat -> the name of the bot that plays it.
export function renderSeats(node, { campaign, replica, playing, switchTo, info, online, bots = new Map() }) {
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
    playing ? h("button", { type: "button", class: "ghost small", onclick: () => switchTo(null) }, "Watch instead") : null);
}
