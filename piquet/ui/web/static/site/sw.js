// @ts-check
// The offline site's service worker (docs/offline.md): every file of the site kept in a cache named by the site's
// version, filled when it installs, and served from there first, so that after the first visit the site loads and
// plays with no network. A new version (`piquet site` stamps the list of files and the version below) installs its
// own cache, then takes over and deletes the old one.

const SITE = { version: "", files: [] };

/** The worker's scope (typed as the page's by the type check, which knows no service worker). @type {any} */
const scope = self;
const CACHE = `piquet-${SITE.version}`;

scope.addEventListener("install", (/** @type {any} */ event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SITE.files)).then(() => scope.skipWaiting()));
});

scope.addEventListener("activate", (/** @type {any} */ event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith("piquet-") && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => scope.clients.claim()));
});

scope.addEventListener("fetch", (/** @type {any} */ event) => {
  const request = /** @type {Request} */ (event.request);
  if (request.method !== "GET" || new URL(request.url).origin !== location.origin) return;
  // A page's address carries its table in the query (table.html?id=...): the page is the same file whatever it is.
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const kept = await cache.match(request, { ignoreSearch: request.mode === "navigate" });
    return kept || fetch(request);
  }));
});
