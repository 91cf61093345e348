// "Your move", for either game's board: when the board says it waits for this player
// (data-your-move, however it arrived: drawn, polled or pushed), the tab's title and icon
// say so; the moment it starts waiting, an optional sound (data-move-sound: an account
// setting) and, in a hidden tab, a browser notification if the player allowed them.
// gettext comes from the JavaScript catalogue, which base.html loads before any module.
let waiting = null;
let plainTitle = null;

export function yourMove(board) {
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
