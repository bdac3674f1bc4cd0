// One campaign's page: the turn bar, the board for its game, live through the play socket (or a
// past move while the timeline is open), the seats and who is connected, what just happened, the
// end with its reason and revealed seed, and clear messages when something goes wrong.
//
// Keys (when no text field has the focus): N brings the seat's first choice into view and focuses
// it, T opens or closes the timeline, ? opens how to play, H asks for a hint, Escape closes a
// dialog; Tab and Enter do the rest.

import * as api from "./api.js";
import { ActionSink } from "./boards/common.js";
import { boardFor } from "./boards/index.js";
import { LiveConnection } from "./connection.js";
import { Agreement } from "./agree.js";
import { confirmDanger, dangerMenu, isDangerous } from "./danger.js";
import { BotControls } from "./hint.js";
import { HowTo } from "./howto.js";
import { clear, h } from "./dom.js";
import { analysisOffer } from "./analysis.js";
import { endPanel as drawEnd } from "./ending.js";
import { renderSeats } from "./presence.js";
import { choose, playerName, playing, remember } from "./seats.js";
import { Story, moveName, renderRecent } from "./story.js";
import { Timeline } from "./timeline.js";
import { TurnBar, seatName, turnState } from "./turn.js";

const PROBLEMS = {
  stale_version: "Somebody acted first, so that action was not taken. The board now shows the latest.",
  not_your_turn: "It is not your turn for that.",
  illegal_action: "That action is not possible now.",
  forbidden: "Only a seat of the campaign may do that.",
  unauthorized: "This seat's token is not valid for the campaign.",
  not_found: "There is no such campaign.",
  unavailable: "The server's store is not answering; try again shortly.",
};
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15000;
const LIT_MS = 2500;

// `lasting`: a notice that stays while it holds (no close button), such as the spectator delay.
function notice(node, text, tone = "info", id = "", lasting = false) {
  const box = h("div", { class: `notice notice-${tone}`, role: tone === "error" ? "alert" : "status", dataset: id ? { notice: id } : undefined },
    h("span", {}, text),
    lasting ? null : h("button", { type: "button", class: "close", "aria-label": "Dismiss", onclick: () => box.remove() }, "×"));
  if (id) node.querySelector(`[data-notice="${id}"]`)?.remove();
  node.append(box);
  return box;
}

// A spectator delay in words: "3 moves", "1 second".
function behindTable({ moves, seconds }) {
  const [count, unit] = moves ? [moves, "move"] : [seconds, "second"];
  return `${count} ${unit}${count === 1 ? "" : "s"}`;
}

export async function gameFacts(game) {
  try {
    const { games } = await api.games();
    return games.find((g) => g.info.name === game)?.info || null;
  } catch {
    return null;
  }
}

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName));
}

// The page when the campaign cannot be opened: the reason, and, when the server is out of reach,
// another try by itself with backoff (and one on demand).
function unreachable(root, error, { token, campaign, retry, title = "This campaign cannot be opened" }) {
  const watch = token && error.code === "unauthorized"
    ? h("a", { class: "button", href: `#/c/${campaign}/watch` }, "Watch instead") : null;
  const retrying = retry ? h("p", { class: "muted", role: "status", "aria-live": "polite" }) : null;
  clear(root,
    h("h1", { class: "page-title" }, title),
    h("div", { class: "notice notice-error", role: "alert" }, error.message),
    retrying,
    h("div", { class: "bar-actions" },
      retry ? h("button", { type: "button", class: "primary", onclick: () => retry.now() }, "Try again now") : null,
      watch, h("a", { class: "button", href: "#/" }, "Back to the lobby")));
  return retrying;
}

