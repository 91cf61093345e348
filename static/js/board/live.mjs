// The live page: a live table's game (games/_live_table.html). The board and the table's
// clock are redrawn by two kinds of answers: the player's own commit (the board its
// target, the clock out of band) and the page's poll (both out of band), which the stream
// sets off as soon as the game's version moves, so while the commit is still under way.
// Three rules keep the page from ever staying behind the game:
// - while a commit is under way, no poll redraws the board: it would take the commit's
//   target off the page, and the commit's answer (the next card) would be dropped, only
//   its clock shown;
// - nothing is ever replaced by an older version of itself (a poll answered before the
//   commit, arriving after it);
// - a poll asks what changed since the older of the board and the clock: a poll turned
//   away from the board has still brought the clock up to date (issue #51), and asking
//   from the clock's version would be answered "nothing changed".
// Once the commit's answer is in, the page polls again if it has heard of a newer version
// than the one it shows, or if a poll was turned away meanwhile. And whatever is under way,
// a page whose table is known to be ahead of its board asks for it within a second.
import { streamHearing } from "../heard.mjs";

let committing = false;
let missed = false;
// The table's version, heard from the stream itself (static/js/heard.mjs), for the guard
// below and for the catch-up after a commit.
const stream = streamHearing("#live-table");

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

// The version the whole page shows: its board's, unless the clock is older.
function shownVersion() {
  const versions = [versionOf(document.getElementById("board")), versionOf(shownPoller())];
  const known = versions.filter((version) => version !== null);
  return known.length ? Math.min(...known) : null;
}

function catchUp() {
  const poller = shownPoller();
  if (!poller || committing) return;
  const shown = shownVersion();
  if (missed || (shown !== null && stream.latest() > shown)) {
    missed = false;
    htmx.trigger(poller, "sse:game");
  }
}

document.addEventListener("htmx:sseMessage", (event) => {
  if (event.detail.type === "game") stream.hear(event.detail.data);
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
// Whatever the poller's address says, it asks from the version the page shows in full.
document.addEventListener("htmx:configRequest", (event) => {
  const element = event.detail.elt;
  if (!(element instanceof Element) || !element.matches("#live-table [data-poll-fallback]")) return;
  event.detail.path = sinceShown(event.detail.path);
});

function sinceShown(path) {
  const shown = shownVersion();
  if (shown === null) return path;
  const url = new URL(path, location.href);
  url.searchParams.set("v", String(shown));
  return `${url.pathname}${url.search}`;
}

// True while the guard's answer is swapped in: its board may replace the one a commit
// under way was to replace, if newer.
let forced = false;

document.addEventListener("htmx:oobBeforeSwap", (event) => {
  const target = event.detail.target;
  if (!(target instanceof Element) || (target.id !== "board" && target.id !== "live-table")) return;
  const incoming = versionOf(event.detail.fragment.firstElementChild);
  const current = versionOf(target);
  if (target.id === "board" && committing) {
    if (forced && incoming !== null && current !== null && incoming > current) {
      // The commit's answer, when it comes, is older: it is dropped (below).
      committing = false;
      return;
    }
    missed = true;
    event.preventDefault();
    return;
  }
  if (incoming !== null && current !== null && incoming < current) event.preventDefault();
  // At a live table the board changes only with a new card: the same version again (a
  // poll answered after the commit that brought it) would only wipe the draft begun on it.
  const live = document.getElementById("live-table") !== null;
  if (target.id === "board" && live && incoming !== null && incoming === current) event.preventDefault();
});
// A commit's answer whose board has been replaced since by a newer one is not swapped.
document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  if (isCommit(event.detail) && target instanceof Element && !target.isConnected) {
    event.detail.shouldSwap = false;
  }
});
// A poller swapped in (and live) may show an older version than the stream announced:
// the poll the announcement set off was dropped with the poller it belonged to.
document.addEventListener("htmx:load", (event) => {
  const loaded = event.target;
  if (loaded instanceof Element && (loaded.closest("#live-table") || loaded.querySelector("#live-table"))) {
    catchUp();
  }
});

// The guard. The table's version is known from the stream and from the clock; a page
// whose board stays behind it for half a second, however that came about (an answer lost,
// held or dropped), asks for the page as it is now, at most once a second, by a request
// of its own that no request under way holds up.
const LOOK_MS = 250;
const GRACE_MS = 500;
const AGAIN_MS = 1000;
let behindSince = null;
let asked = 0;

function tableAhead() {
  const board = versionOf(document.getElementById("board"));
  const table = versionOf(document.getElementById("live-table"));
  if (board === null || table === null) return false;
  return Math.max(stream.latest(), table) > board;
}

async function ask() {
  const poller = shownPoller();
  if (!poller) return;
  asked = Date.now();
  const url = sinceShown(poller.getAttribute("hx-get"));
  let response;
  try {
    response = await fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin" });
  } catch {
    return; // No network: asked again in a second.
  }
  if (response.headers.get("HX-Refresh") === "true") {
    location.reload();
    return;
  }
  if (response.status !== 200) return;
  const html = await response.text();
  forced = true;
  try {
    htmx.swap(document.body, html, { swapStyle: "none" });
  } finally {
    forced = false;
  }
}

setInterval(() => {
  if (!tableAhead()) {
    behindSince = null;
    return;
  }
  const now = Date.now();
  if (behindSince === null) behindSince = now;
  if (now - behindSince >= GRACE_MS && now - asked >= AGAIN_MS) ask();
}, LOOK_MS);
