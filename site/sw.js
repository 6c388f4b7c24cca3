// Service worker: after the first visit every file of the site (pages, scripts, Pyodide, the
// wheels) is served from the cache, so the site works offline and starts faster. build.py
// writes the build's hash and file list below; a new deploy means a new cache.
const VERSION = "__BUILD_VERSION__";
const ASSETS = /* __PRECACHE__ */ [];
const CACHE = `ptrnet-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(ASSETS)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("ptrnet-") && key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// Cache first for our own files; anything else (and anything not cached) goes to the network.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => (await cache.match(request, { ignoreSearch: true })) || fetch(request)),
  );
});
