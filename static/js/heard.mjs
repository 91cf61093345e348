// The newest version of its game that a page's event stream has told of, for both games'
// boards (static/js/board/live.mjs, static/js/winter/live.mjs). The stream's "game" events
// set off the board's poll, but a poller hears them only while it listens: one swapped in
// listens once htmx has processed it, a moment later, and one taken off the page while a
// request is under way (a poll, the player's own commit) drops the poll it was told of.
// So the versions are heard here, from the stream itself, and a page that shows an older
// one than it has heard of knows to ask again.

// Not a version (a keep-alive, a resync): nothing to compare.
function versionIn(data) {
  try {
    return Number(JSON.parse(data).version) || 0;
  } catch {
    return 0;
  }
}

// Hears the "game" events of each stream opened on an element holding `selector` (the
// stream of the game's page, not the menu's). `hear` takes an event's data heard some
// other way; `latest` is the newest version heard, 0 before any.
export function streamHearing(selector) {
  let heard = 0;
  const listened = new WeakSet();
  const hear = (data) => {
    heard = Math.max(heard, versionIn(data));
  };
  document.addEventListener("htmx:sseOpen", (event) => {
    const source = event.detail ? event.detail.source : null;
    if (!source || listened.has(source)) return;
    if (!(event.target instanceof Element) || !event.target.querySelector(selector)) return;
    listened.add(source);
    source.addEventListener("game", (message) => hear(message.data));
  });
  return { hear, latest: () => heard };
}
