// Keyboard play: R / Shift+R turn the card, Enter commits, 1-9 pick a + slot, H asks for a
// hint, P and M step through the zones where a worker can be placed or moved; in a replay
// the arrow keys, Home and End step through the rounds. Every action is a link or button
// already on the page; a shortcut focuses it and clicks it, so focus follows it.
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
    else if (event.key === "Enter" && !(target instanceof Element && target.closest("a, button, summary"))) {
      element = board.querySelector('[data-key="commit"]:not([disabled])');
    } else if (/^[1-9]$/.test(event.key)) {
      element = board.querySelectorAll(".slot")[Number(event.key) - 1] || null;
    } else if (event.key === "p" || event.key === "P" || event.key === "m" || event.key === "M") {
      // Only moves focus: the player hears the zone's name and decides with Enter.
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
function showDeadlines() {
  for (const element of document.querySelectorAll("[data-deadline]")) {
    const left = Math.max(0, Math.round((Date.parse(element.getAttribute("datetime")) - Date.now()) / 1000));
    if (left > 3600) continue; // days or hours: the server's wording stays
    if (left === 0) {
      // "Round ends now", until the next poll shows the new round.
      // gettext comes from the JavaScript catalogue (base.html); without it, English.
      element.textContent = typeof gettext === "function" ? gettext("now") : "now";
      continue;
    }
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    element.textContent = `${minutes}:${seconds}`;
  }
}
setInterval(showDeadlines, 1000);
document.addEventListener("DOMContentLoaded", showDeadlines);

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
