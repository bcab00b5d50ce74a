"""The learned network's story on the page: a disclosure by the preset, drawn from the manifest when first opened.

``NetworkStory`` binds "How this network was made" (``#network-story``, a
``<details>`` under the preset note) and the explorer's link to it
(``#explorer-story-row``): both show only while the player's preset is the
network's (``show``, which the AI panel calls each time its settings are
shown).  Nothing is fetched or drawn at start: the first opening fetches the
page's copy of the manifest (``networks/4x6.json``, which the offline cache
keeps with the page), reads it as outside data (``read_json``'s limits) and
draws it (``story_drawing``, imported then); a manifest that cannot be read is
said, and asked for again at the next opening.  A glossary word followed (a
link with ``data-gloss``) goes to ``show_entry``: the page opens the explorer's
glossary at that entry.  Plain Python for the page's MicroPython.
"""

from app.ai.network_download import page_folder
from app.browser.fetch_text import FetchError, fetch_text
from app.browser.outside_data import BadData, read_json
from app.browser.wiring import Wiring
from app.explorer.glossary import add_entries

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

MANIFEST_PATH = "networks/4x6.json"
"""The manifest, from the page's folder (``game2048.evaluation.learned``'s ``MANIFEST_FILE`` in ``networks/``)."""
MAX_MANIFEST_CHARS = 100_000
"""The manifest is about 7,000 characters; anything far larger is not it."""
MAX_MANIFEST_DEPTH = 8
READING = "Reading the network\u2019s manifest\u2026"


class NetworkStory:
    """Shows the learned network's story while it is the player's preset, drawn at its first opening."""

    def __init__(
        self,
        document: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
        show_entry: "Callable[[str], None]",
    ) -> None:
        self.document = document
        self.show_entry = show_entry
        self.state = "idle"  # then "loading", "ready", or "failed" (tried again at the next opening)
        self._wiring = Wiring(create_proxy)
        el = document.getElementById
        self.box = el("network-story")
        self.body = el("network-story-body")
        self.row = el("explorer-story-row")
        if self.box is None or self.body is None:
            return
        self._wiring.listen(self.box, "toggle", lambda _e: self._toggled())
        self._wiring.listen(self.body, "click", self._clicked)
        link = el("explorer-story-link")
        if link is not None:
            self._wiring.listen(link, "click", self._from_explorer)

    def show(self, chosen: bool) -> None:
        """The story and the explorer's link to it shown while the network is the player's choice, else hidden."""
        for element in (self.box, self.row):
            if element is not None:
                element.hidden = not chosen

    def open(self) -> None:
        """The story shown and opened, in view, with the focus on its summary (the explorer's link)."""
        if self.box is None:
            return
        self.box.hidden = False
        self.box.open = True  # its toggle draws it
        summary = self.box.querySelector("summary")
        summary.scrollIntoView()
        summary.focus()

    def _from_explorer(self, event: Any) -> None:
        event.preventDefault()
        self.open()

    def _toggled(self) -> None:
        if self.box.open and self.state in ("idle", "failed"):
            self.state = "loading"
            self._say(READING, "loading")  # at once: the fetch's task starts after this event
            self._wiring.spawn(self._load())

    async def _load(self) -> None:
        """Fetch the manifest and draw its story; or say why it could not be read."""
        try:
            url = page_folder(str(self.document.baseURI)) + MANIFEST_PATH
            text = await fetch_text(self.document.defaultView, url)
            manifest = read_json(text, MAX_MANIFEST_CHARS, MAX_MANIFEST_DEPTH)
        except (FetchError, BadData) as exc:
            self.state = "failed"
            self._say(f"The network\u2019s manifest could not be read: {exc}. Close this and open it again to retry.")
            return
        from app.ai.network_story import story
        from app.ai.story_drawing import GLOSSARY_KEYS, story_html

        add_entries(self.document, GLOSSARY_KEYS)  # each linked word's description, the explorer built or not
        self.body.innerHTML = story_html(story(manifest))
        self.body.setAttribute("data-state", "ready")
        self.state = "ready"

    def _say(self, text: str, state: str = "failed") -> None:
        self.body.textContent = text
        self.body.setAttribute("data-state", state)

    def _clicked(self, event: Any) -> None:
        """A glossary word followed: its entry shown by the page (the explorer's glossary), not the link's jump."""
        target = event.target
        link = target.closest("a[data-gloss]") if getattr(target, "closest", None) is not None else None
        if not link:  # JavaScript's null is falsy
            return
        event.preventDefault()
        self.show_entry(str(link.getAttribute("data-gloss")))
