// The JavaScript the page's Python (MicroPython on the main thread) cannot do safely itself: calls that may
// throw (guardedCall), a new task of the browser for the start's pauses (nextTask), and the AI worker's head
// start (aiWorkerLoading).
//
// MicroPython cannot catch an exception thrown by a JavaScript function it calls: the exception
// unwinds through the interpreter and ends the whole script.  So a call that can fail (storage
// that is full or refused, a pointer capture on a pointer already gone, a history entry the
// browser refuses) goes through guardedCall, which returns the outcome instead of throwing:
// {ok: true, value} or {ok: false, error: "Name: message"}.  py/app/browser/js_guard.py is its Python side.
globalThis.guardedCall = function (target, name, ...args) {
  try {
    const member = target[name];
    return { ok: true, value: typeof member === "function" ? member.apply(target, args) : member };
  } catch (error) {
    return { ok: false, error: `${error && error.name}: ${error && error.message}` };
  }
};

// A new task for the page's start (py/app/page.py's pause): a promise that settles once the browser has had the
// thread (input, painting).  scheduler.yield() where the browser has it (its continuation runs before other
// waiting tasks, so the start is not held back by them), else a timer.  Defined here because MicroPython's calls of
// a method through a JavaScript object were at times made with the wrong `this` ("Illegal invocation").
globalThis.nextTask = function () {
  const scheduler = globalThis.scheduler;
  if (scheduler && typeof scheduler.yield === "function") return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
};

// The AI worker's head start.  Until Pyodide begins to load, PyScript's worker reports each step of its start
// to this thread ("py:progress" events, each a synchronous call that waits for this thread to be idle); the page's
// start, whose pauses are scheduler.yield() continuations that go before those calls, would hold the worker there
// until the page is playable, and the AI would be ready that much later.  py/app/main.py awaits this before the
// page's start: it resolves true once the worker has begun to load its interpreter ("Loading interpreter"), false
// after capMs, or at once without cross-origin isolation (the worker then reports nothing to this thread).
const aiInterpreterLoading = new Promise(function (resolve) {
  addEventListener("py:progress", function (event) {
    if (event.detail === "Loading interpreter") resolve(true);
  });
});
globalThis.aiWorkerLoading = function (capMs) {
  if (!globalThis.crossOriginIsolated) return Promise.resolve(false);
  const capped = new Promise(function (resolve) { setTimeout(resolve, capMs, false); });
  return Promise.race([aiInterpreterLoading, capped]);
};
