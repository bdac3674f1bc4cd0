// Chapter 5's trail: the current location card on top with its shelter icon and its location
// actions (as buttons while an event lets Eila take one), and the locations revealed before it.

import { h, plural } from "../../dom.js";

export function trailArea(ctx, area) {
  const location = area.location;
  if (!location && !(area.trail || []).length) return null;
  const actions = ctx.sink.tagged("location_action");
  const byLetter = new Map(actions.map((action) => [action.id.split(":")[1], action]));
  const none = byLetter.get("");
  const earlier = (area.trail || []).slice(0, -1);
  return h("div", { class: "eila-trail" },
    h("h4", {}, "The trail"),
    h("div", { class: "trail-row" },
      earlier.length ? h("ol", { class: "trail-past" }, earlier.map((number) => h("li", { class: "trail-card", dataset: { location: number } }, number))) : null,
      location ? h("article", { class: `location-card${location.shelter ? " shelter" : ""}`, dataset: { location: location.number } },
        h("span", { class: "card-id" }, location.number),
        h("h3", {}, location.name),
        location.shelter ? h("span", { class: "chip chip-ok shelter-chip" }, "⛺ Shelter") : null,
        h("p", { class: "present-text" }, location.text),
        h("h4", {}, "Location actions"),
        h("ul", { class: "location-actions plain" }, location.actions.map((label) => {
          const letter = label.split(":")[0].trim();
          const action = byLetter.get(letter);
          return h("li", {}, action ? ctx.sink.button(action, h("span", {}, label)) : h("span", { class: "location-choice" }, label));
        })),
        none ? ctx.sink.button(none) : null) : null),
    area.location_deck_count ? h("p", { class: "muted small" }, `Location deck: ${plural(area.location_deck_count, "card")} face down`) : null);
}
