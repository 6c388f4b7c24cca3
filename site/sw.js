// Service worker: after the first visit every file of the site (pages, scripts, Pyodide, the
// wheels, and whatever was fetched on demand) is served from the cache, so the site works
// offline and starts faster. build.py writes the build's hash and the list of files to cache
// up front below; a new deploy means a new cache.
const VERSION = "__BUILD_VERSION__";
const ASSETS = /* __PRECACHE__ */ [];
const CACHE = `ptrnet-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(ASSETS))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((key) => key.startsWith("ptrnet-") && key !== CACHE).map((key) => caches.delete(key))),
      )
      .then(() => self.clients.claim()),
  );
});

// The page lists the files it fetched before this worker took over; keep ours that are missing.
self.addEventListener("message", (event) => {
  const { type, urls } = event.data ?? {};
  if (type !== "cache-used" || !Array.isArray(urls)) return;
  const ours = urls.filter(
    (url) => typeof url === "string" && URL.canParse(url) && new URL(url).origin === self.location.origin,
  );
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) =>
        Promise.all(
          ours.map(async (url) => (await cache.match(url, { ignoreSearch: true })) || cache.add(url).catch(() => {})),
        ),
      ),
  );
});

// Cache first for our own files. What is not cached yet (the files fetched on demand: trained
// weights, the full stdlib) comes from the network and is kept for the next visit.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      // The site's root is index.html, cached under that name only.
      const url = new URL(request.url);
      if (url.pathname.endsWith("/")) url.pathname += "index.html";
      const cached = await cache.match(url, { ignoreSearch: true });
      if (cached) return cached;
      const response = await fetch(request);
      if (response.ok && response.type === "basic") cache.put(request, response.clone());
      return response;
    }),
  );
});
