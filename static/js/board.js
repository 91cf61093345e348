// Keyboard play: R / Shift+R turn the card, Enter commits whenever the draft is complete,
// 1-9 pick a + slot (10 and up: both digits), H asks for a hint, P and M step through the
// zones where a worker can be placed or moved and Space takes the zone in focus; in a
// replay the arrow keys, Home and End step through the rounds. Every action is a link or
// button already on the page; a shortcut focuses it and clicks it, so focus follows it.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (
    target instanceof HTMLInputElement ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement
  ) {
    return;
  }
  const board = document.getElementById("board");
  const replay = document.getElementById("replay");
  let element = null;
  let click = true;
  if (event.key === "Escape" && enlarged) {
    enlarged = null;
    applyEnlarged();
    return;
  }
  if (board) {
    if (event.key === "r") element = board.querySelector('[data-key="rotate"]');
    else if (event.key === "R") element = board.querySelector('[data-key="rotate-left"]');
    else if (event.key === "h" || event.key === "H") element = board.querySelector('[data-key="hint"]:not([disabled])');
    else if (event.key === "Enter" && commitsOnEnter(target)) {
      // With no complete draft, Enter does what it does on the control in focus.
      element = board.querySelector('[data-key="commit"]:not([disabled])');
    } else if (event.key === " " && target instanceof Element && target.closest("#board a")) {
      element = target.closest("a");
    } else if (/^[0-9]$/.test(event.key)) {
      element = typedSlot(board, event.key);
    } else if (event.key === "p" || event.key === "P" || event.key === "m" || event.key === "M") {
      // Only moves focus: the player hears the zone's name and decides with Space.
      const roles = /p/i.test(event.key) ? "a[data-role=place]" : "a[data-role=source], a[data-role=target]";
      element = nextOf([...board.querySelectorAll(roles)], target);
      click = false;
    }
  } else if (replay) {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[event.key]) element = replay.querySelector(`[data-key="${keys[event.key]}"]`);
  }
  if (element) {
    event.preventDefault();
    element.focus();
    if (click) element.click();
  }
});

// Enter commits from anywhere on the board (a turn button, the hint, a zone: whatever the
// last shortcut focused), but not in the folded boxes (resign, help) nor off the board.
function commitsOnEnter(target) {
  if (!(target instanceof Element) || target === document.body) return true;
  if (target.closest("details")) return false;
  return target.closest("#board") !== null || target.id === "main";
}

// Slot numbers are typed: with ten slots or more, "1" waits a moment for a second digit
// (1 then 2 is slot 12); a number no further digit could extend is taken at once.
let typed = "";
let typedTimer = null;

function typedSlot(board, digit) {
  clearTimeout(typedTimer);
  typed += digit;
  const slots = board.querySelectorAll(".slot");
  const number = Number(typed);
  if (number > 0 && number * 10 <= slots.length) {
    typedTimer = setTimeout(() => {
      typed = "";
      const slot = document.querySelectorAll("#board .slot")[number - 1];
      if (slot) {
        slot.focus();
        slot.click();
      }
    }, 800);
    return null;
  }
  typed = "";
  return slots[number - 1] || null;
}

function nextOf(elements, current) {
  if (!elements.length) return null;
  const index = elements.indexOf(current);
  return elements[(index + 1) % elements.length];
}

// An htmx swap replaces the whole board: without help, focus would fall to the page body
// and Tab would walk the menu again. Remember which control had focus, and give it back to
// the same control in the new board, or to the next sensible one if it is gone.
let focusedKey = null;

function keyOf(element) {
  if (!element || !element.closest || !element.closest("#board")) return null;
  for (const name of ["key", "zone", "slot"]) {
    const value = element.dataset && element.dataset[name];
    if (value) return `[data-${name}="${value}"]`;
  }
  return null;
}

