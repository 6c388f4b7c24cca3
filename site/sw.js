// Service worker: after the first visit every file of the site (pages, scripts, Pyodide, the
// wheels, and whatever was fetched on demand) is served from the cache, so the site works
// offline and starts faster. build.py writes the build's hash and the list of files to cache
// up front below; a new deploy means a new cache.
const VERSION = "__BUILD_VERSION__";
const ASSETS = /* __PRECACHE__ */ [];
const CACHE = `ptrnet-${VERSION}`;

// This version's cache, opened once per run of this worker rather than once per request (each
// open is a round trip to the browser, as long as a lookup); an open that failed is tried again.
let opened = null;
function ourCache() {
  opened ??= caches.open(CACHE).catch((err) => {
    opened = null;
    throw err;
  });
  return opened;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    ourCache()
      .then((cache) => cache.addAll(ASSETS))
      .then(() => self.skipWaiting()),
  );
});

// Older versions' caches go, and so does the Python snapshot that earlier builds kept in Cache
// Storage (it lives in the private file system now, see js/runtime/fast-start/snapshot-file.js).
const stale = (key) => (key.startsWith("ptrnet-") && key !== CACHE) || key === "pyodide-snapshot";

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter(stale).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// Our files are cached under their URL without a query (a page's query is its demo's settings),
// and the site's root under index.html; lookups are exact matches on that URL (Cache Storage's
// ignoreSearch reads every entry: several times slower, and a page load asks for about 40 files).
function cacheURL(url) {
  const key = new URL(url);
  key.search = "";
  if (key.pathname.endsWith("/")) key.pathname += "index.html";
  return key.href;
}

// The page lists the files it fetched before this worker took over; keep ours that are missing.
self.addEventListener("message", (event) => {
  const { type, urls } = event.data ?? {};
  if (type !== "cache-used" || !Array.isArray(urls)) return;
  const ours = urls.filter(
    (url) => typeof url === "string" && URL.canParse(url) && new URL(url).origin === self.location.origin,
  );
  event.waitUntil(
    ourCache().then((cache) =>
      Promise.all(ours.map(cacheURL).map(async (key) => (await cache.match(key)) || cache.add(key).catch(() => {}))),
    ),
  );
});

// A script is served as a new response around the cached body. Given Cache Storage's own response
// for a script, Chromium serialises a code cache for it (68 ms of the page's main thread on a
// second visit, measured in a trace) but never reads one back for a module script (a third visit
// compiled every module afresh), so that work only delays the start.
function served(cached) {
  const script = cached.headers.get("content-type")?.includes("javascript");
  return script ? new Response(cached.body, cached) : cached;
}

// Cache first for our own files. What is not cached yet (the files fetched on demand: trained
// weights, the full stdlib) comes from the network and is kept for the next visit.
self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  const key = cacheURL(request.url);
  event.respondWith(
    ourCache().then(async (cache) => {
      const cached = await cache.match(key);
      if (cached) return served(cached);
      const response = await fetch(request);
      if (response.ok && response.type === "basic") cache.put(key, response.clone());
      return response;
    }),
  );
});
