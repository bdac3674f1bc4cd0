// The seats panel: who is connected to which seat (the server's presence messages), the seats
// this browser holds a token for (play as, invite link), and watching instead.

import { clear, h } from "./dom.js";
import { held, inviteLink } from "./seats.js";

function inviteBox(campaign, seat, token) {
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
  return h("div", { class: "invite" }, h("span", { class: "muted small" }, `Invite a partner to ${seat}:`), h("div", { class: "invite-row" }, field, copy));
}

export function renderSeats(node, { campaign, replica, playing, switchTo }) {
  const tokens = held(campaign)?.tokens || {};
  const connected = replica.connected();
  const rows = replica.seats.map((seat) => {
    const names = connected.get(seat);
    const here = names !== undefined;
    const who = here ? names.join(", ") || "connected" : "free";
    const you = seat === playing;
    return h("li", { class: `seat${here ? " present" : ""}${you ? " you" : ""}`, dataset: { seat } },
      h("span", { class: "dot", "aria-hidden": "true" }),
      h("strong", {}, seat),
      h("span", { class: "who" }, you ? `${who} (you)` : who),
      tokens[seat] && !you ? h("button", { type: "button", class: "ghost small", onclick: () => switchTo(seat) }, `Play as ${seat}`) : null);
  });
  const spectators = replica.presence?.spectators ?? 0;
  const invites = Object.entries(tokens)
    .filter(([seat]) => seat !== playing && replica.seats.length > 1)
    .map(([seat, token]) => inviteBox(campaign, seat, token));
  clear(node,
    h("h3", {}, "Seats"),
    h("ul", { class: "seats" }, rows),
    h("p", { class: "muted small" }, spectators === 1 ? "1 spectator watching" : `${spectators} spectators watching`),
    invites,
    playing ? h("button", { type: "button", class: "ghost small", onclick: () => switchTo(null) }, "Watch instead") : null);
}