// Noted when the request starts: a commit disables its button while it is under way, and
// a disabled button has already lost focus by the time the answer is swapped in.
document.addEventListener("htmx:beforeRequest", (event) => {
  if (event.detail.target && event.detail.target.id === "board") {
    focusedKey = keyOf(document.activeElement);
  }
});
// A poll redraws the board out of band, while the player may be on any of its controls.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "board") {
    focusedKey = keyOf(document.activeElement);
  }
});
document.addEventListener("htmx:oobAfterSwap", (event) => {
  if (event.detail.target && event.detail.target.id === "board") restore();
});
document.addEventListener("htmx:afterSettle", (event) => {
  if (event.detail.target && event.detail.target.id === "board") restore();
});

function restore() {
  // The swapped-in board is a new element: look it up again.
  const board = document.getElementById("board");
  if (!board) return;
  announce(board);
  if (!focusedKey) return;
  const wanted = focusedKey;
  focusedKey = null;
  // A slot that became the new card is gone: Commit comes next, so that the documented
  // "1–9, then Enter" commits (Enter on a zone link would place a worker instead); P and
  // M step from there to the card's zones.
  const candidates = [
    `a${wanted}, button${wanted}:not([disabled])`,
    '[data-key="commit"]:not([disabled])',
    ".card--draft a.zone",
    ".slot",
    "#board-heading",
  ];
  for (const selector of candidates) {
    const element = board.querySelector(selector);
    if (element) {
      element.focus();
      return;
    }
  }
}

// The board says what just happened (points of a commit, the draft so far) in a hidden
// paragraph; it goes to the live region, which stays in place so screen readers hear it.
function announce(board) {
  const status = document.getElementById("board-status");
  const source = board.querySelector("[data-announce]");
  if (!status || !source) return;
  status.textContent = "";
  // A new text node after a pause, so the same words twice are still spoken twice.
  setTimeout(() => { status.textContent = source.textContent.trim(); }, 50);
}

// Round deadlines count down between polls: "2:41" left, read from the datetime attribute.
// The countdown is not spoken every second: only the thresholds are, through the board's
// live region (a minute left, ten seconds left), as the clock crosses them.
const THRESHOLDS = [60, 10];
const lastLeft = new Map();

function showDeadlines() {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    // Inside the table's live region; its ticking is for the eye only.
    element.setAttribute("aria-live", "off");
    const when = element.getAttribute("datetime");
    const left = Math.max(0, Math.round((Date.parse(when) - Date.now()) / 1000));
    const before = lastLeft.get(when);
    lastLeft.set(when, left);
    if (before !== undefined) {
      const crossed = THRESHOLDS.find((limit) => before > limit && left <= limit && left > 0);
      if (crossed) say(crossed === 60 ? gettext("One minute left in this round.") : gettext("Ten seconds left in this round."));
    }
    if (left > 3600) continue; // days or hours: the server's wording stays
    // "Time left in this round: 0:00" until the next poll shows the new round.
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    element.textContent = `${minutes}:${seconds}`;
  }
}
setInterval(showDeadlines, 1000);
document.addEventListener("DOMContentLoaded", showDeadlines);
// A clock swapped in (a new round, a poll) counts at once, not with the next tick.
document.addEventListener("htmx:afterSettle", showDeadlines);
document.addEventListener("htmx:oobAfterSwap", showDeadlines);

// gettext and interpolate come from the JavaScript catalogue, which base.html loads
// (deferred, so in order) before this file.

