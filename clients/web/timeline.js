// The timeline: a scrubber over every version of the campaign that shows the view at that point
// (as this viewer may see it: GET .../state?at=N with the seat token), the readable lines beside
// it, play and pause through the replay socket at a chosen speed, and fork or rewind from there.
//
// Only decision points (versions where a seat had a decision to make) can be forked or rewound
// to: the timeline offers fork and rewind at the versions the server lists (the runs of `points`
// near the head and near the version shown, and the replay's `decision_point`), marks them on the
// scrubber and the lines,
// and says why when the version shown is not one. A finished campaign is never rewound; it is
// forked with new luck instead.

import * as api from "./api.js";
import { confirmDanger } from "./danger.js";
import { clear, h, s } from "./dom.js";
import { copyMomentControl, familyHash } from "./moment.js";
import { applyPatch } from "./patch.js";
import { moveName } from "./story.js";

const SPEEDS = [1, 2, 5, 10, 25];

// A bar and a triangle: to the first version (pointing left) or the latest (right).
function endIcon(right) {
  const shape = right ? "M3,2 L11,8 L3,14 Z M12,2 h2 v12 h-2 Z" : "M13,2 L5,8 L13,14 Z M2,2 h2 v12 h-2 Z";
  return s("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true" }, s("path", { d: shape, fill: "currentColor" }));
}

// Play, pause and a step either way, drawn (a font may have no glyph for the pause sign).
const SHAPES = {
  play: "M4,2 L14,8 L4,14 Z",
  pause: "M3,2 h4 v12 h-4 Z M9,2 h4 v12 h-4 Z",
  back: "M12,2 L3,8 L12,14 Z",
  on: "M4,2 L13,8 L4,14 Z",
};

function icon(name) {
  return s("svg", { viewBox: "0 0 16 16", width: 14, height: 14, "aria-hidden": "true", class: "icon" }, s("path", { d: SHAPES[name], fill: "currentColor" }));
}

function playLabel(playing) {
  return playing ? [icon("pause"), " Pause"] : [icon("play"), " Play"];
}

export class Timeline {
  // host: {campaign, token, start, story, head(), outcome(), show(version, view), leave(),
  //        forked(created), notice(text, tone)}; `start`: the version to open at (default the head)
  constructor(host) {
    this.host = host;
    this.version = host.start ?? host.head();
    this.replay = null;
    this.asked = 0;
    this.decisions = new Map(); // version -> the replay's decision_point
    this.node = h("section", { class: "timeline", "aria-label": "Timeline" });
    this.lineList = h("ol", { class: "timeline-lines" });
  }

  get playing() {
    return this.replay !== null;
  }

  mount(slot, lines) {
    slot.append(this.node);
    this.linesSlot = lines;
    this.render();
    this.go(this.version);
  }

  render() {
    const head = this.host.head();
    const speed = h("select", { class: "speed", "aria-label": "Replay speed", onchange: () => { this.speed = Number(speed.value); if (this.playing) { this.pause(); this.play(); } } },
      SPEEDS.map((value) => h("option", { value: String(value), selected: value === (this.speed || 5) }, `${value} per second`)));
    this.speed = Number(speed.value);
    this.scrubber = h("input", {
      type: "range", class: "scrubber", min: 1, max: head, value: this.version, "aria-label": "Move",
      oninput: () => { this.pause(); this.go(Number(this.scrubber.value)); },
    });
    this.label = h("span", { class: "position" });
    this.playButton = h("button", { type: "button", class: "play", onclick: () => (this.playing ? this.pause() : this.play()) }, playLabel(false));
    clear(this.node,
      h("div", { class: "timeline-row" },
        h("button", { type: "button", class: "ghost first", title: "The first move", "aria-label": "The first move", onclick: () => { this.pause(); this.go(1); } }, endIcon(false)),
        h("button", { type: "button", class: "ghost step-back", title: "One move back", "aria-label": "One move back", onclick: () => { this.pause(); this.go(this.version - 1); } }, icon("back")),
        this.playButton,
        h("button", { type: "button", class: "ghost step-on", title: "One move on", "aria-label": "One move on", onclick: () => { this.pause(); this.go(this.version + 1); } }, icon("on")),
        h("button", { type: "button", class: "ghost latest", title: "The latest move", "aria-label": "The latest move", onclick: () => { this.pause(); this.go(this.host.head()); } }, endIcon(true)),
        h("div", { class: "scrub" }, this.scrubber, this.ticks = h("div", { class: "ticks", "aria-hidden": "true" })),
        this.label, speed),
      h("div", { class: "timeline-row actions-row" },
        h("button", { type: "button", class: "ghost prev-point", title: "The decision point before", onclick: () => this.toPoint(-1) }, "◆ Previous decision"),
        h("button", { type: "button", class: "ghost next-point", title: "The decision point after", onclick: () => this.toPoint(1) }, "Next decision ◆"),
        this.forkButton = h("button", { type: "button", class: "fork", onclick: () => this.fork() }, "Fork from here"),
        this.rewindButton = h("button", { type: "button", class: "rewind", onclick: () => this.rewind() }, "Rewind to here"),
        h("button", { type: "button", class: "ghost live", onclick: () => this.host.leave() }, this.host.token ? "Back to live play" : "Back to the live game")),
      this.why = h("p", { class: "point-note", role: "status" }),
      h("div", { class: "timeline-row share-row" },
        this.familyLink = h("a", { class: "button ghost family-tree", href: "#" }, "Family tree"),
        copyMomentControl(() => ({ campaign: this.host.campaign, version: this.version }))));
    this.renderLines();
  }

