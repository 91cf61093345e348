// A tournament's page, and the page of a tournament's deal: the times in the visitor's own
// zone, the countdown to the start, and the way to the visitor's game the moment it is
// dealt. A link marked data-go-game that was not on the page when it loaded is a game just
// dealt: the tab's title and icon say so and the page goes there (at data-go-at, if given:
// the break for reading the deal just played).
(() => {
  const format = (when) =>
    new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
      dateStyle: "medium",
      timeStyle: "short",
    }).format(when);

  function showLocalTimes() {
    for (const element of document.querySelectorAll("time[data-local]")) {
      const when = new Date(element.getAttribute("datetime"));
      if (Number.isNaN(when.getTime())) continue;
      element.textContent = format(when);
      const line = element.closest("[data-local-times]");
      if (line) line.hidden = false;
    }
  }

  // The countdown: "2:05:09" left; at zero the standings are asked for as the stream
  // would ask, a few times, in case the stream is slow to say the first deal is dealt.
  let asked = 0;
  let counting = false;
  function countDown() {
    for (const element of document.querySelectorAll("time[data-countdown]")) {
      const left = Math.round((Date.parse(element.getAttribute("datetime")) - Date.now()) / 1000);
      if (left > 24 * 3600) continue; // days: the server's wording stays
      if (left > 0) {
        counting = true;
        const hours = Math.floor(left / 3600);
        const minutes = String(Math.floor((left % 3600) / 60)).padStart(2, "0");
        const seconds = String(left % 60).padStart(2, "0");
        element.textContent = `${hours}:${minutes}:${seconds}`;
        continue;
      }
      element.textContent = gettext("now");
      // An asynchronous tournament's deals open at the start: the page is drawn again,
      // once, and only by a page that saw the countdown run (a clock ahead of the
      // server's would otherwise reload a page still drawn before the start, again).
      if (element.hasAttribute("data-reload-at-start")) {
        if (counting && asked === 0 && -left >= 1) {
          asked = 1;
          window.location.reload();
        }
        continue;
      }
      // At the start, then every two seconds for half a minute or until a game is dealt.
      if (asked < 15 && -left >= asked * 2 && !document.querySelector("[data-go-game]")) {
        asked += 1;
        const standings = document.getElementById("standings");
        if (standings && window.htmx) window.htmx.trigger(standings, "sse:standings");
      }
    }
  }

  const known = new Set();
  let loaded = false;
  let going = null;
  let plainTitle = null;

  function signal(link) {
    if (plainTitle === null) plainTitle = document.title;
    document.title = `● ${gettext("Your game is dealt")} · ${plainTitle}`;
    const icon = document.querySelector("link[rel=icon]");
    if (icon && link.dataset.moveIcon) icon.setAttribute("href", link.dataset.moveIcon);
  }

  function follow() {
    for (const link of document.querySelectorAll("a[data-go-game]")) {
      const game = link.dataset.goGame;
      if (!loaded) {
        known.add(game);
        continue;
      }
      if (known.has(game)) continue;
      // Said again after every swap: the game's own script redraws the title and icon.
      signal(link);
      if (going === game) continue;
      going = game;
      const at = Date.parse(link.dataset.goAt || "");
      const wait = Number.isNaN(at) ? 0 : Math.max(0, at - Date.now());
      // Tournament notifications (#38) would be shown from here.
      document.dispatchEvent(new CustomEvent("limes:game-dealt", { detail: { url: link.href } }));
      setTimeout(() => window.location.assign(link.href), wait);
    }
    loaded = true;
  }

  // A finished live deal's page: when the others at the table have finished too, its
  // comparison with them (#duplicate, drawn when this player finished) is drawn again.
  let tableState = null;
  let comparisonUrl = null;
  function refreshComparison() {
    const comparison = document.getElementById("duplicate");
    // Its address, from the section as first drawn (the figures swapped in have none).
    if (comparison && comparison.getAttribute("hx-get")) comparisonUrl = comparison.getAttribute("hx-get");
    const next = document.querySelector("[data-table-state]");
    if (!next) return;
    const state = next.dataset.tableState;
    if (tableState === "playing" && state !== "playing" && comparison && comparisonUrl && window.htmx) {
      window.htmx.ajax("GET", comparisonUrl, { target: comparison, swap: "outerHTML" });
    }
    tableState = state;
  }

  document.addEventListener("htmx:afterSettle", refreshComparison);
  document.addEventListener("DOMContentLoaded", () => {
    refreshComparison();
    showLocalTimes();
    countDown();
    follow();
  });
  document.addEventListener("htmx:afterSettle", follow);
  setInterval(countDown, 1000);
})();