// `at`: a link to a moment (moment.js) opens the timeline at that version.
export function mountCampaign(root, { campaign, watch, navigate, at = null }) {
  let stopped = false;
  let timer = null;
  let stopProbe = () => {};
  let cleanup = () => {};
  let delay = RETRY_FIRST_MS;
  const { token } = watch ? { token: null } : playing(campaign);

  async function attempt() {
    timer = null;
    let entry;
    try {
      entry = await api.describe(campaign, token);
    } catch (error) {
      if (stopped) return;
      const passing = error.code === "offline" || error.code === "unavailable" || error.status >= 500;
      const retry = passing ? { now: () => { clearTimeout(timer); stopProbe(); attempt(); } } : null;
      const title = at === null ? undefined : `Move ${at} of this campaign cannot be shown`;
      const status = unreachable(root, error, { token, campaign, retry, title });
      if (passing) {
        const wait = delay;
        delay = Math.min(RETRY_MAX_MS, delay * 2);
        status.textContent = `Trying again in ${Math.round(wait / 1000)} s…`;
        timer = setTimeout(attempt, wait);
        stopProbe();
        stopProbe = api.whenServerAnswers(() => retry.now()); // or at once, when it is back
      }
      return;
    }
    if (stopped) return;
    if (at !== null && !(Number.isInteger(at) && at >= 1 && at <= entry.entry.version)) {
      const head = entry.entry.version;
      unreachable(root, { message: `This campaign has no move ${at}: its moves run from 1 to ${head}.` },
        { campaign, title: `Move ${at} is not part of this campaign` });
      root.querySelector(".bar-actions").prepend(h("a", { class: "button primary", href: `#/c/${encodeURIComponent(campaign)}/at/${head}` }, `Open its latest move, ${head}`));
      return;
    }
    cleanup = await mountLive(root, { campaign, watch, navigate, entry, at });
    if (stopped) cleanup();
  }

  attempt();
  return () => {
    stopped = true;
    clearTimeout(timer);
    stopProbe();
    cleanup();
  };
}

