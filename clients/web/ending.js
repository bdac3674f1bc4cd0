// The end of a campaign: won or lost, the reason, and, behind "Check this game's luck", the exact
// seed and salt the server revealed with how to check them against the hash published at the
// start (docs/protocol.md, "Seed secrecy"). Seeds travel as decimal strings, so nothing rounds them.

import { clear, h } from "./dom.js";

// sha256("tabletale-seed:<salt>:<seed>") in hex, where the page may use Web Crypto (a secure
// context: https, or the loopback address); null elsewhere.
async function commitment(seed, salt) {
  if (!globalThis.crypto?.subtle) return null;
  const bytes = new TextEncoder().encode(`tabletale-seed:${salt}:${seed}`);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

function luck(described) {
  const seed = String(described.seed);
  const salt = described.salt ?? "";
  const verdict = h("p", { class: "luck-verdict", role: "status" });
  commitment(seed, salt).then((hash) => {
    if (hash === null) verdict.textContent = "Compute the hash above with any SHA-256 tool to check it.";
    else if (hash === described.seed_hash) verdict.textContent = "Checked here: the seed and salt give the published hash, so the luck was fixed at the start.";
    else verdict.textContent = "Checked here: the seed and salt do NOT give the published hash.";
    verdict.dataset.match = String(hash === described.seed_hash);
  });
  const chosen = salt === "";
  return h("details", { class: "luck" },
    h("summary", {}, "Check this game's luck"),
    h("dl", { class: "fields" },
      h("dt", {}, "Seed"), h("dd", { class: "mono seed", dataset: { seed } }, seed),
      h("dt", {}, "Salt"), h("dd", { class: "mono" }, chosen ? "none (the seed was chosen when the campaign was made)" : salt),
      h("dt", {}, "Published hash"), h("dd", { class: "mono hash" }, described.seed_hash)),
    h("p", { class: "small" }, "The hash was published when the campaign began. It is the SHA-256 of the text ",
      h("code", {}, `tabletale-seed:${salt}:${seed}`), "."),
    chosen ? h("p", { class: "small" }, "Anyone who starts this game with the same options and this seed gets the same luck.") : null,
    verdict);
}

// `download()`: save the game's file (a seat's page only).
export function endPanel(node, { outcome, reason, described, download = null }) {
  const revealed = described && described.seed !== null && described.seed !== undefined;
  clear(node,
    h("h2", { class: "end-title" }, outcome === "won" ? "Won!" : "Lost"),
    reason ? h("p", { class: "reason" }, reason) : null,
    download ? h("button", { type: "button", class: "download", onclick: download }, "Download this game") : null,
    revealed ? luck(described) : null);
}
