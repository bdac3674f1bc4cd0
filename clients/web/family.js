// The family tree page (#/c/<campaign>/family[/<version>]): the campaign's lineage drawn as lanes,
// the same branches as a list in words, and two branches compared. Reached from the timeline,
// with the move it showed ringed.

import * as api from "./api.js";
import { gameFacts } from "./campaign.js";
import { Comparison } from "./compare.js";
import { clear, h, plural } from "./dom.js";
import { Lineage, PAGES_AT_ONCE, branchName, outcomeOf } from "./lineage.js";
import { momentHash } from "./moment.js";
import { playing } from "./seats.js";
import { FamilyMoves } from "./moves.js";
import { drawTree } from "./tree.js";
import { seatName } from "./turn.js";

// Each branch's name: forks numbered in the lineage's order, so that "Fork 2" means one thing on
// the graph, in the list and in the comparison.
function namesOf(branches, words) {
  const names = new Map();
  let forks = 0;
  for (const branch of branches) {
    if (branch.kind === "fork" && !(branch.private && !branch.first)) forks += 1;
    names.set(branch.id, branchName(branch, branch.kind === "fork" ? forks : null, words));
  }
  return names;
}

// The moves a branch made of its own: after its parting point (or its start) up to its last.
function ownMoves(branch, moves) {
  const from = branch.parent ? branch.parent.version : 0;
  const counted = moves.between(branch.campaign, from, branch.last);
  return counted === null ? branch.moves ?? 0 : counted;
}

function listItem(branch, names, campaign, moves) {
  const outcome = outcomeOf(branch);
  const mine = branch.campaign === campaign && branch.kind !== "undone";
  if (!branch.first) {
    return h("li", { class: "branch private", dataset: { branch: branch.id } },
      h("span", { class: "branch-name" }, names.get(branch.id)), " — its moves are not shown to this browser.");
  }
  const parent = branch.parent ? names.get(branch.parent.branch) || "a private branch" : null;
  return h("li", { class: `branch branch-${branch.kind}${mine ? " mine" : ""}`, dataset: { branch: branch.id } },
    h("span", { class: "branch-name" }, names.get(branch.id), mine ? " (this campaign)" : ""),
    h("span", { class: `outcome outcome-${outcome.kind}` }, ` ${outcome.mark} ${outcome.words}`),
    h("span", { class: "branch-detail muted" },
      parent ? ` · parts from ${parent} after ${moves.name(branch.campaign, branch.parent.version)}` : "",
      ` · ${plural(ownMoves(branch, moves), "move")} of its own`,
      branch.ended ? ` · ${branch.ended}` : "",
      branch.made_ms ? ` · ${new Date(branch.made_ms).toLocaleString()}` : ""),
    h("span", { class: "branch-links" },
      // a fork with no move of its own yet opens where it starts, its last (its parent's) move
      branch.first <= branch.last ? h("a", { href: momentHash(branch.campaign, branch.first) }, `Open at ${moves.name(branch.campaign, branch.first)}`) : null,
      branch.last !== branch.first ? h("a", { href: momentHash(branch.campaign, branch.last) }, `Open at ${moves.name(branch.campaign, branch.last)}`) : null));
}

