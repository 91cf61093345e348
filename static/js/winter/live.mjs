// The Winter page never stays behind its game. The stream's "game" events set off the
// board's poll; one that comes while a poll (or the player's commit) is under way is
// queued on the poller that the answer then takes off the page, and is lost: with the
// computers playing turn after turn, the page stayed on a computer's turn while the game
// waited for the player. So once a board is in, a page that shows an older version than
// its stream has told of (static/js/heard.mjs) polls again.
import { streamHearing } from "../heard.mjs";

const stream = streamHearing("#winter-board");

function catchUp() {
  const board = document.getElementById("winter-board");
  const poller = board && board.querySelector("[data-poll-fallback]");
  if (!poller || Number(board.dataset.version) >= stream.latest()) return;
  htmx.trigger(poller, "sse:game");
}

// After any answer has settled (a poll's, the commit's; a board swapped in whole may be
// told of on the new board or on what stood around it): the new poller listens by then.
document.addEventListener("htmx:afterSettle", () => setTimeout(catchUp, 50));
