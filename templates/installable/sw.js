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

// Web push (issue 38) hooks in here: a "push" handler showing the notification and a
// "notificationclick" handler opening its page.
