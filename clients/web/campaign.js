// One campaign's page: the board for its game, live through the play socket (or a past version
// while the timeline is open), the seats and who is connected, what just happened, the end with
// its reason and revealed seed, and clear messages when something goes wrong.

import * as api from "./api.js";
import { ActionSink } from "./boards/common.js";
import { boardFor } from "./boards/index.js";
import { LiveConnection } from "./connection.js";
import { clear, h } from "./dom.js";
import { renderSeats } from "./presence.js";
import { choose, playerName, playing, remember } from "./seats.js";
import { Story, renderRecent } from "./story.js";
import { Timeline } from "./timeline.js";

const PROBLEMS = {
  stale_version: "Somebody acted first, so that action was not taken. The board now shows the latest.",
  not_your_turn: "It is not your turn for that.",
  illegal_action: "That action is not possible now.",
  forbidden: "Only a seat of the campaign may do that.",
  unauthorized: "This seat's token is not valid for the campaign.",
  not_found: "There is no such campaign.",
  unavailable: "The server's store is not answering; try again shortly.",
};

function notice(node, text, tone = "info", id = "") {
  const box = h("div", { class: `notice notice-${tone}`, role: tone === "error" ? "alert" : "status", dataset: id ? { notice: id } : undefined },
    h("span", {}, text),
    h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => box.remove() }, "×"));
  if (id) node.querySelector(`[data-notice="${id}"]`)?.remove();
  node.append(box);
  return box;
}

async function gameFacts(game) {
  try {
    const { games } = await api.games();
    return games.find((g) => g.info.name === game)?.info || null;
  } catch {
    return null;
  }
}

