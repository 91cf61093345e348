// The Winter board's "Your move" (static/js/yourmove.mjs): checked when the page is drawn
// and each time htmx brings a new board (a turn, a poll, a push).
import { yourMove } from "../yourmove.mjs";

const check = () => yourMove(document.getElementById("winter-board"));
document.addEventListener("htmx:load", check);
check();