async function mountLive(root, { campaign, watch, navigate, entry, at }) {
  const { seat, token } = watch ? { seat: null, token: null } : playing(campaign);
  const info = await gameFacts(entry.entry.game);
  const content = await api.content(entry.entry.game).catch(() => ({}));
  const gameTitle = info?.title || entry.entry.game;
  const memory = new Map();
  const story = new Story(campaign, token);
  const turnBar = new TurnBar({ show: () => showChoices() });
  const bots = new BotControls({
    campaign, seat, token, info, changed: () => drawSeats(),
    table: () => ({ seats: replica.seats, connected: replica.connected(), outcome: replica.outcome, online: online(), version: replica.version }),
  });
  turnBar.attach(bots.button, bots.output);
  turnBar.node.append(bots.top);
  const status = h("p", { class: "campaign-status" });
  const notices = h("div", { class: "notices", "aria-live": "polite" });
  const agreeSlot = h("div", { class: "agree-slot" });
  const announcer = h("div", { class: "sr-only", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  const boardSlot = h("div", { class: "board-slot" });
  const extraActions = h("section", { class: "panel actions-panel", "aria-label": "Your actions" });
  const seatsPanel = h("section", { class: "panel seats-panel", "aria-label": "Seats" });
  const recentPanel = h("section", { class: "panel recent-panel", "aria-label": "What just happened" });
  const endSlot = h("section", { class: "panel end-panel", hidden: true, "aria-label": "The end" });
  const timelineSlot = h("div", { class: "timeline-slot" });
  const historyBar = h("div", { class: "history-bar", hidden: true, role: "status" });
  const dangerSlot = h("div", { class: "danger-slot" });
  const howTo = new HowTo({
    game: entry.entry.game, info,
    table: () => ({
      view: history ? history.view : replica.view,
      legal: history ? [] : (replica.legalActions || []).map((action) => action.id),
      seat: replica.seat,
    }),
  });
  const timelineButton = h("button", { type: "button", class: "ghost", "aria-keyshortcuts": "t", onclick: () => (timeline ? closeTimeline() : openTimeline()) }, "Timeline");
  let forkedAt = null; // where a fork's banner says it parted, in moves once the lines are read
  const forkedFrom = entry.entry.parent
    ? h("p", { class: "fork-banner", role: "note" },
      "Forked from ", h("a", { href: `#/c/${encodeURIComponent(entry.entry.parent)}` }, `campaign ${entry.entry.parent.slice(0, 8)}`),
      forkedAt = h("span", { dataset: { version: String(entry.entry.fork_version) } }, " at the move it was forked at"),
      ": a campaign of its own from there on; the original goes on unchanged.")
    : null;
  clear(root,
    turnBar.node,
    h("div", { class: "campaign-bar" },
      h("div", { class: "campaign-heading" }, h("h1", { class: "campaign-title" }, gameTitle), status),
      h("div", { class: "bar-actions" }, howTo.button, timelineButton, dangerSlot, h("a", { class: "button ghost", href: "#/" }, "Lobby"))),
    forkedFrom, agreeSlot, notices, announcer, timelineSlot, historyBar,
    h("div", { class: "campaign-body" },
      h("div", { class: "board-column" }, endSlot, boardSlot),
      h("aside", { class: "sidebar", "aria-label": "The table" }, seatsPanel, bots.node, extraActions, recentPanel, keysHelp())));

  let timeline = null;
  let history = null; // {version, view} while the timeline shows a past move
  let recent = [0, -1, []];
  let ended = false;
  let then = null; // the action that completes a dangerous step the player confirmed
  let keyboard = false; // whether the last input came from the keyboard (focus may scroll then)
  let litTimer = null;
  let offlineNote = null; // what the turn bar says while the connection is down
  let pendingFocus = null; // where the focus goes once the action on its way is answered
  let openAt = at; // a link to a moment: the timeline opens there once the campaign is live

  const connection = new LiveConnection(campaign, { token, name: playerName(), handlers: {} });
  const replica = connection.replica;
  const agreement = new Agreement({
    campaign, seat, token, info, node: agreeSlot,
    notice: (text, tone) => notice(notices, text, tone, "proposal"),
  });
  let sharing = 0; // how many sockets play this page's seat, as the last presence said

  function online() {
    return connection.online;
  }

  function playable() {
    return (replica.legalActions || []).filter((action) => !isDangerous(action));
  }

  function draw() {
    const source = history || { version: replica.version, view: replica.view };
    if (source.view === null || source.view === undefined) return;
    const live = !history;
    const canAct = live && token && replica.outcome === "running" && online();
    const choices = live ? playable() : [];
    const refocus = focusToKeep();
    const sink = new ActionSink(choices, { act: canAct ? act : null, busy: connection.busy });
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
    const state = turnState({
      view: source.view, seat: replica.seat, legal: choices, outcome: replica.outcome, info,
      online: online(), offlineNote, viewingPast: !live,
    });
    clear(extraActions, h("h2", { class: "panel-title" }, live && token ? "Your actions" : "Actions"), rest, actionsNote(rest, choices, state, live));
    clear(dangerSlot, live && token && replica.outcome === "running" && online() ? dangerMenu(replica.legalActions || [], takeDangerous) : null);
    drawStatus();
    status.title = entry.entry.known_luck
      ? "Its luck could be known before a choice (a chosen seed, a fork sharing its luck, or a take-back past a roll or a draw), so its result is counted apart." : "";
    status.dataset.seat = replica.seat || "";
    boardSlot.dataset.version = String(source.version);
    boardSlot.classList.toggle("historic", !live);
    boardSlot.classList.toggle("busy", connection.busy);
    boardSlot.classList.toggle("offline", !online());
    const began = turnBar.update(state, gameTitle);
    if (live) bots.update(replica, online());
    if (began && !ended) announce(`Your move. ${state.detail}`);
    restoreFocus(refocus);
  }

  // "Move 12 · you play Gil": moves as players count them (the story's lines carry them); the
  // version stays in a data attribute.
  function drawStatus() {
    const who = replica.seat ? `you play ${seatName(info, replica.seat)}` : "watching";
    const move = story.moveAt(replica.version);
    const where = move ? `Move ${move}` : "Setting up";
    status.textContent = `${where} · ${who}${entry.entry.known_luck ? " · known luck" : ""}`;
    status.dataset.version = String(replica.version);
    status.dataset.move = String(move);
    if (history) drawHistoryBar();
    if (forkedAt && story.lines.length) forkedAt.textContent = ` after ${moveName(story.moveAt(entry.entry.fork_version))}`;
  }

  function drawHistoryBar() {
    const version = Number(historyBar.dataset.version);
    clear(historyBar, `Showing ${moveName(story.moveAt(version))} of ${story.moveAt(replica.version)} as ${historyBar.dataset.as} sees it.`);
  }

  // What "Your actions" says under its buttons: never that there is nothing to do while the seat
  // has a choice somewhere on the board.
  function actionsNote(rest, choices, state, live) {
    if (!live) return h("p", { class: "muted" }, "Looking at an earlier move: no actions.");
    if (!token) return h("p", { class: "muted" }, "Watching: spectators cannot act.");
    if (replica.outcome !== "running") return h("p", { class: "muted" }, "The campaign is over.");
    if (!online()) return h("p", { class: "muted" }, "Offline: your actions come back with the connection.");
    if (choices.length && !rest) {
      return h("p", {}, choices.length === 1 ? "Your choice is on the board. " : `Your ${choices.length} choices are on the board. `,
        h("button", { type: "button", class: "ghost small", onclick: () => showChoices() }, "Show me"));
    }
    if (!choices.length) return h("p", { class: "muted" }, state.detail);
    return null;
  }

  function actionButtons() {
    return [...boardSlot.querySelectorAll("button.action:not([disabled])"), ...extraActions.querySelectorAll("button.action:not([disabled])")];
  }

  // Bring the first choice into view, focus it, and light up where the choices are.
  function showChoices() {
    const first = actionButtons()[0];
    if (!first) return;
    const group = first.closest("details");
    if (group) group.open = true;
    first.scrollIntoView({ block: "center", behavior: "smooth" });
    first.focus({ preventScroll: true });
    for (const node of [boardSlot, extraActions]) node.classList.add("choices-lit");
    clearTimeout(litTimer);
    litTimer = setTimeout(() => {
      for (const node of [boardSlot, extraActions]) node.classList.remove("choices-lit");
    }, LIT_MS);
  }

  // Before a redraw replaces the buttons: the action that had the focus, if focus was among them
  // (or is still waiting, on the turn bar, for the buttons an action on its way disabled).
  function focusToKeep() {
    const active = document.activeElement;
    if (pendingFocus && (active === turnBar.headline || active === document.body)) return pendingFocus;
    pendingFocus = null;
    if (!(active instanceof HTMLElement)) return null;
    if (!boardSlot.contains(active) && !extraActions.contains(active) && !dangerSlot.contains(active)) return null;
    return { action: active.dataset.action || null };
  }

  // After a redraw: focus lands on the same action if it is still there, else on the seat's next
  // choice, else on the turn bar (until an action on its way is answered), so a keyboard player
  // never falls back to the top of the page.
  function restoreFocus(kept) {
    const active = document.activeElement;
    if (!kept || (active !== document.body && active !== turnBar.headline)) return;
    const buttons = actionButtons();
    const next = buttons.find((button) => button.dataset.action === kept.action) || buttons[0] || turnBar.headline;
    pendingFocus = next === turnBar.headline && connection.busy ? kept : null;
    next.focus({ preventScroll: !keyboard });
    if (keyboard && next !== turnBar.headline) next.scrollIntoView({ block: "nearest" });
  }

  function announce(text) {
    announcer.textContent = "";
    // a separate task, so that the same words said twice are announced twice
    setTimeout(() => { announcer.textContent = text; }, 50);
  }

  function act(action) {
    if (connection.act(action)) draw();
  }

  function takeDangerous(danger, action) {
    then = danger.then && danger.then !== action.id ? danger.then : null;
    act(action.id);
  }

  function drawSeats() {
    renderSeats(seatsPanel, {
      campaign,
      replica,
      info,
      online: online(),
      playing: replica.seat,
      bots: bots.bots,
      download: () => download(),
      switchTo: async (next) => {
        if (next && !(await mayTake(next))) return;
        choose(campaign, next);
        navigate(next ? `#/c/${campaign}` : `#/c/${campaign}/watch`, { reload: true });
      },
    });
  }

  // Taking a seat someone plays now is asked first: their page is told (it sees a second page on
  // its seat), and this page's own seat is left without its player.
  async function mayTake(next) {
    const holders = (replica.presence?.seats || []).filter((entry) => entry.seat === next);
    if (!holders.length) return true;
    const name = seatName(info, next);
    const named = holders.map((entry) => entry.name).filter(Boolean);
    const who = named.length ? named.join(", ") : "another player";
    const mine = replica.seat ? ` This page stops playing ${seatName(info, replica.seat)}, which is left without a player here.` : "";
    return confirmDanger({
      title: `Play as ${name}?`,
      lost: `${name} is being played by ${who}, connected now. Both of you would play ${name}, and their page is told that you joined it.${mine}`,
      confirm: `Play as ${name}`,
      safe: replica.seat ? `Stay as ${seatName(info, replica.seat)}` : "Keep watching",
    });
  }

  // Somebody else opened this page's seat: say so, once each time it happens.
  function seatShared() {
    if (!replica.seat) return;
    const here = (replica.presence?.seats || []).filter((entry) => entry.seat === replica.seat);
    if (here.length > 1 && sharing <= 1) {
      const others = here.map((entry) => entry.name).filter((name) => name && name !== playerName());
      const who = others.length ? others.join(", ") : "Someone";
      notice(notices, `${who} also plays ${seatName(info, replica.seat)} now, from another page: either of you may take its moves.`, "warn", "seat-shared");
    }
    sharing = here.length;
  }

  // The export file, saved by the browser as a download.
  async function download() {
    try {
      const { blob, filename } = await api.exportFile(campaign, token);
      const url = URL.createObjectURL(blob);
      const link = h("a", { href: url, download: filename, hidden: true });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (error) {
      notice(notices, `The file could not be made: ${error.message}`, "error", "download");
    }
  }

  async function showEnd() {
    if (ended || replica.outcome === "running") return;
    ended = true;
    let described = null;
    try {
      described = await api.describe(campaign, token);
    } catch {
      described = null;
    }
    await story.refresh().catch(() => {});
    const reason = story.lines.length ? story.lines[story.lines.length - 1].text : "";
    endSlot.hidden = false;
    drawEnd(endSlot, { outcome: replica.outcome, reason, described, download: token ? download : null });
    endSlot.append(analysisOffer({ campaign, token, navigate, moveOf: (version) => moveName(story.moveAt(version) + 1) }));
    drawSeats(); // the seat's file is complete now
    announce(`${replica.outcome === "won" ? "Won" : "Lost"}. ${reason}`);
  }

  async function refreshStory(range, events) {
    recent = [...range, events];
    try {
      await story.refresh();
    } catch {
      // the lines stay as they were; the event types below stand in for them
    }
    renderRecent(recentPanel, story, [recent[0], recent[1]], recent[2]);
    drawStatus();
    if (timeline) timeline.position(); // new lines, and the fork and rewind points with them
    const said = story.between(range[0], range[1]).slice(-3).map((line) => line.text);
    if (said.length && range[0] > 0) announce(said.join(" "));
  }

  connection.handlers = {
    change: (_, message) => {
      if (message.type === "welcome") {
        const delay = message.spectator_delay;
        if (delay) notice(notices, `This board shows the game ${behindTable(delay)} behind the table; the players see each move before you do.`, "info", "delay", true);
        const behind = entry.spectator_delay;
        if (token && behind && message.outcome === "running") {
          notice(notices, `Spectators see this game ${behindTable(behind)} behind you, so what you say aloud may be ahead of what they see.`, "info", "delay", true);
        }
        drawSeats();
        agreement.refresh();
        const missed = message.missed || [];
        const first = missed.length ? missed[0].version : message.version;
        refreshStory([first, message.version], missed);
      } else if (message.type === "update" || message.type === "accepted") {
        refreshStory([message.first, message.version], message.events || []);
      } else {
        refreshStory([replica.version, replica.version], []);
      }
      agreement.moved(replica.version);
      if (timeline) timeline.grown();
      if (openAt !== null && message.type === "welcome" && !timeline) openTimeline(openAt);
      openAt = null;
      draw();
      if (then && !connection.busy) {
        const next = then;
        then = null;
        if ((replica.legalActions || []).some((action) => action.id === next)) act(next);
      }
      if (replica.outcome !== "running") notices.querySelector('[data-notice="delay"]')?.remove(); // the delay ends with the campaign
      showEnd();
    },
    presence: () => {
      drawSeats();
      seatShared();
      bots.presenceChanged();
    },
    proposal: (message) => agreement.pushed(message),
    rewound: (message) => agreement.pushed(message),
    status: (state, detail) => {
      if (state === "down") {
        notice(notices, `The connection dropped. Reconnecting in ${Math.round(detail.delay / 100) / 10} s (attempt ${detail.attempt})…`, "warn", "connection");
        offlineNote = `The connection dropped; trying again in ${Math.round(detail.delay / 100) / 10} s. Your actions wait until it is back.`;
      } else if (state === "open") {
        notices.querySelector('[data-notice="connection"]')?.remove();
        offlineNote = null;
      } else if (state === "closed") {
        notice(notices, `The server closed the connection: ${detail.reason || "the campaign cannot be opened"}.`, "error", "connection");
        offlineNote = "The server closed the connection; reload the page to try again.";
      }
      drawSeats();
      draw();
    },
    problem: ({ code, message }) => {
      const plain = PROBLEMS[code];
      notice(notices, plain ? `${plain} (${message})` : message, code === "stale_version" ? "warn" : "error", "problem");
      draw();
    },
  };

  function openTimeline(start = null) {
    timeline = new Timeline({
      campaign,
      token,
      start,
      story,
      head: () => replica.version,
      outcome: () => replica.outcome,
      show: (version, view) => {
        history = { version, view };
        historyBar.hidden = false;
        const as = replica.seat ? seatName(info, replica.seat) : "a spectator";
        historyBar.dataset.version = String(version);
        historyBar.dataset.as = as;
        drawHistoryBar();
        draw();
      },
      leave: closeTimeline,
      proposed: (proposal) => agreement.show(proposal),
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

  function onKey(event) {
    keyboard = true;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    if (document.querySelector("dialog[open]")) return;
    if (event.key === "n" || event.key === "N") {
      event.preventDefault();
      showChoices();
    } else if (event.key === "?") {
      event.preventDefault();
      howTo.open();
    } else if (event.key === "t" || event.key === "T") {
      event.preventDefault();
      if (timeline) closeTimeline();
      else openTimeline();
    }
  }
  const onPointer = () => { keyboard = false; };
  document.addEventListener("keydown", onKey);
  document.addEventListener("pointerdown", onPointer);

  connection.start();
  return () => {
    document.removeEventListener("keydown", onKey);
    for (const dialog of document.querySelectorAll("dialog.how-to")) dialog.remove();
    bots.stop();
    agreement.stop();
    document.removeEventListener("pointerdown", onPointer);
    clearTimeout(litTimer);
    timeline?.close();
    connection.close();
    document.title = "tabletale";
  };
}

function keysHelp() {
  const key = (k, what) => [h("dt", {}, h("kbd", {}, k)), h("dd", {}, what)];
  return h("details", { class: "panel keys-help" },
    h("summary", {}, "Keyboard"),
    h("dl", { class: "keys" },
      key("Tab", "the next control (Shift+Tab: the one before)"),
      key("Enter", "take the action or open the group in focus"),
      key("N", "go to your choices"),
      key("T", "open or close the timeline"),
      key("H", "ask for a hint on your move"),
      key("?", "how to play, at the part the table is in"),
      key("Esc", "close a dialog without doing anything")));
}
