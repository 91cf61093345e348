// Round deadlines count down between polls: "2:41" left, read from the datetime attribute.
// The countdown is not spoken every second: only the thresholds are, through the board's
// live region (a minute left, ten seconds left), as the clock crosses them.
import { say } from "./status.mjs";

const THRESHOLDS = [60, 10];
const lastLeft = new Map();

export function showDeadlines() {
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