export function mountFamily(root, { campaign, version }) {
  let stopped = false;
  const { token } = playing(campaign);
  const lineage = new Lineage(campaign, token);
  const status = h("p", { class: "muted", role: "status", "aria-live": "polite" }, "Reading the family tree…");
  const back = version
    ? h("a", { class: "button ghost", href: momentHash(campaign, version) }, "Back to the timeline")
    : h("a", { class: "button ghost", href: `#/c/${encodeURIComponent(campaign)}` }, "Back to the campaign");
  const graph = h("div", {
    class: "tree-box", tabindex: 0, role: "region", "aria-label": "The family tree drawn (scrolls sideways)", dataset: { scrolls: "" },
  });
  const list = h("ol", { class: "branch-list" });
  const more = h("div", { class: "tree-more" });
  const hint = h("p", { class: "tree-hint muted small", hidden: true }, "The tree scrolls sideways; the list below says the same in words.");
  const compareSlot = h("div", { class: "compare-slot" });
  clear(root,
    h("div", { class: "campaign-bar" },
      h("div", { class: "campaign-heading" }, h("h1", { class: "campaign-title" }, "Family tree"),
        h("p", { class: "campaign-status" }, "Every fork and every stretch of moves a rewind undid, with where each parts.")),
      h("div", { class: "bar-actions" }, back, h("a", { class: "button ghost", href: "#/" }, "Lobby"))),
    status,
    h("section", { class: "panel tree-panel", "aria-label": "Branches" },
      h("p", { class: "tree-legend muted small" },
        "● a branch starts or parts  ◆ a rewind  ■ its last move  ◎ the move you came from. A dashed lane was undone by a rewind; a dotted line passes over the moves a rewind undid. Each point opens the timeline there."),
      graph, hint, more,
      h("h2", { class: "panel-title" }, "The branches in words"), list),
    compareSlot);

  let comparison = null;
  const moves = new FamilyMoves();
  let info = null;
  const words = { move: (owner, at) => moves.name(owner, at), seat: (id) => seatName(info, id) };

  function render() {
    const names = namesOf(lineage.branches, words);
    const here = version ? { campaign, version } : null;
    const line = lineage.line(campaign);
    const ring = here || (line?.last ? { campaign, version: line.last } : null);
    const narrow = matchMedia("(max-width: 700px)").matches;
    clear(graph, drawTree(lineage.branches, { names, here: ring, campaign, narrow, moves }));
    hint.hidden = graph.scrollWidth <= graph.clientWidth;
    clear(list, lineage.branches.map((b) => listItem(b, names, campaign, moves)));
    const count = plural(lineage.branches.length, "branch", "branches");
    status.textContent = lineage.complete ? `${count}.` : `The first ${count}; there are more.`;
    clear(more, lineage.complete ? null
      : h("button", { type: "button", class: "ghost more-branches", onclick: () => grow() }, "Show more branches"));
    if (comparison) comparison.family.names = names;
    return names;
  }

  async function grow() {
    more.querySelector("button")?.setAttribute("disabled", "");
    try {
      await lineage.load(PAGES_AT_ONCE);
      await moves.load(lineage.branches.map((b) => b.campaign));
    } catch (error) {
      status.textContent = `More branches could not be read: ${error.message}`;
    }
    if (stopped) return;
    const names = render();
    if (comparison) {
      const picked = [comparison.first.value, comparison.second.value];
      clear(comparison.first, comparison.branchOptions(picked[0]));
      clear(comparison.second, comparison.branchOptions(picked[1]));
      comparison.family.names = names;
    }
  }

  async function start() {
    let described;
    try {
      described = await api.describe(campaign, token);
      await lineage.load();
      info = await gameFacts(described.entry.game);
      await moves.load(lineage.branches.map((b) => b.campaign));
    } catch (error) {
      if (stopped) return;
      clear(root,
        h("h1", { class: "page-title" }, "This family tree cannot be shown"),
        h("div", { class: "notice notice-error", role: "alert" }, error.message),
        h("div", { class: "bar-actions" }, h("a", { class: "button", href: "#/" }, "Back to the lobby")));
      return;
    }
    if (stopped) return;
    const names = render();
    const game = described.entry.game;
    const content = await api.content(game).catch(() => ({}));
    if (stopped) return;
    comparison = new Comparison({ lineage, names, game, content, info, seats: described.seats, moves });
    const mine = lineage.holding(campaign, version || Infinity)?.id || campaign;
    const other = lineage.branches.find((b) => b.id !== mine && b.last)?.id || mine;
    comparison.mount(compareSlot, mine, other);
  }

  start();
  return () => {
    stopped = true;
  };
}
