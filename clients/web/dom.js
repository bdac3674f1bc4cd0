// Building DOM and SVG nodes: h("div", {class: "card"}, "text", child, [more children]).

const SVG_NS = "http://www.w3.org/2000/svg";

function fill(node, attrs, children, isSvg) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === "dataset") {
      Object.assign(node.dataset, value);
    } else if (!isSvg && key in node && key !== "list" && key !== "form") {
      node[key] = value;
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children, false);
}

export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children, true);
}

export function clear(node, ...children) {
  node.replaceChildren();
  return fill(node, {}, children, false);
}

// "worry_level" -> "Worry level", "deck-count" -> "Deck count"
export function humanize(key) {
  const words = String(key).replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function plural(count, one, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`;
}
