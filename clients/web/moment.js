// Links to a moment: `#/c/<campaign>/at/<version>` opens the campaign's timeline at that version,
// as whoever opens it may see it. A link never carries a token: the seat comes from the opener's
// own saved tokens, so anyone else watches as a spectator.

import { h } from "./dom.js";

export function momentHash(campaign, version) {
  return `#/c/${encodeURIComponent(campaign)}/at/${version}`;
}

// The family tree of `campaign`, with `version` ringed as the move the viewer came from.
export function familyHash(campaign, version) {
  return `#/c/${encodeURIComponent(campaign)}/family/${version}`;
}

export function momentLink(campaign, version) {
  return `${location.origin}${location.pathname}${momentHash(campaign, version)}`;
}

// The version named by a link's text, or null when it names none ("12" yes; "0", "1e3", "-2" no).
export function parseVersion(text) {
  return /^[1-9][0-9]{0,15}$/.test(text || "") ? Number(text) : null;
}

async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

// "Copy a link to this moment", the note that says what it opens, and a live region that says
// it was copied (or shows the link to copy by hand when the browser will not copy it).
export function copyMomentControl(moment) {
  const said = h("p", { class: "copy-said", role: "status", "aria-live": "polite" });
  const note = h("span", { class: "copy-note muted small", id: `copy-note-${Math.random().toString(36).slice(2, 8)}` },
    "This link opens the game as a spectator unless the person opening it holds a seat.");
  const button = h("button", {
    type: "button", class: "ghost copy-moment", "aria-describedby": note.id,
    onclick: async () => {
      const { campaign, version } = moment();
      const link = momentLink(campaign, version);
      said.replaceChildren();
      if (await copyText(link)) {
        said.append("Copied a link to this moment.");
      } else {
        said.append("Copy this link to the moment: ",
          h("input", { type: "text", class: "copy-by-hand", readOnly: true, value: link, "aria-label": "A link to this moment", onfocus: (event) => event.target.select() }));
      }
    },
  }, "Copy a link to this moment");
  return h("div", { class: "copy-moment-box" }, button, note, said);
}
