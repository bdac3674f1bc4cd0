// Applying the server's view patches: JSON Patch (RFC 6902) add, remove and replace,
// the operations the server sends (the same rules as clients/patch.py).

export class PatchError extends Error {}

function tokens(path) {
  if (path === "") return [];
  if (!path.startsWith("/")) throw new PatchError(`The path ${path} is not a JSON Pointer.`);
  return path.slice(1).split("/").map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
}

function index(list, token, adding) {
  if (token === "-" && adding) return list.length;
  if (!/^\d+$/.test(token)) throw new PatchError(`${token} is not a list index.`);
  const at = Number(token);
  if (at > list.length || (at === list.length && !adding)) {
    throw new PatchError(`The list has no index ${at}.`);
  }
  return at;
}

function isObject(value) {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function applyOne(document, op, path, value) {
  if (!["add", "remove", "replace"].includes(op)) {
    throw new PatchError(`The patch operation ${op} is not one this client applies.`);
  }
  const parts = tokens(path);
  if (parts.length === 0) {
    if (op === "remove") throw new PatchError("The whole document cannot be removed.");
    return value;
  }
  let parent = document;
  for (const token of parts.slice(0, -1)) {
    if (Array.isArray(parent)) parent = parent[index(parent, token, false)];
    else if (isObject(parent) && Object.hasOwn(parent, token)) parent = parent[token];
    else throw new PatchError(`The path ${path} leads nowhere.`);
  }
  const last = parts[parts.length - 1];
  if (Array.isArray(parent)) {
    const at = index(parent, last, op === "add");
    if (op === "add") parent.splice(at, 0, value);
    else if (op === "remove") parent.splice(at, 1);
    else parent[at] = value;
  } else if (isObject(parent)) {
    if (op !== "add" && !Object.hasOwn(parent, last)) {
      throw new PatchError(`The path ${path} names no member.`);
    }
    if (op === "remove") delete parent[last];
    else parent[last] = value;
  } else {
    throw new PatchError(`The path ${path} leads into a value that has no members.`);
  }
  return document;
}

// `document` with `ops` applied in order, changed in place (and returned: a root patch replaces it).
export function applyPatch(document, ops) {
  for (const { op, path, value } of ops) document = applyOne(document, op, path, value);
  return document;
}
