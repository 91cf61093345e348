// What the board says besides itself: its live region (what just happened, the draft so
// far), a step the server did not take, and "Your move" in the tab's title and icon.
// gettext and interpolate come from the JavaScript catalogue, which base.html loads
// (deferred, so in order) before the board's modules.

import { yourMove as announceMove } from "../yourmove.mjs";

// Words for the live region (#board-status), which stays in place so screen readers hear it.
export function say(text) {
  const status = document.getElementById("board-status");
  if (!status) return;
  status.textContent = "";
  // A new text node after a pause, so the same words twice are still spoken twice.
  setTimeout(() => { status.textContent = text; }, 50);
}

// The board says what just happened (points of a commit, the draft so far) in a hidden
// paragraph; it goes to the live region.
export function announce(board) {
  const status = document.getElementById("board-status");
  const source = board.querySelector("[data-announce]");
  if (!status || !source) return;
  status.textContent = "";
  setTimeout(() => { status.textContent = source.textContent.trim(); }, 50);
}

// A step the server did not take (a refusal it could not draw, a server error, no
// network) is said on the board, and the board with the draft stays as it was.
function boardRequest(event) {
  const target = event.detail.target;
  return target && target.id === "board";
}

function showBoardError(text) {
  const board = document.getElementById("board");
  if (!board) return;
  let message = board.querySelector("[data-client-error]");
  if (!message) {
    message = document.createElement("p");
    message.className = "error";
    message.setAttribute("role", "alert");
    message.dataset.clientError = "";
    message.dataset.testid = "error";
    const head = board.querySelector(".round-head, .final");
    if (head) head.after(message);
    else board.prepend(message);
  }
  message.textContent = text;
}

document.addEventListener("htmx:responseError", (event) => {
  if (!boardRequest(event)) return;
  const xhr = event.detail.xhr;
  const plain = (xhr.getResponseHeader("Content-Type") || "").startsWith("text/plain");
  const said = plain && xhr.responseText.length < 300 ? xhr.responseText.trim() : "";
  const template = gettext("The server did not take this step (error %s). Your draft is kept: try again.");
  showBoardError(said || interpolate(template, [xhr.status]));
});
document.addEventListener("htmx:sendError", (event) => {
  if (!boardRequest(event)) return;
  showBoardError(gettext("The server could not be reached. Your draft is kept: try again."));
});

// "Your move" in the tab's title and icon, and the chime (static/js/yourmove.mjs, which
// the Winter board shares), for Limes' board.
export function yourMove() {
  announceMove(document.getElementById("board"));
}
