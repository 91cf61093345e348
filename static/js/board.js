// The board's page (a game, a replay, a lesson, a puzzle, a live tournament's page): an
// ES module that brings the board's jobs together, each a module of static/js/board/:
// keys.mjs (keyboard play, focus across swaps), drafting.mjs (instant drafting, with the
// lookups of draft.mjs), live.mjs (a live table's page), clock.mjs (the round's clock),
// status.mjs (the live region, errors, "Your move"), seats.mjs (landscapes and score
// rows). After a swap they run here, once each, in this order.
import { showDeadlines } from "./board/clock.mjs";
import "./board/drafting.mjs";
import { restore } from "./board/keys.mjs";
import "./board/live.mjs";
import { applyEnlarged, keepDraftInSight } from "./board/seats.mjs";
import { yourMove } from "./board/status.mjs";

const onBoard = (event) => event.detail.target && event.detail.target.id === "board";

document.addEventListener("DOMContentLoaded", () => {
  showDeadlines();
  yourMove();
});
// A board swapped in gets focus back; a clock swapped in (a new round, a poll) counts at
// once, not with the next tick.
document.addEventListener("htmx:afterSettle", (event) => {
  if (onBoard(event)) restore();
  showDeadlines();
  yourMove();
  applyEnlarged();
  keepDraftInSight();
});
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (onBoard(event)) restore();
  showDeadlines();
  yourMove();
});
