// Keyboard play: R / Shift+R turn the card, Enter commits, 1-9 pick a + slot, H asks for a hint.
// Every action is a link or button already on the page; this only clicks them.
document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) return;
  const board = document.getElementById("board");
  if (!board) return;
  let element = null;
  if (event.key === "r") element = board.querySelector('[data-key="rotate"]');
  else if (event.key === "R") element = board.querySelector('[data-key="rotate-left"]');
  else if (event.key === "h" || event.key === "H") element = board.querySelector('[data-key="hint"]:not([disabled])');
  else if (event.key === "Enter" && !(target instanceof HTMLAnchorElement)) {
    element = board.querySelector('[data-key="commit"]:not([disabled])');
  } else if (/^[1-9]$/.test(event.key)) {
    element = board.querySelectorAll(".slot")[Number(event.key) - 1] || null;
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
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    element.textContent = `${minutes}:${seconds}`;
  }
}
setInterval(showDeadlines, 1000);
document.addEventListener("DOMContentLoaded", showDeadlines);

// The invitation link selects itself when clicked, ready to copy (no inline handler: the
// Content-Security-Policy forbids them).
document.addEventListener("click", (event) => {
  const target = event.target;
  if (target instanceof HTMLInputElement && target.hasAttribute("data-select-on-click")) {
    target.select();
  }
});
