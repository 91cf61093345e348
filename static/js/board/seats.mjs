// The landscapes beside the score: a score row and its worker's region light each other
// up; on a phone a tap enlarges one of the others' small landscapes; the invitation link
// selects itself. No inline handlers: the Content-Security-Policy forbids them.

// Rows carry the region's zones in data-region; the board beside them carries data-zone
// on every zone.
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

// The table is redrawn by polls, so the enlarged seat is remembered by id and enlarged
// again after a swap.
let enlarged = null;

export function applyEnlarged() {
  for (const button of document.querySelectorAll("[data-enlarge]")) {
    const seat = button.closest(".table-seat");
    const on = seat !== null && seat.id === enlarged;
    seat?.classList.toggle("table-seat--enlarged", on);
    button.setAttribute("aria-expanded", String(on));
  }
}

// Escape: the enlarged landscape goes back to its size. Whether there was one.
export function shrinkEnlarged() {
  if (!enlarged) return false;
  enlarged = null;
  applyEnlarged();
  return true;
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

document.addEventListener("focusin", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.hasAttribute("data-select-on-focus")) {
    event.target.select();
  }
});

// On a phone the card bar covers the bottom of the screen: keep the card just placed in
// sight above it.
export function keepDraftInSight() {
  const draft = document.querySelector("#board .card--draft");
  if (draft) draft.scrollIntoView({ block: "nearest" });
}
