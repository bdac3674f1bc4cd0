// The HTTP API (docs/protocol.md), each call a small async function. An error answer throws
// ApiError with the server's code and sentence.

export class ApiError extends Error {
  constructor(code, message, status = 0) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

async function call(method, path, { token = null, body = undefined } = {}) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError("offline", "The server cannot be reached.");
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data?.error || {};
    const message = error.message || `The server answered ${response.status}.`;
    throw new ApiError(error.code || "http", message, response.status);
  }
  return data;
}

const campaign = (id) => `/api/campaigns/${encodeURIComponent(id)}`;

export const games = () => call("GET", "/api/games");
export const content = (game) => call("GET", `/api/games/${encodeURIComponent(game)}/content`);
export const campaigns = (offset = 0, limit = 50) =>
  call("GET", `/api/campaigns?offset=${offset}&limit=${limit}`);
export const describe = (id, token) => call("GET", campaign(id), { token });
export const timeline = (id, token) => call("GET", `${campaign(id)}/timeline`, { token });
export const create = (body) => call("POST", "/api/campaigns", { body });

// The lines of versions above `after`, at most `limit` of them (one page of the timeline).
export const timelinePage = (id, token, after, limit) =>
  call("GET", `${campaign(id)}/timeline?after=${after}&limit=${limit}`, { token });

// The campaign's family (docs/protocol.md, "Lineage"): one page of branches after `cursor`.
export function lineage(id, token, cursor = null, limit = 100) {
  const after = cursor === null ? "" : `&after=${encodeURIComponent(cursor)}`;
  return call("GET", `${campaign(id)}/lineage?limit=${limit}${after}`, { token });
}

// Where two campaigns' histories part: {a, b, common, a_head, b_head}.
export const compare = (a, b, token) =>
  call("GET", `${campaign(a)}/compare/${encodeURIComponent(b)}`, { token });

export function state(id, token, at = null) {
  const query = at === null ? "" : `?at=${at}`;
  return call("GET", `${campaign(id)}/state${query}`, { token });
}

export const act = (id, token, action, expectedVersion, commandId = null) =>
  call("POST", `${campaign(id)}/actions`, {
    token,
    body: { action, expected_version: expectedVersion, command_id: commandId },
  });

// `reseed`: false keeps the parent's luck; true gives the fork new luck (a new published hash).
export const fork = (id, token, at, reseed = false) =>
  call("POST", `${campaign(id)}/fork`, { token, body: { at, reseed } });

// Bots (docs/protocol.md, "Bots"): what the bot would do now for the token's seat (nothing is
// played or stored), the seats bots play, handing an away seat to a bot, and taking one back.
export const hint = (id, token) => call("POST", `${campaign(id)}/hint`, { token, body: {} });
export const bots = (id, token) => call("GET", `${campaign(id)}/bots`, { token });
export const handOver = (id, token, seat, bot = "search") =>
  call("POST", `${campaign(id)}/bots`, { token, body: { seat, bot } });
export const takeBack = (id, token) => call("POST", `${campaign(id)}/bots/take-back`, { token, body: {} });

// The campaign as an export file (docs/export.md) for the token's seat: complete once it is over,
// the seat's own partial record before. {blob, filename}.
export async function exportFile(id, token) {
  let response;
  try {
    response = await fetch(`${campaign(id)}/export`, { headers: { Authorization: `Bearer ${token}` } });
  } catch {
    throw new ApiError("offline", "The server cannot be reached.");
  }
  if (!response.ok) {
    const data = await response.json().catch(() => null);
    throw new ApiError(data?.error?.code || "http", data?.error?.message || `The server answered ${response.status}.`, response.status);
  }
  const named = /filename="([^"]+)"/.exec(response.headers.get("Content-Disposition") || "");
  return { blob: await response.blob(), filename: named ? named[1] : `${id}.jsonl` };
}

export const rewind = (id, token, to, expectedVersion = null) =>
  call("POST", `${campaign(id)}/rewind`, {
    token,
    body: expectedVersion === null ? { to } : { to, expected_version: expectedVersion },
  });

// Rewinds the other people at the table agree to (docs/protocol.md, "Rewinds at a table of
// several people"): {proposal, rewound, ended}. `propose` rewinds at once when the seat may
// rewind alone (its own last move, or a table of one person), else asks the others.
export const proposal = (id, token) => call("GET", `${campaign(id)}/proposal`, { token });
export const propose = (id, token, to, expectedVersion = null) =>
  call("POST", `${campaign(id)}/proposals`, {
    token,
    body: expectedVersion === null ? { to } : { to, expected_version: expectedVersion },
  });
export const answerProposal = (id, token, proposalId, accept) =>
  call("POST", `${campaign(id)}/proposal/answer`, { token, body: { id: proposalId, accept } });

// While the server is out of reach: ask its health check every `everyMs` and call `back()` once
// it answers, so a page reconnects as soon as the server is up again rather than when a backoff
// timer runs out. Returns a function that stops asking.
export function whenServerAnswers(back, everyMs = 1000) {
  let stopped = false;
  let timer = null;
  const ask = async () => {
    timer = null;
    try {
      const answer = await fetch("/healthz", { cache: "no-store" });
      if (!stopped && answer.ok) {
        stopped = true;
        back();
        return;
      }
    } catch {
      // still out of reach
    }
    if (!stopped) timer = setTimeout(ask, everyMs);
  };
  timer = setTimeout(ask, everyMs);
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

// The WebSocket URL of a campaign's play socket (or its replay socket, with a query).
export function socketUrl(id, suffix = "") {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/ws/campaigns/${encodeURIComponent(id)}${suffix}`;
}