  get finished() {
    return this.host.outcome() !== "running";
  }

  // A decision point: listed among the fork points, and not contradicted by the replay.
  isPoint(version) {
    return this.host.story.isPoint(version) && this.decisions.get(version) !== false;
  }

  canRewind(version) {
    return Boolean(this.host.token) && !this.finished && this.isPoint(version) && this.host.story.isPoint(version, "rewind");
  }

  nearest(version) {
    const story = this.host.story;
    return [story.pointBefore(version), story.pointAfter(version)].filter((v) => v !== undefined);
  }

  // "move 12" for a version, as players count moves (the story's lines carry them).
  moveOf(version) {
    return moveName(this.host.story.moveAt(version));
  }

  toPoint(direction) {
    const story = this.host.story;
    const found = direction < 0 ? story.pointBefore(this.version) : story.pointAfter(this.version);
    if (found !== undefined) {
      this.pause();
      this.go(found);
    }
  }

  // Why the version shown can or cannot be forked and rewound to, and the buttons to match.
  pointControls() {
    if (!this.forkButton) return;
    const version = this.version;
    const point = this.isPoint(version);
    const rewind = this.canRewind(version);
    const story = this.host.story;
    // A spectator is offered only what a spectator may do: no rewind, and a fork once it is over.
    const watching = !this.host.token;
    this.forkButton.textContent = this.finished ? "Fork with new luck from here" : "Fork from here";
    this.forkButton.hidden = watching && !this.finished;
    this.forkButton.disabled = !point;
    this.rewindButton.hidden = this.finished || watching;
    this.rewindButton.disabled = !rewind;
    this.node.querySelector(".prev-point").disabled = story.pointBefore(version) === undefined;
    this.node.querySelector(".next-point").disabled = story.pointAfter(version) === undefined;
    const parts = [];
    if (watching && !this.finished) {
      parts.push("You are watching: a spectator may fork this campaign once it is over (a fork deals out every seat, and with them the cards the players keep hidden), and only its players rewind it.");
    } else if (!point) {
      const near = this.nearest(version);
      const first = story.firstPoint();
      if (first !== undefined && version < first) {
        parts.push(`This comes before ${this.moveOf(first)}, the first place this campaign can be forked at or rewound to (the end of its set-up, or where a fork took new luck).`);
      } else {
        parts.push(`This is partway through ${this.moveOf(version)}, not a decision point: no seat had a decision to make here (the game was still resolving an action), so it cannot be forked or rewound to.`);
      }
      if (near.length) {
        parts.push(" Nearest: ", near.map((v) => h("button", { type: "button", class: "small ghost goto", dataset: { version: String(v) }, onclick: () => { this.pause(); this.go(v); } }, `the end of ${this.moveOf(v)}`)));
      }
    } else if (this.finished) {
      parts.push("The campaign is over and its seed is revealed, so it is not rewound: a fork from here plays on with new luck.");
    } else if (!rewind) {
      if (version >= this.host.head()) parts.push("A decision point: the latest move, so there is nothing to rewind.");
      else parts.push("A decision point, but not one the campaign can be rewound to.");
    } else {
      parts.push(`A decision point: fork a new campaign from the end of ${this.moveOf(version)}, or rewind this one to it.`);
    }
    clear(this.why, parts);
    this.why.classList.toggle("not-point", !point);
  }

  // The known runs of decision points as ticks under the scrubber, one per run.
  renderTicks() {
    if (!this.ticks) return;
    const head = this.host.head();
    const span = Math.max(1, head - 1);
    const at = (v) => ((Math.min(v, head) - 1) / span) * 100;
    clear(this.ticks, this.host.story.runs().filter(([first]) => first <= head).map(([first, last]) =>
      h("span", {
        class: `tick${first <= this.version && this.version <= last ? " here" : ""}`,
        style: `left: ${at(first)}%; min-width: ${at(last) - at(first)}%`,
      })));
  }

