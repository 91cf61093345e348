// The live page: a live table's game (games/_live_table.html). The board and the table's
// clock are redrawn by two kinds of answers: the player's own commit (the board its
// target, the clock out of band) and the page's poll (both out of band), which the stream
// sets off as soon as the game's version moves, so while the commit is still under way.
// Two rules keep the page from ever staying behind the game:
// - while a commit is under way, no poll redraws the board: it would take the commit's
//   target off the page, and the commit's answer (the next card) would be dropped, only
//   its clock shown;
// - nothing is ever replaced by an older version of itself (a poll answered before the
//   commit, arriving after it).
// Once the commit's answer is in, the page polls again if it has heard of a newer version
// than the one it shows, or if a poll was turned away meanwhile.
let committing = false;
let missed = false;
let heard = 0;

// By the request's own element: once the board is swapped, the commit's form is off the
// page, and htmx tells of the request's end on the nearest element still on it.
function isCommit(detail) {
  const element = detail.requestConfig ? detail.requestConfig.elt : detail.elt;
  return element instanceof Element && element.matches("form.commit-form");
}

function versionOf(element) {
  const value = element instanceof Element ? element.getAttribute("data-version") : null;
  return value === null || value === "" ? null : Number(value);
}

function shownPoller() {
  return document.querySelector("#live-table [data-poll-fallback][data-version]");
}

function catchUp() {
  const poller = shownPoller();
  if (!poller || committing) return;
  const shown = versionOf(poller);
  if (missed || (shown !== null && heard > shown)) {
    missed = false;
    htmx.trigger(poller, "sse:game");
  }
}

document.addEventListener("htmx:sseMessage", (event) => {
  if (event.detail.type !== "game") return;
  try {
    heard = Math.max(heard, Number(JSON.parse(event.detail.data).version) || 0);
  } catch {
    // Not a version: nothing to compare.
  }
});
document.addEventListener("htmx:beforeRequest", (event) => {
  if (isCommit(event.detail)) committing = true;
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (!isCommit(event.detail)) return;
  committing = false;
  // After its answer has settled: the new poller is live only then.
  setTimeout(catchUp, 50);
});
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (!(target instanceof Element) || (target.id !== "board" && target.id !== "live-table")) return;
  if (target.id === "board" && committing) {
    missed = true;
    event.preventDefault();
    return;
  }
  const incoming = versionOf(event.detail.fragment.firstElementChild);
  const current = versionOf(target);
  if (incoming !== null && current !== null && incoming < current) event.preventDefault();
});
// A poller swapped in (and live) may show an older version than the stream announced:
// the poll the announcement set off was dropped with the poller it belonged to.
document.addEventListener("htmx:load", (event) => {
  const loaded = event.target;
  if (loaded instanceof Element && (loaded.closest("#live-table") || loaded.querySelector("#live-table"))) {
    catchUp();
  }
});
