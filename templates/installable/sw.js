// Limes Online's service worker (served by limes_site.installable at /sw.js, scope "/").
// It keeps copies of the static files only, in a cache named after the release: a new
// release changes this file, the browser installs the new worker, which takes over at once
// and deletes the old copies. Pages and API answers always come from the network, never
// from a cache (they may be someone's own); with no network, a page shows our offline page.
const CONFIG = {{ config|safe }};
const CACHE_PREFIX = "limes-static-";
const CACHE = CACHE_PREFIX + CONFIG.version;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => cache.addAll([CONFIG.offlineUrl, ...CONFIG.precache]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name)),
      ))
      .then(() => self.clients.claim()),
  );
});

const staticAnswer = async (request) => {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") await cache.put(request, response.clone());
  return response;
};

const pageOrOffline = async (request) => {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(CONFIG.offlineUrl, { cacheName: CACHE });
    if (offline) return offline;
    throw error;
  }
};

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  } else if (url.pathname.startsWith(CONFIG.staticPrefix)) {
    event.respondWith(staticAnswer(request));
  }
  // Anything else (fragments, event streams, the API, the translations) is left to the
  // browser: straight to the network, never into a cache.
});

// Web push (floor.webpush): each push carries a title, a text and the page to open, never
// a card. A live game's turn is shown only while no tab of that game is in sight.
const samePage = (client, url) => new URL(client.url).pathname === url.pathname;

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch (error) {
    data = {};
  }
  const url = new URL(data.url || "/", self.location.origin);
  if (url.origin !== self.location.origin) return;
  const show = async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const inSight = windows.some((client) => client.visibilityState === "visible" && samePage(client, url));
    if (inSight && data.tag === "live_turn") return;
    await self.registration.showNotification(data.title || "Limes Online", {
      body: data.body || "",
      tag: data.tag ? `${data.tag}:${url.pathname}` : undefined,
      data: { url: url.href },
      icon: CONFIG.icon,
    });
  };
  event.waitUntil(show());
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  const open = async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const there = windows.find((client) => samePage(client, target));
    if (there) return there.focus();
    return self.clients.openWindow(target.href);
  };
  event.waitUntil(open());
});
