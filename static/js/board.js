// Keyboard play: R / Shift+R turn the card, Enter commits, 1-9 pick a + slot.
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
