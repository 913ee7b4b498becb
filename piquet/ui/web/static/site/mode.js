// @ts-check
// Which site this page is part of: the server's (`piquet serve`), or the offline site (`piquet site`, docs/offline.md),
// whose pages carry <meta name="piquet-site"> and play in the browser, the table's logic in a worker. The one place
// the pages ask it, and where each says the address of a page or of what the lobby reads.

const meta = typeof document === "undefined" ? null : document.querySelector('meta[name="piquet-site"]');

/** Whether this page is the offline site's: its tables are played in this browser, not on a server. */
export const offline = meta !== null;

/** The site's root: the server's `/`, or the directory the offline site was published in (a path of a host). */
export const root = new URL("../../", import.meta.url);

/** Where the offline lobby leaves the table it asks for (the body of `POST /api/tables`) for the table page. */
export const NEW_TABLE = "piquet.newTable";

/** The lobby's address. */
export function lobbyHref() {
  return offline ? new URL("index.html", root).href : "/";
}

/**
 * The address of the table `id` (the secret kept in this browser finds the seat).
 * @param {string} id
 */
export function tableHref(id) {
  return offline ? `${new URL("table.html", root).href}?id=${encodeURIComponent(id)}` : `/t/${encodeURIComponent(id)}`;
}

/**
 * The player's guide to a variant (`""`: the guides' index) in the language `lang`, at an anchor (`#repique`) or
 * its beginning: the server's `/guide/rubicon?lang=fr`, the offline site's `guide/rubicon.fr.html` (English is the
 * guides' first language, with no mark).
 * @param {string} variant @param {string} [anchor] @param {string} [lang]
 */
export function guideHref(variant, anchor = "", lang = "en") {
  const name = variant ? encodeURIComponent(variant) : "";
  const code = encodeURIComponent(lang);
  if (offline) return new URL(`guide/${name || "index"}${lang === "en" ? "" : `.${code}`}.html`, root).href + anchor;
  return `/guide${name ? `/${name}` : ""}${lang === "en" ? "" : `?lang=${code}`}${anchor}`;
}

/**
 * Where the lobby reads what a table may be made of, its words in `lang` (docs/protocol.md, `GET /api/setup`; the
 * offline site writes one file a language).
 * @param {string} lang
 */
export function setupUrl(lang) {
  const code = encodeURIComponent(lang);
  return offline ? new URL(`api/setup.${code}.json`, root).href : `/api/setup?lang=${code}`;
}

/**
 * The offline site keeps its files for a visit with no network: its service worker (docs/offline.md). Nothing on
 * the server's pages.
 */
export function keepOffline() {
  if (!offline || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(new URL("sw.js", root), { scope: root.pathname }).catch(() => {
    /* a browser that refuses it (a private window) plays on with the network */
  });
}