function say(text) {
  const status = document.getElementById("board-status");
  if (!status) return;
  status.textContent = "";
  setTimeout(() => { status.textContent = text; }, 50);
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

function yourMove() {
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
document.addEventListener("DOMContentLoaded", yourMove);
document.addEventListener("htmx:afterSettle", yourMove);
document.addEventListener("htmx:oobAfterSwap", yourMove);

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

// A score row and its worker's region light each other up. Rows carry the region's zones
// in data-region; the board beside them carries data-zone on every zone.
function scope(element) {
  return element.closest(".final-seat, .play-area, .table-seat") || document;
}

function lightUp(row, on) {
  const area = scope(row);
  row.classList.toggle("is-lit", on);
  for (const point of (row.dataset.region || "").split(" ")) {
    if (!point) continue;
    for (const zone of area.querySelectorAll(`[data-zone="${point}"]`)) zone.classList.toggle("is-lit", on);
  }
}

function rowsForZone(zone) {
  const point = zone.dataset.zone;
  return [...scope(zone).querySelectorAll("[data-region]")].filter((row) =>
    row.dataset.region.split(" ").includes(point),
  );
}

for (const [kind, on] of [["mouseover", true], ["mouseout", false], ["focusin", true], ["focusout", false]]) {
  document.addEventListener(kind, (event) => {
    if (!(event.target instanceof Element)) return;
    const row = event.target.closest("[data-region]");
    if (row) {
      lightUp(row, on);
      return;
    }
    const zone = event.target.closest("[data-zone]");
    if (zone) for (const match of rowsForZone(zone)) lightUp(match, on);
  });
}

// The others' landscapes are small on a phone: a tap enlarges one. The table is redrawn
// by polls, so the enlarged seat is remembered by id and enlarged again after a swap.
let enlarged = null;

function applyEnlarged() {
  for (const button of document.querySelectorAll("[data-enlarge]")) {
    const seat = button.closest(".table-seat");
    const on = seat !== null && seat.id === enlarged;
    seat?.classList.toggle("table-seat--enlarged", on);
    button.setAttribute("aria-expanded", String(on));
  }
}

document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element)) return;
  const button = event.target.closest("[data-enlarge]");
  if (button) {
    const seat = button.closest(".table-seat");
    enlarged = enlarged === seat.id ? null : seat.id;
    applyEnlarged();
    if (enlarged) seat.scrollIntoView({ block: "nearest" });
  }
});

// The invitation link selects itself when focused, ready to copy (no inline handler: the
// Content-Security-Policy forbids them).
document.addEventListener("focusin", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.hasAttribute("data-select-on-focus")) {
    event.target.select();
  }
});

document.addEventListener("htmx:afterSettle", () => {
  applyEnlarged();
  // On a phone the card bar covers the bottom of the screen: keep the card just placed
  // in sight above it.
  const draft = document.querySelector("#board .card--draft");
  if (draft) draft.scrollIntoView({ block: "nearest" });
});

// The board and the table's clock are redrawn by two kinds of answers: the player's own
// commit (the board its target, the clock out of band) and the page's poll (both out of
// band), which the stream sets off as soon as the game's version moves, so while the
// commit is still under way. Two rules keep the page from ever staying behind the game:
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

// Instant drafting. With each round's board the server sends every outcome of its draft
// (games.boardview.drafting_json: each placement of the card, each worker action after
// it, the score after that) and the words to draw them (#draft-data, #draft-words). A
// slot, a turn of the card or a worker zone is then drawn here at once, with no request:
// the same markup the server draws for that draft (games/boardhtml.py), the address kept
// with replaceState as an htmx link would. Nothing is worked out here: every legal choice
// and every score is looked up. Commit still posts the draft, and the server's next board
// replaces this one. Without the data (or without JavaScript) the links ask the server.
const ZONE_ORDER = [[0, 0], [0, 1], [1, 0], [1, 1]];
const drafting = { board: null, data: null, words: null, draft: null, base: "" };