  renderLines() {
    if (!this.linesSlot) return;
    const current = this.host.story.at(this.version)?.version;
    const story = this.host.story;
    const points = { has: (version) => story.isPoint(version) };
    clear(this.linesSlot,
      h("h3", {}, "Timeline"),
      h("p", { class: "muted small legend-line" }, h("span", { class: "dp" }, "◆"), " a decision point: fork or rewind there"),
      // the list scrolls: it takes the keyboard's focus so that arrow keys scroll it
      h("ol", { class: "timeline-lines", tabindex: 0, "aria-label": "What happened, move by move" }, this.host.story.lines.map((line) =>
        h("li", {
          class: [line.version === current ? "current" : line.version > this.version ? "later" : "", points.has(line.version) ? "decision" : ""].join(" ").trim(),
          dataset: { version: String(line.version) },
          onclick: () => { this.pause(); this.go(line.version); },
        }, h("span", { class: "v" }, `${line.move || "–"}`), h("span", { class: "dp", title: points.has(line.version) ? "A decision point" : "" }, points.has(line.version) ? "◆" : ""), h("span", {}, line.text)))));
    // scroll the list only (scrollIntoView would move the page too)
    const list = this.linesSlot.querySelector(".timeline-lines");
    const shown = list?.querySelector(".current");
    if (shown) list.scrollTop = shown.offsetTop - list.clientHeight / 2 + shown.clientHeight / 2;
  }

  position() {
    const head = this.host.head();
    this.scrubber.max = head;
    this.scrubber.value = this.version;
    this.label.textContent = `${this.moveOf(this.version)} of ${this.host.story.moveAt(head)}`;
    this.label.dataset.version = String(this.version);
    this.label.dataset.head = String(head);
    this.scrubber.setAttribute("aria-valuetext", this.label.textContent);
    this.familyLink.href = familyHash(this.host.campaign, this.version);
    this.renderLines();
    this.renderTicks();
    this.pointControls();
  }

  // Show version `version` (clamped), fetched as this viewer may see it.
  async go(version) {
    const head = this.host.head();
    this.version = Math.max(1, Math.min(head, version));
    this.position();
    const asked = ++this.asked;
    try {
      const state = await api.state(this.host.campaign, this.host.token, this.version);
      if (asked === this.asked) {
        // the points around the version shown come with it
        this.host.story.takePoints("shown", state.points);
        this.position();
        this.host.show(state.version, state.view);
      }
    } catch (error) {
      if (asked === this.asked) this.host.notice(error.message, "error");
    }
  }

  play() {
    if (this.version >= this.host.head()) this.version = 1;
    const socket = new WebSocket(api.socketUrl(this.host.campaign, `/replay?from=${this.version}&speed=${this.speed}`));
    this.replay = socket;
    this.asked += 1; // a scrub answer still on its way must not overwrite the replay
    let view = null;
    socket.addEventListener("open", () => socket.send(JSON.stringify({ type: "hello", token: this.host.token })));
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (socket !== this.replay) return;
      if (message.type === "welcome") view = message.view;
      else if (message.type === "update") view = applyPatch(view, message.patch);
      else if (message.type === "error") this.host.notice(message.message, "error");
      if (message.type === "welcome" || message.type === "update") {
        if (typeof message.decision_point === "boolean") this.decisions.set(message.version, message.decision_point);
        this.version = message.version;
        this.position();
        this.host.show(message.version, view);
      }
    });
    socket.addEventListener("close", () => {
      if (socket === this.replay) this.stopped();
    });
    this.playButton.replaceChildren(...playLabel(true));
  }

  pause() {
    const socket = this.replay;
    if (!socket) return;
    this.stopped();
    socket.close(1000);
  }

  stopped() {
    this.replay = null;
    this.playButton.replaceChildren(...playLabel(false));
  }

  async fork() {
    this.pause();
    try {
      // a finished campaign's luck is known: its forks get new luck
      const created = await api.fork(this.host.campaign, this.host.token, this.version, this.finished);
      this.host.forked(created, this.version);
    } catch (error) {
      this.host.notice(`Cannot fork at ${this.moveOf(this.version)}: ${error.message}`, "error");
    }
  }

  // A rewind the seat may make alone (a table of one person, or its own last move with no luck
  // drawn since) is made at once; otherwise the other people's seats are asked (agree.js).
  async rewind() {
    this.pause();
    const story = this.host.story;
    const undone = story.moveAt(this.host.head()) - story.moveAt(this.version);
    const here = this.moveOf(this.version);
    const asked = await confirmDanger({
      title: `Rewind to ${here}?`,
      lost: `The ${undone === 1 ? "last move is" : `last ${undone} moves are`} undone for every seat, and play goes on from ${here}. `
        + "At a table of several people the others are asked to agree first, unless you take back only your own last move. "
        + "The undone moves stay readable in the timeline; to play on from them instead, fork from here.",
      confirm: `Rewind to ${here}`,
    });
    if (!asked) return;
    try {
      const answer = await api.propose(this.host.campaign, this.host.token, this.version, this.host.head());
      if (answer.proposal) {
        this.host.proposed(answer.proposal);
        this.host.notice(`Asked the others to agree to rewind to ${here}; nothing changes until they do.`, "info");
      } else {
        this.host.notice(`Rewound to ${here}.`, "ok");
      }
      this.host.leave();
    } catch (error) {
      this.host.notice(`Cannot rewind to ${here}: ${error.message}`, "error");
    }
  }

  // The campaign moved on while the timeline is open: the scrubber grows.
  grown() {
    this.position();
  }

  close() {
    this.pause();
    this.asked += 1;
    this.node.remove();
  }
}
