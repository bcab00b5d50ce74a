"""The explorer's words, each with its meaning: one glossary for the explorer, the readout and the settings.

A technical word on the page is a ``term``: a focusable span whose meaning
shows on hover and on keyboard focus (``TermTips`` puts it in one tooltip
beside the word, fixed to the viewport so no scrolling table clips it) and is
its accessible description (``aria-describedby`` the glossary's own entry,
which ``glossary_html`` lists in the explorer).  ``term`` writes one into the
explorer's HTML; ``mark_terms`` makes the page's static words (the readout's
labels, the settings') terms, from their ``data-term``; ``term_link`` is a term
that also links to its entry (the learned network's story: following one opens
the explorer's glossary there, ``app.explorer.panel``'s ``show_entry``).  The explorer writes the
whole list when it is first opened; until then ``add_entries`` writes only the
entries the terms outside it point to, so none is left without its description.
The entries and their meanings live in ``app.explorer.glossary_entries``; this module shows them.
"""

from html import escape

from app.browser.wiring import Wiring
from app.explorer.glossary_entries import ENTRIES, WORD_TERMS

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

TIP_ID = "term-tip"
GLOSSARY_ID = "glossary-list"
"""The glossary's box in the explorer: its whole list once the explorer is built, before that the entries the
terms on the page point to (``add_entries``)."""
TIP_GAP_PX = 6
"""Between the word and its tooltip."""
TIP_WIDTH_PX = 280
"""The tooltip's widest (the style's max-width): it is moved left to stay inside the viewport."""

MEANINGS = {key: meaning for key, _word, meaning in ENTRIES}


def word_term(word: str) -> str | None:
    """The glossary entry that explains ``word`` (a term's or a weight's name), or ``None``."""
    if word.startswith("pattern "):
        return "pattern"
    return WORD_TERMS.get(word)


def term(key: str, text: str = "") -> str:
    """``text`` (by default the glossary's word) as a term whose meaning shows on hover and focus."""
    meaning = MEANINGS[key]
    shown = text or next(word for k, word, _ in ENTRIES if k == key)
    return (
        f'<span class="term" tabindex="0" data-tip="{escape(meaning)}" aria-describedby="gloss-{key}">'
        f"{escape(shown)}</span>"
    )


def term_link(key: str, text: str = "") -> str:
    """``text`` (by default the glossary's word) as a link to its glossary entry (``#gloss-KEY``, which the page
    opens: ``data-gloss``), with a term's meaning on hover and focus: a word explained where it is read, and one
    step from the glossary that explains its neighbours."""
    meaning = MEANINGS[key]
    shown = text or next(word for k, word, _ in ENTRIES if k == key)
    return (
        f'<a class="term term-link" href="#gloss-{key}" data-gloss="{key}" data-tip="{escape(meaning)}" '
        f'aria-describedby="gloss-{key}">{escape(shown)}</a>'
    )


def _items(keys: Any = None) -> str:
    return "".join(
        f'<dt>{escape(word)}</dt><dd id="gloss-{key}">{escape(meaning)}</dd>'
        for key, word, meaning in ENTRIES
        if keys is None or key in keys
    )


def glossary_html(keys: Any = None) -> str:
    """The glossary as a definition list, each meaning the description its terms point to (only ``keys``'
    entries, in the glossary's order, when given)."""
    return f'<dl class="glossary-list">{_items(keys)}</dl>'


def add_entries(document: Any, keys: Any) -> None:
    """Make sure the glossary list (``#glossary-list``) holds the entries ``keys`` name, so that a term marked
    outside the explorer is described before the explorer is first opened; the explorer writes the whole list
    when it is built (``app.explorer.panel``), and these are then already there."""
    box = document.getElementById(GLOSSARY_ID)
    if box is None:
        return
    missing = [key for key in keys if key in MEANINGS and document.getElementById("gloss-" + key) is None]
    if not missing:
        return
    listing = box.querySelector("dl")
    if listing is None:
        box.innerHTML = glossary_html(missing)
    else:
        listing.insertAdjacentHTML("beforeend", _items(missing))


def mark_term(element: Any, key: str) -> None:
    """Make ``element`` the term ``key``: focusable, its meaning on hover and focus and as its description."""
    element.setAttribute("tabindex", "0")
    element.setAttribute("data-tip", MEANINGS[key])
    element.setAttribute("aria-describedby", f"gloss-{key}")
    classes = str(element.className or "").split()
    if "term" not in classes:
        element.className = " ".join(classes + ["term"])


def mark_terms(document: Any) -> int:
    """Make every element with a known ``data-term`` a term, its glossary entry written (``add_entries``); how
    many were marked."""
    found = document.querySelectorAll("[data-term]")
    marked: list[str] = []
    for i in range(found.length):
        element = found.item(i)
        key = str(element.getAttribute("data-term"))
        if key in MEANINGS:
            mark_term(element, key)
            marked.append(key)
    add_entries(document, marked)
    return len(marked)


class TermTips:
    """One tooltip for every term on the page: shown beside the word under the pointer or with the focus."""

    def __init__(self, document: Any, create_proxy: "Callable[[Callable[..., Any]], Any]") -> None:
        self.document = document
        self.tip = document.getElementById(TIP_ID)
        self.shown: Any = None
        self._wiring = Wiring(create_proxy)
        for event in ("mouseover", "focusin"):
            self._wiring.listen(document, event, self._entered)
        for event in ("mouseout", "focusout"):
            self._wiring.listen(document, event, self._left)
        self._wiring.listen(document, "keydown", self._key)

    def _term_of(self, event: Any) -> Any:
        target = event.target
        closest = getattr(target, "closest", None)
        return target.closest(".term") if closest is not None else None

    def _entered(self, event: Any) -> None:
        word = self._term_of(event)
        if word:  # JavaScript's null is falsy
            self.show(word)

    def _left(self, event: Any) -> None:
        word = self._term_of(event)
        if word and self.shown is not None:
            self.hide()

    def _key(self, event: Any) -> None:
        if str(event.key) == "Escape" and self.shown is not None:
            self.hide()

    def show(self, word: Any) -> None:
        """The tooltip under ``word`` (above it near the bottom of the viewport), inside the viewport."""
        tip = self.tip
        if tip is None:
            return
        tip.textContent = str(word.getAttribute("data-tip") or "")
        tip.hidden = False
        rect = word.getBoundingClientRect()
        view = self.document.documentElement
        width, height = float(view.clientWidth), float(view.clientHeight)
        left = min(max(4.0, float(rect.left)), max(4.0, width - TIP_WIDTH_PX - 4))
        top = float(rect.bottom) + TIP_GAP_PX
        if top + float(tip.offsetHeight) > height:
            top = max(4.0, float(rect.top) - TIP_GAP_PX - float(tip.offsetHeight))
        tip.style.left = f"{left:.0f}px"
        tip.style.top = f"{top:.0f}px"
        self.shown = word

    def hide(self) -> None:
        if self.tip is not None:
            self.tip.hidden = True
        self.shown = None