function draftingOf(board) {
  if (drafting.board === board) return drafting.data ? drafting : null;
  drafting.board = board;
  drafting.data = null;
  const dataElement = board.querySelector("#draft-data");
  const wordsElement = board.querySelector("#draft-words");
  const form = board.querySelector("form.commit-form");
  const turn = board.querySelector('[data-key="rotate"]');
  if (!dataElement || !wordsElement || !form || !turn) return null;
  try {
    drafting.data = JSON.parse(dataElement.textContent);
    drafting.words = JSON.parse(wordsElement.textContent);
  } catch {
    drafting.data = null;
    return null;
  }
  const field = (name) => {
    const input = form.querySelector(`input[name="${name}"]`);
    return input ? input.value : null;
  };
  drafting.draft = {
    rot: Number(field("rot") || 0),
    at: field("at"),
    place: field("place"),
    from: field("from"),
    to: field("to"),
  };
  // A move chosen halfway (its source only) is in the address, not in the form.
  const params = new URLSearchParams(location.search);
  if (drafting.draft.at && !drafting.draft.to && params.get("from") && !params.get("to")) {
    const source = params.get("from");
    const placement = drafting.data.placements[`${drafting.draft.at}@${drafting.draft.rot}`];
    if (placement && placement.move[source]) drafting.draft.from = source;
  }
  drafting.base = new URL(turn.getAttribute("href"), location.href).pathname;
  return drafting;
}

// Draft.params: the query string of a draft, in the server's order and spelling.
function draftParams(draft, n) {
  const parts = [];
  const point = (key, value) => { if (value) parts.push(`${key}=${value.replace(",", "%2C")}`); };
  if (draft.rot) parts.push(`rot=${draft.rot}`);
  point("at", draft.at);
  point("place", draft.place);
  point("from", draft.from);
  point("to", draft.to);
  if (n !== null && n !== undefined) parts.push(`n=${n}`);
  return parts.join("&");
}

function fill(template, values) {
  return template.replace(/%\((\w+)\)[sd]/g, (_match, name) => String(values[name]));
}

function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" })[c]);
}

function byPoint(a, b) {
  const [ar, ac] = a.split(",").map(Number);
  const [br, bc] = b.split(",").map(Number);
  return ar - br || ac - bc;
}

function zoneLabel(words, terrain, hut, workers) {
  return words.labels[`${terrain}${hut ? 1 : 0}${Math.min(workers, 7)}`];
}

function zoneSvg(terrain, hut, workers, label) {
  let svg = `<svg class="zone-art" viewBox="0 0 50 50" role="img" aria-label="${escapeHtml(label || terrain)}"><use href="#t-${terrain}"/>`;
  if (hut) svg += '<use href="#hut"/>';
  if (workers) {
    svg += '<use href="#worker"/>';
    if (workers > 1) svg += `<text x="24" y="20" class="worker-count">×${workers}</text>`;
  }
  return `${svg}</svg>`;
}

// What a draft shows: the placement's outcomes, the workers after the action, the
// clickable zones and the score, all looked up in the data.
function draftOutcome(state) {
  const { data, draft } = state;
  const placement = draft.at ? data.placements[`${draft.at}@${draft.rot}`] : null;
  if (!placement) return { placement: null, workers: data.workers.slice(), links: new Map(), ending: null };
  const workers = data.workers.slice();
  let ending = placement.keep;
  let targets = null;
  if (draft.place) {
    const found = placement.place.find((item) => item[0] === draft.place);
    ending = found.slice(1);
    workers.push(draft.place);
  } else if (draft.from && draft.to) {
    const found = movesOf(placement, draft.from).find((item) => item.zone === draft.to);
    ending = found.ending;
    workers.splice(workers.indexOf(draft.from), 1);
    workers.push(draft.to);
  } else if (draft.from) {
    targets = movesOf(placement, draft.from);
  }
  workers.sort(byPoint);
  // round_view's zone links: choosing a target, or the place, source and selected zones.
  const links = new Map();
  const clear = { rot: draft.rot, at: draft.at, place: null, from: null, to: null };
  if (targets) {
    for (const target of targets) links.set(target.zone, [{ ...draft, to: target.zone }, "target"]);
    links.set(draft.from, [clear, "selected"]);
  } else {
    for (const item of placement.place) links.set(item[0], [{ ...clear, place: item[0] }, "place"]);
    for (const source of Object.keys(placement.move).sort(byPoint)) {
      links.set(source, [{ ...clear, from: source }, "source"]);
    }
    if (draft.place) links.set(draft.place, [clear, "selected"]);
    if (draft.to) links.set(draft.to, [clear, "selected"]);
  }
  return { placement, workers, links, ending };
}

