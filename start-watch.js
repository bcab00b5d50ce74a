// What went wrong with a start, said on the loading screen with Retry.
//
// The page is playable once its Python (MicroPython, py/app/main.py) marks <body data-ready="true">.
// Before that, nothing of the page's Python runs, so this plain script watches the start: a file
// that fails to download (a script or stylesheet, or a file PyScript fetches: main.py, its modules,
// the interpreter) is said at once, by name.  The start's 15 s deadline is inline in index.html, so
// that it runs even when this file never arrives; it says a stall through sayStartFailed when this
// file did.  Retry reloads the page.  PyScript's own load failures (a rejected fetch or import) become
// these messages instead of uncaught errors in the console; once the page is ready, such a failure
// belongs to the AI worker, which the page's Python reports in the AI's status line.
//
// Loaded with defer, so it never holds the first paint: it runs once the HTML is parsed, before PyScript's
// core.js (a module script, run in document order with deferred ones), so fetch is wrapped before PyScript
// fetches anything.  A file that fails before it runs is said by index.html's inline lines.
const LOAD_FAILURE = /fetch|import|network|load/i;

function startFinished() {
  return document.body && document.body.dataset.ready === "true";
}

function sayStartFailed(message) {
  // A page opened from file:// has been told why at once (index.html): nothing later replaces that.
  if (startFinished() || document.documentElement.dataset.startFailed === "file") return;
  const overlay = document.getElementById("loading");
  const text = document.getElementById("loading-text");
  const retry = document.getElementById("retry-start");
  if (!overlay || !text || !retry) return;
  overlay.classList.add("failed");
  overlay.setAttribute("role", "alert");
  text.textContent = message;
  retry.hidden = false;
  document.documentElement.dataset.startFailed = "true";
}

function fileName(url) {
  try {
    return new URL(url, location.href).pathname.split("/").pop() || url;
  } catch (error) {
    return String(url);
  }
}

window.addEventListener(
  "error",
  (event) => {
    const element = event.target;
    const url = element && element !== window && (element.src || element.href);
    if (url) {
      sayStartFailed(`The page's files could not be downloaded (${fileName(url)}): the server stopped answering.`);
    } else if (!startFinished() && LOAD_FAILURE.test(String(event.message))) {
      event.preventDefault();
      sayStartFailed(`The page's Python could not be downloaded: ${event.message}`);
    }
  },
  true,
);

// PyScript fetches the page's Python (main.py, its modules, the configuration, the interpreter's files)
// with fetch(): a failure there is seen here, named by its file, before PyScript says anything.
const pageFetch = window.fetch.bind(window);
window.fetch = function watchedFetch(input, init) {
  const url = typeof input === "string" ? input : (input && input.url) || String(input);
  const answer = pageFetch(input, init);
  if (!startFinished()) {
    answer.then(
      (response) => {
        if (!response.ok) sayStartFailed(`The page's Python could not be downloaded (${fileName(url)}: HTTP ${response.status}).`);
      },
      () => sayStartFailed(`The page's Python could not be downloaded (${fileName(url)}): the server stopped answering.`),
    );
  }
  return answer;
};

window.addEventListener("unhandledrejection", (event) => {
  const reason = event.reason;
  const text = String((reason && reason.message) || reason);
  if (!LOAD_FAILURE.test(text)) return;
  event.preventDefault(); // said by the page, not left uncaught in the console
  if (!startFinished()) sayStartFailed(`The page's Python could not be downloaded: ${text}.`);
});

window.sayStartFailed = sayStartFailed; // the inline deadline's way to say it here

document.addEventListener("DOMContentLoaded", () => {
  const retry = document.getElementById("retry-start");
  if (retry) retry.addEventListener("click", () => location.reload());
});
