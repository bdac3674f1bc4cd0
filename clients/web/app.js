// The browser client's entry point: the header and a router over the location's fragment.
//   #/                                 the lobby
//   #/c/<campaign>                     the campaign, as the seat this browser plays (or watching)
//   #/c/<campaign>/watch               the campaign as a spectator
//   #/c/<campaign>/at/<version>        the campaign's timeline at a version (a link to a moment)
//   #/c/<campaign>/family[/<version>]  the campaign's family tree, and two branches compared
//   #/join/<campaign>/<seat>/<token>   an invite: keeps the token, then opens the campaign

import { mountCampaign } from "./campaign.js";
import { h } from "./dom.js";
import { mountFamily } from "./family.js";
import { mountLobby } from "./lobby.js";
import { parseVersion } from "./moment.js";
import { playerName, remember, setPlayerName } from "./seats.js";

const root = document.getElementById("app");
let unmount = () => {};
let mounted = 0;

function navigate(hash, { reload = false } = {}) {
  if (location.hash === hash && reload) route();
  else if (location.hash === hash) return;
  else location.hash = hash;
}

async function route() {
  unmount();
  unmount = () => {};
  const turn = ++mounted;
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  window.scrollTo(0, 0);
  let done;
  if (parts[0] === "join" && parts.length === 4) {
    const [, campaign, seat, token] = parts;
    remember(campaign, null, { [seat]: token }, seat);
    history.replaceState(null, "", `#/c/${encodeURIComponent(campaign)}`); // the token leaves the address bar
    done = mountCampaign(root, { campaign, watch: false, navigate });
  } else if (parts[0] === "c" && parts[1] && parts[2] === "family") {
    done = mountFamily(root, { campaign: parts[1], version: parseVersion(parts[3]) });
  } else if (parts[0] === "c" && parts[1] && parts[2] === "at") {
    // a version that is no whole number is passed on as written, for the page to say so
    done = mountCampaign(root, { campaign: parts[1], watch: false, navigate, at: parseVersion(parts[3]) ?? (parts[3] || "") });
  } else if (parts[0] === "c" && parts[1]) {
    done = mountCampaign(root, { campaign: parts[1], watch: parts[2] === "watch", navigate });
  } else {
    done = mountLobby(root, { navigate });
  }
  const cleanup = await done;
  if (turn === mounted) unmount = cleanup;
  else cleanup();
}

function header() {
  const name = h("input", {
    type: "text", id: "player-name", maxLength: 40, placeholder: "Your name", value: playerName(),
    "aria-label": "Your name, shown to the other players",
    onchange: () => setPlayerName(name.value),
  });
  document.getElementById("top").append(
    h("a", { class: "brand", href: "#/" }, h("img", { src: "favicon.svg", alt: "", width: 26, height: 26 }), "tabletale"),
    h("label", { class: "name" }, h("span", {}, "Your name"), name));
}

header();
window.addEventListener("hashchange", route);
route();
