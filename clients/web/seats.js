// What this browser remembers (localStorage): the player's name, and per campaign the seat tokens
// it holds and the seat it plays, so a reload rejoins the same seat.

const NAME = "tabletale.name";
const CAMPAIGNS = "tabletale.campaigns";

function read() {
  try {
    return JSON.parse(localStorage.getItem(CAMPAIGNS) || "{}");
  } catch {
    return {};
  }
}

function write(all) {
  localStorage.setItem(CAMPAIGNS, JSON.stringify(all));
}

export function playerName() {
  return localStorage.getItem(NAME) || "";
}

export function setPlayerName(name) {
  localStorage.setItem(NAME, name.trim().slice(0, 40));
}

// {tokens: {seat: token}, seat: "gil" | null, game: "gil-ennis"} or null.
export function held(campaign) {
  return read()[campaign] || null;
}

export function remember(campaign, game, tokens, seat = undefined) {
  const all = read();
  const entry = all[campaign] || { tokens: {}, seat: null, game };
  entry.tokens = { ...entry.tokens, ...tokens };
  entry.game = entry.game || game;
  if (seat !== undefined) entry.seat = seat;
  all[campaign] = entry;
  write(all);
  return entry;
}

export function choose(campaign, seat) {
  const all = read();
  if (!all[campaign]) return;
  all[campaign].seat = seat;
  write(all);
}

export function tokenOf(campaign, seat) {
  return held(campaign)?.tokens?.[seat] || null;
}

// The seat this browser plays in `campaign` and its token, or {seat: null, token: null}.
export function playing(campaign) {
  const entry = held(campaign);
  const seat = entry?.seat || null;
  const token = seat ? entry.tokens[seat] || null : null;
  return token ? { seat, token } : { seat: null, token: null };
}

// A link that seats a co-op partner: the token rides in the fragment, so it never reaches a server.
export function inviteLink(campaign, seat, token) {
  const path = ["join", campaign, seat, token].map(encodeURIComponent).join("/");
  return `${location.origin}${location.pathname}#/${path}`;
}
