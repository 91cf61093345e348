// A live challenge that arrives, or one of the player's that is accepted, shows in the tab's
// title too (social's alerts, swapped in by push or poll): the player may be in another tab.
(() => {
  const SIGNAL = "(!) ";
  const mark = () => {
    const wanted = document.querySelector("[data-title-signal]") !== null;
    const marked = document.title.startsWith(SIGNAL);
    if (wanted && !marked) document.title = SIGNAL + document.title;
    else if (!wanted && marked) document.title = document.title.slice(SIGNAL.length);
  };
  document.addEventListener("DOMContentLoaded", mark);
  document.addEventListener("htmx:afterSettle", mark);
})();

// A challenge's expiry (data-expires) counts down, "Expires in 4:59.", in the page's
// language (data-expires-text, "%s" the time left); at its end the line says it expired
// (data-expired-text) and its Accept button goes, on every page that shows it, at once.
(() => {
  const count = () => {
    for (const element of document.querySelectorAll("[data-expires]")) {
      const left = Math.round((Date.parse(element.dataset.expires) - Date.now()) / 1000);
      if (Number.isNaN(left) || left > 3600) continue; // hours: the server's wording stays
      if (left > 0) {
        const time = `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
        element.textContent = element.dataset.expiresText.replace("%s", time);
        continue;
      }
      element.textContent = element.dataset.expiredText;
      element.removeAttribute("data-expires");
      const box = element.closest(".challenge-alert, #challenge-status, li") || element.parentElement;
      for (const button of box.querySelectorAll("[data-testid=alert-accept], [data-testid=accept-challenge]")) {
        button.closest("form")?.remove();
      }
    }
  };
  document.addEventListener("DOMContentLoaded", count);
  document.addEventListener("htmx:afterSettle", count);
  setInterval(count, 1000);
})();
