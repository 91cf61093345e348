// Keyboard play: R / Shift+R turn the card, Enter commits, 1-9 pick a + slot, H asks for a
// hint; in a replay the arrow keys, Home and End step through the rounds.
// Every action is a link or button already on the page; this only clicks them.
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
    }
  } else if (replay) {
    const keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[event.key]) element = replay.querySelector(`[data-key="${keys[event.key]}"]`);
  }
  if (element) {
    event.preventDefault();
    element.click();
  }
});

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
