// A campaign's family (GET /api/campaigns/{id}/lineage): the root, every fork at any depth and
// every stretch of moves a rewind undid, as branches; and the history that leads to any moment of
// it, from which two branches' parting point is found.
//
// A moment is {campaign, version}. Versions count up across a family: a fork's versions up to
// its fork point are its parent's, so the moment that holds a state is named by the campaign whose
// own event made it. A version's state is the one before it with its event applied, except after
// a rewind, whose state is the state of the version it returned to.

import * as api from "./api.js";

export const PAGE = 100;
// Branches are fetched a few pages at a time; past that the family tree offers "more".
export const PAGES_AT_ONCE = 3;

export class Lineage {
  constructor(campaign, token) {
    this.campaign = campaign;
    this.token = token;
    this.root = null;
    this.branches = [];
    this.next = undefined; // undefined: nothing fetched yet; null: every page fetched
  }

  get complete() {
    return this.next === null;
  }

  // Fetch up to `pages` more pages of branches.
  async load(pages = PAGES_AT_ONCE) {
    for (let page = 0; page < pages && this.next !== null; page += 1) {
      const answer = await api.lineage(this.campaign, this.token, this.next ?? null, PAGE);
      this.root = answer.root;
      this.branches.push(...answer.branches);
      this.next = answer.next ?? null;
    }
    this.index();
  }

  index() {
    this.byId = new Map(this.branches.map((branch) => [branch.id, branch]));
    this.rewinds = new Map(); // campaign -> Map(version of a Rewound event -> version it returned to)
    const note = (campaign, at, to) => {
      if (!this.rewinds.has(campaign)) this.rewinds.set(campaign, new Map());
      this.rewinds.get(campaign).set(at, to);
    };
    for (const branch of this.branches) {
      for (const { at, to } of branch.rewinds || []) note(branch.campaign, at, to);
      if (branch.kind === "undone" && branch.parent && branch.undone_at) note(branch.campaign, branch.undone_at, branch.parent.version);
    }
  }

  branch(id) {
    return this.byId?.get(id) || null;
  }

  // The current line of `campaign` (the branch named by the campaign's own id).
  line(campaign) {
    return this.branch(campaign);
  }

  // The branch of `campaign` that holds `version`: an undone stretch when the version is one a
  // rewind undid, else the campaign's current line.
  holding(campaign, version) {
    const stretch = this.branches.find((b) => b.kind === "undone" && b.campaign === campaign && b.first <= version && version <= b.last);
    return stretch || this.line(campaign);
  }

  // Every moment that leads to version `version` of `campaign`, oldest first, ending with it.
  history(campaign, version) {
    const path = [];
    let owner = campaign;
    let at = version;
    while (at >= 1) {
      const line = this.line(owner);
      const forkedAt = line?.parent && line.kind === "fork" ? line.parent.version : 0;
      if (at <= forkedAt) {
        owner = line.parent.campaign;
        continue;
      }
      path.push({ campaign: owner, version: at });
      // a private ancestor is a placeholder: its rewinds are unknown, its moves taken as they come
      const to = this.rewinds.get(owner)?.get(at);
      at = to !== undefined ? to : at - 1;
    }
    return path.reverse();
  }

  // The moments of branch `id`, from the family's first to the branch's last.
  path(id) {
    const branch = this.branch(id);
    return branch && branch.last ? this.history(branch.campaign, branch.last) : [];
  }
}

const same = (a, b) => a && b && a.campaign === b.campaign && a.version === b.version;

// Where the histories `a` and `b` (lists of moments) part: how many moments they share. Two
// campaigns' own moves may still be the same events (two forks of one point that played alike
// with the same luck): `common`, the server's last shared version, carries the count on past them.
export function shared(a, b, common = 0) {
  let count = 0;
  while (count < a.length && count < b.length && same(a[count], b[count])) count += 1;
  while (count < a.length && count < b.length && a[count].version === b[count].version && a[count].version <= common) count += 1;
  return count;
}

// How a branch is named to a person: its kind, where it starts and who made it. `words` says a
// version as a move ({move(campaign, version)}: FamilyMoves.name) and a seat as the game names
// it ({seat(id)}).
export function branchName(branch, number = null, words = {}) {
  if (branch.private && !branch.first) return "A private branch";
  const move = words.move || ((_, version) => `move ${version}`);
  const seat = words.seat || ((id) => id);
  const by = branch.made_by ? ` by ${seat(branch.made_by)}` : "";
  if (branch.kind === "root") return "The original campaign";
  if (branch.kind === "undone") {
    const first = move(branch.campaign, branch.first);
    const last = move(branch.campaign, branch.last);
    const moves = first === last ? first : `${first} to ${last}`;
    return `${moves.charAt(0).toUpperCase()}${moves.slice(1)} undone by a rewind${by}`;
  }
  const fork = number === null ? "A fork" : `Fork ${number}`;
  return `${fork} after ${move(branch.campaign, branch.parent?.version ?? branch.first - 1)}${by}`;
}

// The outcome in words with a mark, so that it never rests on colour alone.
const OUTCOMES = {
  running: ["▶", "still being played"],
  won: ["✓", "won"],
  lost: ["✗", "lost"],
  abandoned: ["■", "abandoned"],
  undone: ["↶", "undone by a rewind"],
};

export function outcomeOf(branch) {
  if (branch.private && !branch.outcome) return { mark: "?", words: "private", kind: "private" };
  const [mark, words] = OUTCOMES[branch.outcome] || ["●", String(branch.outcome || "unknown").replace(/_/g, " ")];
  return { mark, words, kind: branch.outcome || "unknown" };
}
