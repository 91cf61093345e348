// What the board says besides itself: its live region (what just happened, the draft so
// far), a step the server did not take, and "Your move" in the tab's title and icon.
// gettext and interpolate come from the JavaScript catalogue, which base.html loads
// (deferred, so in order) before the board's modules.

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

// "Your move": when the board says it waits for this player (data-your-move, however the
// board arrived: drawn, polled or pushed), the tab's title and icon say so; the moment it
// starts waiting, an optional sound (an account setting) and, in a hidden tab, a browser
// notification if the player allowed them.
let waiting = null;
let plainTitle = null;

export function yourMove() {
  const board = document.getElementById("board");
  const now = board !== null && board.hasAttribute("data-your-move");
  if (plainTitle === null) plainTitle = document.title;
  document.title = now ? `● ${gettext("Your move")} · ${plainTitle}` : plainTitle;
  const icon = document.querySelector("link[rel=icon]");
  if (icon && board) {
    if (!icon.dataset.plain) icon.dataset.plain = icon.getAttribute("href");
    const wanted = now ? board.dataset.moveIcon : icon.dataset.plain;
    if (wanted && icon.getAttribute("href") !== wanted) icon.setAttribute("href", wanted);
  }
  if (now && waiting === false) {
    if (board.hasAttribute("data-move-sound")) chime();
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      new Notification(gettext("Your move"), { body: plainTitle, tag: `limes-${location.pathname}` });
    }
  }
  waiting = now;
}

let audio = null;

function chime() {
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const volume = audio.createGain();
    tone.frequency.value = 660;
    volume.gain.setValueAtTime(0.15, audio.currentTime);
    volume.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(volume).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    document.documentElement.dataset.chimed = String(Number(document.documentElement.dataset.chimed || 0) + 1);
  } catch {
    // No sound where the browser allows none: the title and icon still say it.
  }
}
