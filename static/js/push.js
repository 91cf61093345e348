// Server push: a page whose event stream is open (htmx's sse extension, `sse-connect`)
// hears of each change at once, and its polls (`data-poll-fallback`, `every …` triggers)
// stand aside; while the stream is down they go on, so nothing waits for it to come back.
// A page may hold two streams (its own and the player's, on <body>): each poll follows the
// stream it listens to, the nearest `sse-connect` around it, and stands aside only if that
// stream carries one of its events (`data-push-events`, when a stream names the few it has).
(() => {
  const setOpen = (event, open) => {
    if (!(event.target instanceof Element)) return;
    if (open) event.target.dataset.pushOpen = "";
    else delete event.target.dataset.pushOpen;
  };
  const carries = (source, poller) => {
    const names = source.dataset.pushEvents;
    if (names === undefined) return true;
    const wanted = [...(poller.getAttribute("hx-trigger") || "").matchAll(/sse:([\w-]+)/g)];
    return wanted.some((match) => names.split(" ").includes(match[1]));
  };
  document.addEventListener("htmx:sseOpen", (event) => setOpen(event, true));
  document.addEventListener("htmx:sseError", (event) => setOpen(event, false));
  document.addEventListener("htmx:sseClose", (event) => setOpen(event, false));
  document.addEventListener("htmx:confirm", (event) => {
    if (!(event.target instanceof Element)) return;
    const poller = event.target.closest("[data-poll-fallback]");
    if (!poller) return;
    const source = poller.closest("[sse-connect]");
    if (!source || !("pushOpen" in source.dataset) || !carries(source, poller)) return;
    // A timer's poll has no event; the stream's triggers are events named "sse:…".
    const trigger = event.detail.triggeringEvent;
    if (!(trigger instanceof Event) || !trigger.type.startsWith("sse:")) event.preventDefault();
  });
})();
