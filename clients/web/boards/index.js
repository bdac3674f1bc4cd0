// A board per game, by the game's API name; any other game gets the generic board.

import * as eila from "./eila.js";
import * as generic from "./generic.js";
import * as gilEnnis from "./gil_ennis.js";
import * as machina from "./machina.js";

const BOARDS = { "gil-ennis": gilEnnis, eila, machina };

export function boardFor(game) {
  return BOARDS[game] || generic;
}

export function isGeneric(game) {
  return !(game in BOARDS);
}
