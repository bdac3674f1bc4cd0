// Chapter 4's contracts and privileges: each market's face-up cards with their price, a card's
// buy button on the card itself while buying is open.

import { h } from "../../dom.js";
import { price } from "./tokens.js";

function marketCard(ctx, card) {
  const buy = ctx.sink.take((action) => action.id === `buy:${card.id}`);
  return h("article", { class: "market-card", dataset: { card: card.id } },
    h("span", { class: "card-id" }, card.id),
    h("strong", {}, card.name),
    h("p", { class: "small" }, card.text),
    buy.map((action) => ctx.sink.button(action, h("span", { class: "buy-face" }, "Buy this card"))));
}

export function marketsArea(ctx, markets, names) {
  if (!markets?.length) return null;
  const stop = ctx.sink.tagged("stop_buying");
  return h("div", { class: "markets" },
    markets.map((market) => h("div", { class: "market", dataset: { market: market.name } },
      h("div", { class: "market-head" },
        h("h4", {}, market.label || market.name),
        h("span", { class: "market-price" }, "each costs ", price(market.price, names))),
      market.cards.length
        ? h("div", { class: "market-cards" }, market.cards.map((card) => marketCard(ctx, card)))
        : h("p", { class: "muted" }, "None left face up."))),
    ctx.sink.buttons(stop));
}