// A placement's region map: the region of each zone, and each region's zones.
function regionsOf(placement) {
  if (placement.zonesOf) return placement;
  const [top, left, width, map] = placement.grid;
  placement.regionAt = new Map();
  placement.zonesOf = new Map();
  for (let i = 0; i < map.length; i += 1) {
    if (map[i] === ".") continue;
    const point = `${top + Math.floor(i / width)},${left + (i % width)}`;
    placement.regionAt.set(point, map[i]);
    if (!placement.zonesOf.has(map[i])) placement.zonesOf.set(map[i], []);
    placement.zonesOf.get(map[i]).push(point);
  }
  return placement;
}

const REGION_CHARS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/";

// A worker's moves, one entry a target zone, from [region, zones (null: all the region's),
// whether the worker arriving scores, total, workers not scoring but the one arriving].
function movesOf(placement, source) {
  regionsOf(placement);
  const moves = [];
  for (const [region, zones, counts, total, others] of placement.move[source] || []) {
    const points = zones === null ? placement.zonesOf.get(REGION_CHARS[region]) : zones.split(" ");
    for (const point of points) {
      const uncounted = counts ? others : [others, point].filter(Boolean).join(" ");
      moves.push({ zone: point, ending: uncounted ? [total, uncounted] : [total] });
    }
  }
  return moves.sort((a, b) => byPoint(a.zone, b.zone));
}

