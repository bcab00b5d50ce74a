"""The editor's share box: a position pasted as text into the board being edited, and the ``?rows=`` link that
opens it, copied to the clipboard when the browser allows it.

Bound to the ``document`` it receives, so CPython tests drive it with fakes.
"""

from app.browser.page_options import forget_option
from app.browser.wiring import Wiring
from app.games.edited_board import EditedBoard, button, element
from game2048.position_text import format_rows, parse_rows

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from typing import Any
except ImportError:
    pass


class PositionText:
    """The share box of the editor bar (``share``) over one ``EditedBoard``: paste a position, or share its link.

    A position written any usual way (``game2048.position_text.parse_rows``) is pasted into the board being edited;
    the link field follows the board, and "Copy link" puts the address in the clipboard when the browser allows it.
    A position opened from such a link (``app.games.startup``) is the game from then on: ``rows`` leaves the
    address, so a reload goes on playing it.
    """

    def __init__(self, document: Any, wiring: Wiring, cells: EditedBoard) -> None:
        self.document = document
        self._wiring = wiring
        self.cells = cells
        self._build()

    def _build(self) -> None:
        document = self.document
        self.share = element(document, "details", {"class": "editor-share", "id": "editor-share"})
        summary = element(document, "summary", {}, "Paste or share a position")
        paste_label = element(
            document, "label", {"class": "editor-paste", "for": "editor-paste"}, "Four rows of numbers"
        )
        self.paste_input = element(
            document,
            "textarea",
            {
                "id": "editor-paste",
                "rows": "4",
                "spellcheck": "false",
                "placeholder": "0 2 4 8\n0 0 0 0\n0 0 0 0\n2 0 0 0",
            },
        )
        paste_row = element(document, "div", {"class": "editor-row"})
        paste_row.append(button(document, self._wiring, "editor-paste-apply", "Use this position", self.paste, True))
        link_row = element(document, "div", {"class": "editor-row editor-link-row"})
        self.link_input = element(
            document,
            "input",
            {"id": "editor-link", "type": "text", "readonly": "", "aria-label": "Link to this position"},
        )
        copy = button(document, self._wiring, "editor-copy-link", "Copy link", self.copy_link, True)
        link_row.append(copy, self.link_input)
        self.share.append(summary, paste_label, self.paste_input, paste_row, link_row)

    def paste(self) -> None:
        """The position written in the paste box replaces the board being edited."""
        self.cells.commit_typed()
        try:
            board = parse_rows(str(self.paste_input.value))
        except ValueError as exc:
            self.cells.say(f"Not pasted: {exc}.", error=True)
            return
        self.cells.load(board)
        self.cells.say("Position pasted: \u201cPlay from here\u201d plays it.")

    def link(self) -> str:
        """The address that opens the edited position (``?rows=``), on this page."""
        location = self.document.location
        return f"{location.origin}{location.pathname}?rows={format_rows(self.cells.board())}"

    def show_link(self) -> None:
        """The link field follows the board."""
        self.link_input.value = self.link()

    def copy_link(self) -> None:
        """Put the link in the clipboard when the browser allows it; it is in the field below either way."""
        self.cells.commit_typed()
        url = self.link()
        self.link_input.value = url
        self.link_input.select()
        clipboard = getattr(self.document.defaultView.navigator, "clipboard", None)
        if not clipboard:
            self.cells.say("This browser gives no clipboard here: copy the link from the field below.")
            return
        self._wiring.spawn(self._copy(clipboard, url))

    async def _copy(self, clipboard: Any, url: str) -> None:
        try:
            await clipboard.writeText(url)
        except Exception:  # noqa: BLE001 - a refusal from the browser (permission, focus)
            self.cells.say("The browser did not allow copying: the link is in the field below.")
            return
        self.cells.say("Link copied: it opens this position.")

    def forget_link_position(self) -> None:
        """The URL's position is now the game: drop ``rows`` from the address, so a reload goes on playing it."""
        forget_option(self.document.defaultView, "rows")
