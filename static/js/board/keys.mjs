// Keyboard play: R / Shift+R turn the card, Enter commits whenever the draft is complete,
// 1-9 pick a + slot (10 and up: both digits), H asks for a hint, P and M step through the
// zones where a worker can be placed or moved and Space takes the zone in focus; in a
// replay the arrow keys, Home and End step through the rounds. Every action is a link or
// button already on the page; a shortcut focuses it and clicks it, so focus follows it.
// And focus itself: a board swapped in gets it back on the same control.
import { shrinkEnlarged } from "./seats.mjs";
import { announce } from "./status.mjs";

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
  if (event.key === "Escape" && shrinkEnlarged()) return;
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

// The control to give focus back to once the board is redrawn.
export function noteFocus(element) {
  focusedKey = keyOf(element);
}

const onBoard = (event) => event.detail.target && event.detail.target.id === "board";

// Noted when the request starts: a commit disables its button while it is under way, and
// a disabled button has already lost focus by the time the answer is swapped in.
document.addEventListener("htmx:beforeRequest", (event) => {
  if (onBoard(event)) noteFocus(document.activeElement);
});
// A poll redraws the board out of band, while the player may be on any of its controls.
document.addEventListener("htmx:oobBeforeSwap", (event) => {
  if (onBoard(event)) noteFocus(document.activeElement);
});

// A board just drawn: what it says goes to the live region, focus to the control noted.
export function restore() {
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
