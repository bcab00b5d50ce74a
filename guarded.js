// JavaScript calls that may throw, made for the page's Python (MicroPython on the main thread).
//
// MicroPython cannot catch an exception thrown by a JavaScript function it calls: the exception
// unwinds through the interpreter and ends the whole script.  So a call that can fail (storage
// that is full or refused, a pointer capture on a pointer already gone, a history entry the
// browser refuses) goes through guardedCall, which returns the outcome instead of throwing:
// {ok: true, value} or {ok: false, error: "Name: message"}.  py/app/js_guard.py is its Python side.
globalThis.guardedCall = function (target, name, ...args) {
  try {
    const member = target[name];
    return { ok: true, value: typeof member === "function" ? member.apply(target, args) : member };
  } catch (error) {
    return { ok: false, error: `${error && error.name}: ${error && error.message}` };
  }
};
