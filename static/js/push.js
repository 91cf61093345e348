// Server push: a page whose event stream is open (htmx's sse extension, `sse-connect`)
// hears of each change at once, and its polls (`data-poll-fallback`, `every …` triggers)
// stand aside; while the stream is down they go on, so nothing waits for it to come back.
(() => {
  const root = document.documentElement;
  const setOpen = (open) => {
    if (open) root.dataset.push = "open";
    else delete root.dataset.push;
  };
  document.addEventListener("htmx:sseOpen", () => setOpen(true));
  document.addEventListener("htmx:sseError", () => setOpen(false));
  document.addEventListener("htmx:sseClose", () => setOpen(false));
  document.addEventListener("htmx:confirm", (event) => {
    if (root.dataset.push !== "open") return;
    if (!(event.target instanceof Element) || !event.target.closest("[data-poll-fallback]")) return;
    // A timer's poll has no event; the stream's triggers are events named "sse:…".
    const trigger = event.detail.triggeringEvent;
    if (!(trigger instanceof Event) || !trigger.type.startsWith("sse:")) event.preventDefault();
  });
})();
