"""JavaScript calls that may throw, turned into Python exceptions that MicroPython can catch.

The page's interpreter, MicroPython, cannot catch an exception thrown by a
JavaScript function it calls: the exception ends the whole script.  So every
call that can fail goes through ``guardedCall`` (``guarded.js``, loaded by the
page before Python), which catches in JavaScript and returns the outcome;
``js_call`` raises ``JsCallError`` with the browser's message when it failed.
"""

try:  # names for annotations only: MicroPython skips annotations and has no typing module
    from typing import Any
except ImportError:
    pass


class JsCallError(Exception):
    """A guarded JavaScript call threw; the message is the browser's ("QuotaExceededError: ...")."""


def js_call(window: Any, target: Any, name: str, *args: Any) -> Any:
    """``target[name](*args)``, or the property ``target[name]`` when it is not a function."""
    outcome = window.guardedCall(target, name, *args)
    if not outcome.ok:
        raise JsCallError(str(outcome.error))
    return outcome.value
