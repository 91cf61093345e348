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
