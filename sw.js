// The service worker of the 2048 page: after the first visit, the page, its Python and both
// interpreters load from the cache, with or without the server (play and AI alike).
//
// What it caches, and the version, come from ./offline-files.js, which tools/offline.py makes from
// the files the page names (served by tools/serve.py, written into site/ by tools/site.py):
// self.OFFLINE = {version, cache, files: {path: sha256}}.
// The browser compares that imported script byte for byte on every update check, so any change to
// a cached file installs a new worker.  Install fetches every file, checks its SHA-256 against the
// list and only then writes the new cache, named after the version: complete or not at all.
// Activate deletes every other version's cache.  A new version waits until a player asks for it
// (offline.js: "A new version is ready", Reload), which reloads that page under it; another open
// tab says the same and runs on as it loaded until its player reloads.
const MANIFEST = "./offline-files.js";
importScripts(MANIFEST);

const { cache: CACHE, files: FILES } = self.OFFLINE;
const CACHE_PREFIX = "2048-offline-";
// The learned network is not in the page's cache and never passes through this worker: the AI worker
// fetches it when a player chooses it, as networks/<file>?sha256=<its digest>, in HTTP ranges (so no
// single fetch lasts minutes, and a dropped connection resumes), and keeps it in a cache of its own
// ("2048-network") only once its size and SHA-256 match the manifest, with its decoded tables beside it
// (game2048/evaluation/network_loader.py, ntuple_tables_copy.py, py/app/ai/worker.py).  Nothing unchecked is
// ever stored: an error page or a cut file is never kept.
const SCOPE = new URL("./", self.location.href);

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

async function fetchChecked(path, expected) {
  // "no-cache": revalidate even the immutable interpreter files, so a stale HTTP cache cannot slip in.
  const response = await fetch(new URL(path, SCOPE), { cache: "no-cache" });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  const actual = await sha256(await response.clone().arrayBuffer());
  if (actual !== expected) throw new Error(`${path} changed while it was being cached`);
  return response;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const entries = Object.entries(FILES);
      const responses = await Promise.all(entries.map(([path, digest]) => fetchChecked(path, digest)));
      const cache = await caches.open(CACHE);
      try {
        await Promise.all(entries.map(([path], i) => cache.put(new URL(path, SCOPE), responses[i])));
      } catch (error) {
        await caches.delete(CACHE); // a cache that is not complete is not kept
        throw error;
      }
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim(); // the first visit's page too, so it is offline-ready without a reload
    })(),
  );
});

// Whether the server answered this page's probe.  While it does, the interpreters' files (node_modules,
// served immutable) are left to the browser's own HTTP cache, where Chrome also keeps their compiled
// WebAssembly: handed through a service worker, Pyodide compiles again on every visit, and the AI is
// ready about half a second later.  Without a server they come from this cache, like every other file.
let serverAnswers = false;

function probeServer() {
  serverAnswers = false;
  return fetch(new URL(MANIFEST, SCOPE), { cache: "no-store" })
    .then((response) => {
      serverAnswers = response.ok;
    })
    .catch(() => {
      serverAnswers = false;
    });
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== SCOPE.origin || !url.pathname.startsWith(SCOPE.pathname)) return;
  let path = decodeURIComponent(url.pathname.slice(SCOPE.pathname.length));
  if (path === "" && request.mode === "navigate") path = "index.html";
  if (request.mode === "navigate") event.waitUntil(probeServer());
  if (!Object.hasOwn(FILES, path)) return; // not the app's (the network's ranges): as without a service worker
  if (serverAnswers && path.startsWith("node_modules/")) return; // the browser's HTTP cache (see above)
  event.respondWith(
    caches.match(new URL(path, SCOPE), { cacheName: CACHE }).then((cached) => cached || fetch(request)),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") {
    self.skipWaiting();
  } else if (event.data === "status" && event.ports[0]) {
    caches
      .open(CACHE)
      .then((cache) => cache.keys())
      .then((keys) => {
        const cached = new Set(keys.map((request) => decodeURIComponent(new URL(request.url).pathname.slice(SCOPE.pathname.length))));
        const missing = Object.keys(FILES).filter((path) => !cached.has(path));
        event.ports[0].postMessage({ version: self.OFFLINE.version, files: Object.keys(FILES).length, missing });
      });
  }
});