function drawDraft(state) {
  const { board, data, words, draft, base } = state;
  const outcome = draftOutcome(state);
  const counts = new Map();
  for (const point of outcome.workers) counts.set(point, (counts.get(point) || 0) + 1);
  const link = (params) => `${base}?${draftParams(params, data.n)}`;
  const zoneHtml = (point, terrain, hut) => {
    const workers = counts.get(point) || 0;
    const label = zoneLabel(words, terrain, hut, workers);
    const found = outcome.links.get(point);
    if (!found) return `<span class="zone" data-zone="${point}" title="${escapeHtml(label)}">${zoneSvg(terrain, hut, workers, label)}</span>`;
    const [params, role] = found;
    const href = escapeHtml(link(params));
    const action = escapeHtml(words.actions[`${role}:${terrain}`]);
    return `<a class="zone zone--${role}" href="${href}" hx-get="${href}"\n   data-zone="${point}" data-role="${role}" aria-label="${action} (${escapeHtml(label)})" title="${action}">${zoneSvg(terrain, hut, workers, label)}</a>`;
  };
  const cardHtml = (key, zones, css, text) => {
    const [r, c] = key.split(",").map(Number);
    const inner = zones.map(([terrain, hut], i) => zoneHtml(`${2 * r + ZONE_ORDER[i][0]},${2 * c + ZONE_ORDER[i][1]}`, terrain, hut));
    return `<div class="${css}" role="gridcell" data-card-at="${key}">\n<span class="visually-hidden">${escapeHtml(fill(text, { where: data.where[key] }))}</span>\n${inner.join("\n")}\n</div>`;
  };
  let number = 0;
  const rows = data.grid.map((row) => {
    const cells = row.map((key) => {
      if (key === null) return '<div class="void" role="gridcell"></div>';
      if (key === draft.at) return cardHtml(key, data.card[draft.rot], "card card--draft", words.new_card);
      if (data.cells[key]) return cardHtml(key, data.cells[key], "card ", words.old_card);
      number += 1;
      const href = escapeHtml(link({ rot: draft.rot, at: key }));
      const shortcut = number < 10 ? ` aria-keyshortcuts="${number}"` : "";
      const label = escapeHtml(fill(words.slot, { where: data.where[key] }));
      return `<div class="slot-cell" role="gridcell"><a class="slot" href="${href}" hx-get="${href}" data-slot="${key}"${shortcut} aria-label="${label}"><span aria-hidden="true">+</span><kbd class="slot-key" aria-hidden="true">${number}</kbd></a></div>`;
    });
    return `<div class="landscape-row" role="row">\n${cells.join("\n")}\n</div>`;
  });
  const landscape = board.querySelector(".landscape-wrap--play .landscape");
  if (landscape) landscape.innerHTML = `\n${rows.join("\n")}\n`;
  drawScore(state, outcome);
  // The hand: the card turned, the turn buttons' links, the commit form's fields.
  const hand = board.querySelector(".card--hand");
  if (hand) {
    hand.innerHTML = data.card[draft.rot]
      .map(([terrain, hut]) => `<span class="zone">${zoneSvg(terrain, hut, 0, zoneLabel(words, terrain, hut, 0))}</span>`)
      .join("");
  }
  for (const [key, degrees] of [["rotate", 90], ["rotate-left", 270]]) {
    const button = board.querySelector(`[data-key="${key}"]`);
    if (!button) continue;
    const href = link({ rot: (draft.rot + degrees) % 360, at: draft.at });
    button.setAttribute("href", href);
    button.setAttribute("hx-get", href);
  }
  const form = board.querySelector("form.commit-form");
  for (const input of form.querySelectorAll('input[name="rot"], input[name="at"], input[name="place"], input[name="from"], input[name="to"]')) input.remove();
  const fields = [["rot", String(draft.rot)]];
  if (draft.at) fields.push(["at", draft.at]);
  if (draft.place) fields.push(["place", draft.place]);
  if (draft.from && draft.to) fields.push(["from", draft.from], ["to", draft.to]);
  const commit = form.querySelector('[data-key="commit"]');
  for (const [name, value] of fields) {
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    form.insertBefore(input, commit);
  }
  if (commit) {
    commit.disabled = !draft.at;
    const label = draft.place ? commit.dataset.labelPlace : draft.to ? commit.dataset.labelMove : commit.dataset.labelKeep;
    if (label) commit.textContent = label;
  }
  // What to do next, the supply, the announcement; a refusal shown before is over.
  const hint = board.querySelector("p.hint[data-hint-position]");
  if (hint) {
    hint.textContent = !draft.at ? hint.dataset.hintPosition : draft.from && !draft.to ? hint.dataset.hintTarget : hint.dataset.hintWorker;
  }
  const supply = board.querySelector(".round-head .supply");
  if (supply && !supply.querySelector(".tag")) supply.textContent = words.supply[data.supply - (draft.place ? 1 : 0)];
  for (const error of board.querySelectorAll(":scope > p.error")) error.remove();
  const announcement = board.querySelector("[data-announce]");
  if (announcement) {
    const text = draftAnnouncement(state);
    announcement.querySelector("[data-committed]")?.remove();
    const part = announcement.querySelector("[data-draft-announce]");
    if (part) part.textContent = text;
    else announcement.textContent = text;
  }
}

function drawScore(state, outcome) {
  const { board, data, words } = state;
  let total;
  let rows;
  if (!outcome.placement) {
    [total, rows] = data.score;
  } else {
    const placement = regionsOf(outcome.placement);
    const [ending, uncountedText] = outcome.ending;
    total = ending;
    const uncounted = uncountedText ? uncountedText.split(" ") : [];
    rows = outcome.workers.map((point) => {
      const region = placement.regionAt.get(point);
      const [description, value] = placement.regions[REGION_CHARS.indexOf(region)];
      const index = uncounted.indexOf(point);
      if (index >= 0) uncounted.splice(index, 1);
      const counted = index < 0;
      return [point, data.descriptions[description], counted ? value : 0, counted ? 1 : 0, placement.zonesOf.get(region).join(" ")];
    });
  }
  const table = board.querySelector(".preview [data-score-table]");
  if (!table) return;
  const body = rows.map(([point, description, points, counted, region]) => {
    const note = counted ? "" : ` <small>(${escapeHtml(words.not_counted)})</small>`;
    return `<tr class="${counted ? "" : "not-counted"}" tabindex="0" data-region="${region}" data-worker-zone="${point}" data-testid="worker-row">\n<td>${escapeHtml(description)}</td>\n<td>${points}${note}</td>\n</tr>`;
  });
  table.querySelector("caption").textContent = fill(words.caption, { total });
  table.querySelector("tbody").innerHTML = `\n${body.join("\n") || `<tr><td colspan="2">${escapeHtml(words.no_workers)}</td></tr>`}\n`;
  table.querySelector('[data-testid="score-total"]').textContent = String(total);
}

