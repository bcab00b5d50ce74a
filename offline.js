// Offline play: registers the service worker (./sw.js) once the game is playable, and says how it
// stands on <html data-offline="...">: "ready" once this page is served by it from a complete
// cache (data-offline-version names the version), "off" when ?sw=off removed it, "unsupported"
// or "failed" (the page works as before, from the server).
//
// A new version of the app installs a new worker and a complete new cache in the background; the
// page then says "A new version is ready" (#update-notice) and waits for the player: Reload hands
// over to the new worker and reloads this page under it, so a page never runs half old and half new
// files, and nothing is reloaded under a player who is setting up a position.  ?sw=off unregisters
// the worker and deletes every cache of the page's (the learned network's too).
const root = document.documentElement;
const CACHES_PREFIX = "2048-"; // sw.js's caches: the page's versions ("2048-offline-…") and the network's

function askWorker(worker, message) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => resolve(event.data);
    worker.postMessage(message, [channel.port2]);
  });
}

async function removeOffline() {
  for (const registration of await navigator.serviceWorker.getRegistrations()) await registration.unregister();
  for (const name of await caches.keys()) if (name.startsWith(CACHES_PREFIX)) await caches.delete(name);
  root.dataset.offline = "off";
}

// Says that a new version is ready; Reload lets `worker` (installed, waiting) take over and reloads under it.
function offerUpdate(worker) {
  const notice = document.getElementById("update-notice");
  const reload = document.getElementById("update-reload");
  if (!notice || !reload) return;
  notice.hidden = false;
  reload.onclick = () => {
    reload.disabled = true;
    updateAsked = true;
    // Another tab may have handed over already: then this page only needs its reload.
    if (worker && worker.state === "installed") worker.postMessage("skip-waiting");
    else location.reload();
  };
}

let updateAsked = false;

async function registerOffline() {
  const container = navigator.serviceWorker;
  const hadController = Boolean(container.controller);
  container.addEventListener("controllerchange", () => {
    // The first visit's page is claimed without a controller before: nothing old to replace.
    if (!hadController) return;
    if (updateAsked) location.reload(); // this page's Reload
    else offerUpdate(null); // another tab's Reload: this page stays as it is until its player reloads
  });
  const registration = await container.register("./sw.js", { updateViaCache: "none" });
  const offer = (worker) => {
    if (worker && container.controller) offerUpdate(worker);
  };
  const watch = (worker) =>
    worker?.addEventListener("statechange", () => worker.state === "installed" && offer(worker));
  offer(registration.waiting); // a new version cached before this page asked
  watch(registration.installing); // one being cached now (its updatefound may have fired already)
  registration.addEventListener("updatefound", () => watch(registration.installing));
  await container.ready;
  if (!container.controller) await new Promise((resolve) => container.addEventListener("controllerchange", resolve, { once: true }));
  const status = await askWorker(container.controller, "status");
  root.dataset.offlineVersion = status.version;
  root.dataset.offline = status.missing.length === 0 ? "ready" : "failed";
}

// Registered once the game is playable (<body data-ready="true">, set by py/app/main.py), so that
// caching the first visit's files does not compete with the first board for the CPU.
function whenPlayable(callback) {
  const playable = () => document.body.dataset.ready === "true";
  if (playable()) return callback();
  const observer = new MutationObserver(() => {
    if (!playable()) return;
    observer.disconnect();
    callback();
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
}

if (!("serviceWorker" in navigator)) {
  root.dataset.offline = "unsupported";
} else if (new URLSearchParams(location.search).get("sw") === "off") {
  removeOffline().catch((error) => console.warn("2048: could not remove the offline cache:", error));
} else {
  whenPlayable(() =>
    registerOffline().catch((error) => {
      // Offline play is a bonus: without it (another server, a private window) the page works as before.
      root.dataset.offline = "failed";
      console.warn("2048: offline play is not available:", error);
    }),
  );
}