export async function mountCampaign(root, { campaign, watch, navigate }) {
  const { seat, token } = watch ? { seat: null, token: null } : playing(campaign);
  const memory = new Map();
  const story = new Story(campaign, token);
  const title = h("h2", {}, "Loading…");
  const status = h("div", { class: "campaign-status" });
  const notices = h("div", { class: "notices", "aria-live": "polite" });
  const boardSlot = h("div", { class: "board-slot" });
  const extraActions = h("section", { class: "panel actions-panel" });
  const seatsPanel = h("section", { class: "panel seats-panel" });
  const recentPanel = h("section", { class: "panel recent-panel" });
  const endPanel = h("section", { class: "panel end-panel", hidden: true });
  const timelineSlot = h("div", { class: "timeline-slot" });
  const historyBar = h("div", { class: "history-bar", hidden: true });
  const timelineButton = h("button", { type: "button", class: "ghost", onclick: () => (timeline ? closeTimeline() : openTimeline()) }, "Timeline");
  clear(root,
    h("div", { class: "campaign-bar" },
      h("div", {}, title, status),
      h("div", { class: "bar-actions" }, timelineButton, h("a", { class: "button ghost", href: "#/" }, "Lobby"))),
    notices, timelineSlot, historyBar,
    h("div", { class: "campaign-body" },
      h("div", { class: "board-column" }, endPanel, boardSlot),
      h("aside", { class: "sidebar" }, seatsPanel, extraActions, recentPanel)));

  let info = null;
  let content = {};
  let timeline = null;
  let history = null; // {version, view} while the timeline shows a past version
  let recent = [0, -1, []];
  let ended = false;

  const connection = new LiveConnection(campaign, { token, name: playerName(), handlers: {} });
  const replica = connection.replica;

  function draw() {
    const source = history || { version: replica.version, view: replica.view };
    if (source.view === null || source.view === undefined) return;
    const live = !history;
    const sink = new ActionSink(live ? replica.legalActions : [], {
      act: live && token && replica.outcome === "running" ? act : null,
      busy: connection.busy,
    });
    const board = boardFor(replica.game);
    const context = { view: source.view, seat: replica.seat, seats: replica.seats, content, info, sink, memory, live };
    let drawn;
    try {
      drawn = board.render(context);
    } catch (error) {
      drawn = h("p", { class: "error" }, `This board could not be drawn: ${error.message}`);
    }
    clear(boardSlot, drawn);
    const rest = sink.buttons(sink.left, { group: 8 });
    clear(extraActions, h("h3", {}, live ? "Your actions" : "Actions"),
      rest || h("p", { class: "muted" }, !live ? "Viewing the past: no actions." : token ? (replica.outcome === "running" ? "Nothing else to do right now." : "The campaign is over.") : "Watching: spectators cannot act."));
    status.textContent = `${info?.title || replica.game} · version ${replica.version} · ${replica.seat ? `playing as ${replica.seat}` : "watching"}`;
    status.dataset.version = String(replica.version);
    boardSlot.dataset.version = String(source.version);
    boardSlot.classList.toggle("historic", !live);
    boardSlot.classList.toggle("busy", connection.busy);
  }

  function act(action) {
    if (connection.act(action)) draw();
  }

  function drawSeats() {
    renderSeats(seatsPanel, {
      campaign,
      replica,
      playing: replica.seat,
      switchTo: (next) => {
        choose(campaign, next);
        navigate(next ? `#/c/${campaign}` : `#/c/${campaign}/watch`, { reload: true });
      },
    });
  }

  async function showEnd() {
    if (ended || replica.outcome === "running") return;
    ended = true;
    let seed = null;
    try {
      seed = await api.describe(campaign, token);
    } catch {
      seed = null;
    }
    await story.refresh().catch(() => {});
    const reason = story.lines.length ? story.lines[story.lines.length - 1].text : "";
    endPanel.hidden = false;
    clear(endPanel,
      h("h3", {}, replica.outcome === "won" ? "Won!" : "Lost"),
      reason ? h("p", { class: "reason" }, reason) : null,
      seed?.seed !== null && seed?.seed !== undefined
        ? h("p", { class: "seed" }, "The seed is revealed: ", h("strong", { class: "mono" }, String(seed.seed)),
          h("span", { class: "muted small" }, ` (salt ${seed.salt}; its hash ${seed.seed_hash.slice(0, 12)}… was published at the start)`))
        : null);
  }

  async function refreshStory(range, events) {
    recent = [...range, events];
    try {
      await story.refresh();
    } catch {
      // the lines stay as they were; the event types below stand in for them
    }
    renderRecent(recentPanel, story, [recent[0], recent[1]], recent[2]);
    if (timeline) timeline.position(); // new lines, and the fork and rewind points with them
  }

  connection.handlers = {
    change: (_, message) => {
      if (message.type === "welcome") {
        title.textContent = info?.title || message.game;
        drawSeats();
        const missed = message.missed || [];
        const first = missed.length ? missed[0].version : message.version;
        refreshStory([first, message.version], missed);
      } else if (message.type === "update" || message.type === "accepted") {
        refreshStory([message.first, message.version], message.events || []);
      } else {
        refreshStory([replica.version, replica.version], []);
      }
      if (timeline) timeline.grown();
      draw();
      showEnd();
    },
    presence: drawSeats,
    status: (state, detail) => {
      if (state === "down") {
        notice(notices, `The connection dropped. Reconnecting in ${Math.round(detail.delay / 100) / 10} s (attempt ${detail.attempt})…`, "warn", "connection");
      } else if (state === "open") {
        notices.querySelector('[data-notice="connection"]')?.remove();
      } else if (state === "closed") {
        notice(notices, `The server closed the connection: ${detail.reason || "the campaign cannot be opened"}.`, "error", "connection");
      }
    },
    problem: ({ code, message }) => {
      const plain = PROBLEMS[code];
      notice(notices, plain ? `${plain} (${message})` : message, code === "stale_version" ? "warn" : "error", "problem");
      draw();
    },
  };

  function openTimeline() {
    timeline = new Timeline({
      campaign,
      token,
      story,
      head: () => replica.version,
      outcome: () => replica.outcome,
      show: (version, view) => {
        history = { version, view };
        historyBar.hidden = false;
        clear(historyBar, `Showing version ${version} of ${replica.version} as ${replica.seat || "a spectator"} sees it.`);
        draw();
      },
      leave: closeTimeline,
      forked: (created) => {
        const same = replica.seat && created.seats[replica.seat] ? replica.seat : Object.keys(created.seats)[0];
        remember(created.id, created.game, created.seats, same);
        navigate(`#/c/${created.id}`);
      },
      notice: (text, tone) => notice(notices, text, tone, "timeline"),
    });
    timelineButton.textContent = "Close timeline";
    timelineButton.classList.add("active");
    root.classList.add("with-timeline");
    timeline.mount(timelineSlot, recentPanel);
  }

  function closeTimeline() {
    timeline?.close();
    timeline = null;
    history = null;
    historyBar.hidden = true;
    timelineButton.textContent = "Timeline";
    timelineButton.classList.remove("active");
    root.classList.remove("with-timeline");
    renderRecent(recentPanel, story, [recent[0], recent[1]], recent[2]);
    draw();
  }

  try {
    const entry = await api.describe(campaign, token);
    info = await gameFacts(entry.entry.game);
    content = await api.content(entry.entry.game).catch(() => ({}));
    title.textContent = info?.title || entry.entry.game;
  } catch (error) {
    // a seat token this server does not know (say, its store was reset) can still watch
    const watch = token && error.code === "unauthorized"
      ? h("a", { class: "button", href: `#/c/${campaign}/watch` }, "Watch instead") : null;
    clear(root,
      h("div", { class: "notice notice-error", role: "alert" }, error.message),
      h("div", { class: "bar-actions" }, watch, h("a", { class: "button", href: "#/" }, "Back to the lobby")));
    return () => {};
  }
  connection.start();
  return () => {
    timeline?.close();
    connection.close();
  };
}