// boardview._announce: the draft so far, for the live region.
function draftAnnouncement(state) {
  const { data, words, draft } = state;
  const parts = [];
  if (draft.rot) parts.push(fill(words.turned, { degrees: draft.rot }));
  if (!draft.at) {
    parts.push(words.choose_slot);
    return parts.join(" ");
  }
  parts.push(fill(words.placed, { position: data.where[draft.at] }));
  const terrainAt = (point) => {
    const [r, c] = point.split(",").map(Number);
    const key = `${Math.floor(r / 2)},${Math.floor(c / 2)}`;
    const index = ZONE_ORDER.findIndex(([dr, dc]) => dr === ((r % 2) + 2) % 2 && dc === ((c % 2) + 2) % 2);
    const zones = key === draft.at ? data.card[draft.rot] : data.cells[key];
    return words.terrain[zones[index][0]];
  };
  if (draft.place) parts.push(fill(words.worker_goes, { terrain: terrainAt(draft.place) }));
  else if (draft.to) parts.push(fill(words.worker_moves, { terrain: terrainAt(draft.to) }));
  else if (draft.from) parts.push(words.choose_target);
  return parts.join(" ");
}

// A click on a draft link (a slot, a turn button, a worker zone) is drawn here, before
// htmx would send it: the capture phase on the document comes first.
document.addEventListener(
  "click",
  (event) => {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    if (!(event.target instanceof Element)) return;
    const element = event.target.closest("#board a.slot, #board a.zone, #board a[data-key=rotate], #board a[data-key=rotate-left]");
    if (!element) return;
    const board = element.closest("#board");
    const state = draftingOf(board);
    if (!state) return;
    const next = draftFromLink(state, element.getAttribute("href"));
    if (!next) return;
    event.preventDefault();
    event.stopPropagation();
    const started = performance.now();
    focusedKey = keyOf(document.activeElement === document.body ? element : document.activeElement);
    state.draft = next;
    drawDraft(state);
    history.replaceState(history.state, "", `${state.base}?${draftParams(next, state.data.n)}`);
    restore();
    // On a phone the card bar covers the bottom of the screen: keep the new card in sight.
    board.querySelector(".card--draft")?.scrollIntoView({ block: "nearest" });
    const board2 = document.getElementById("board");
    if (board2) board2.dataset.drawnIn = String(performance.now() - started);
    document.dispatchEvent(new CustomEvent("limes:drafted", { detail: { started } }));
  },
  true,
);

// The draft a link leads to, if the data holds it (else the server is asked, as before).
function draftFromLink(state, href) {
  if (!href) return null;
  const url = new URL(href, location.href);
  const params = url.searchParams;
  const draft = {
    rot: Number(params.get("rot") || 0),
    at: params.get("at"),
    place: params.get("place"),
    from: params.get("from"),
    to: params.get("to"),
  };
  if (![0, 90, 180, 270].includes(draft.rot)) return null;
  if (!draft.at) return draft;
  const placement = state.data.placements[`${draft.at}@${draft.rot}`];
  if (!placement) return null;
  if (draft.place && !placement.place.some((item) => item[0] === draft.place)) return null;
  if (draft.from) {
    const moves = movesOf(placement, draft.from);
    if (!moves.length) return null;
    if (draft.to && !moves.some((move) => move.zone === draft.to)) return null;
  }
  return draft;
}
