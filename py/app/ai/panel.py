"""The AI panel's settings and display: think time, pause, algorithm, preset, weights, the status line, the readout.

The settings are the player's (``AiSettings``), saved under ``"ai"`` and read
by every request ``AiControls`` sends; choosing the ``learned`` preset has the
worker download its network first (``network_download``), the AI playing the
preset it had (the settings' stand-in) until the network is in.  The preset
list and the weights show the preset the AI really plays; the choice saved is
the player's, kept until they choose another: a download that fails is said,
and tried again on the next load.  The download's progress has a line of its
own (``#ai-network``), so a hint never hides it; the line shows only while the
player's choice is ``learned`` and the worker downloading is the one in use (a
worker that dies takes its download with it, and the next one downloads
again: ``worker_gone``).  Switching the algorithm switches the preset to the
algorithm's own: the note under the settings (``#ai-preset-note``) says what
it now plays, and stays, whatever a hint says, until the settings change
again.  While the player's choice is the network's (``network_chosen``), its
story shows under the note (``story_panel``, told by ``on_settings_shown``).
The status line and the readout show what the AI is doing and its last
decision; the status is also said through the view's live region.
``AiControls`` runs the actions.
"""

from app.ai.client import AiClient
from app.ai.network_download import download, page_folder, progress_text, ready_text
from app.ai.settings import ALGORITHMS, PAUSE_STEPS_MS, THINK_STEPS_MS, AiSettings, slider_range
from app.ai.split import AiTeam
from app.browser.clock import sleep
from app.browser.wiring import Wiring
from app.explorer.glossary import add_entries, mark_term, word_term

try:  # names for annotations only: MicroPython skips annotations and has neither module
    from collections.abc import Callable
    from typing import Any
except ImportError:
    pass

RESCUED = ", vs 2s"
FETCH_POLL_S = 0.25
"""How often ``fetch_network`` looks whether the download it waits for has ended."""
"""After the depth in the readout when alpha-beta proved a loss and its rescue search (against 2s only) chose."""


class AiPanel:
    """Binds the settings, the status line and the readout of the AI panel to the saved settings and the worker."""

    def __init__(
        self,
        document: Any,
        client: AiClient | AiTeam,
        storage: Any,
        view: Any,
        create_proxy: "Callable[[Callable[..., Any]], Any]",
    ) -> None:
        self.document = document
        self.client = client
        self.storage = storage
        self.view = view
        self._wiring = Wiring(create_proxy)
        self.settings = AiSettings.from_saved(storage.settings().get("ai"))
        self.preset_defaults: dict[str, dict[str, float]] = {}
        self.decisions = 0
        self.network_ready = False  # this worker holds the learned network
        self._network_task: Any = None  # the download this worker runs, until it ends
        self._network_run = 0  # which download is this worker's: one begun before is not (``worker_gone``)
        self._network_text = ""  # how far the download is, for the network's line
        self.on_failure: Callable[[dict[str, Any]], None] = lambda _answer: None  # a worker that died: main wires it
        self.on_settings_shown: list[Callable[[], None]] = []  # after each change: the network's story follows
        el = document.getElementById
        self.status = el("ai-status")
        self.algorithm_select = el("ai-algorithm")
        self.think_slider = el("ai-think")
        self.think_value = el("ai-think-value")
        self.pause_slider = el("ai-pause")
        self.pause_value = el("ai-pause-value")
        self.preset_select = el("ai-preset")
        self.weights_panel = el("weights-panel")
        self.weights_box = el("ai-weights")
        self.reset_button = el("ai-weights-reset")
        self.readout = el("ai-readout")
        self.network_line = el("ai-network")
        self.preset_note = el("ai-preset-note")
        self._wiring.listen(self.algorithm_select, "change", lambda _e: self._algorithm_changed())
        self._wiring.listen(self.think_slider, "input", lambda _e: self._think_changed())
        self._wiring.listen(self.pause_slider, "input", lambda _e: self._pause_changed())
        self._wiring.listen(self.preset_select, "change", lambda _e: self._preset_changed())
        self._wiring.listen(self.reset_button, "click", lambda _e: self._reset_weights())
        self._wiring.listen(self.weights_panel, "toggle", lambda _e: self._weights_toggled())
        self._show_settings()

    def worker_ready(self) -> None:
        """A worker answered: its presets fill the list, and a chosen learned network is downloaded again."""
        self.worker_gone()  # a new worker: the network, if chosen, is downloaded again (or read from cache)
        self.preset_defaults = {p["name"]: dict(p["default_weights"]) for p in self.client.presets}
        self.settings.restrict_to(self.preset_defaults)
        wanted = self.settings.preset
        if self._needs_download(wanted):  # the player's choice comes back; meanwhile the algorithm's own plays
            self.settings.choose_preset(wanted, available=False)
            self._start_download()
        self._fill_presets()
        self._show_settings()

    def worker_gone(self) -> None:
        """The worker is gone or being replaced: so is the network it held, and the download it ran is over
        (cancelled; whatever it ends with is not said), its line hidden."""
        self._network_run += 1
        task, self._network_task = self._network_task, None
        if task is not None:
            task.cancel()
        self.network_ready = False
        self._network_text = ""
        self._show_network()

    def _save(self, note: str = "") -> None:
        """Save the settings; the preset note says ``note`` (a change other than the algorithm's clears it)."""
        if self.preset_note is not None:
            self.preset_note.textContent = note
            self.preset_note.hidden = not note
        saved = self.storage.settings()
        saved["ai"] = self.settings.to_saved()
        self.storage.save_settings(saved)

    def _think_changed(self) -> None:
        self.settings.think_ms = THINK_STEPS_MS[int(self.think_slider.value)]
        self.think_value.textContent = _ms(self.settings.think_ms)
        self._save()

    def _pause_changed(self) -> None:
        self.settings.pause_ms = PAUSE_STEPS_MS[int(self.pause_slider.value)]
        self.pause_value.textContent = _ms(self.settings.pause_ms)
        self._save()

    def _algorithm_changed(self) -> None:
        """A new algorithm brings its own preset (``DEFAULT_PRESET``): said on the preset note, and aloud."""
        before = self.settings.playing
        self.settings.choose_algorithm(str(self.algorithm_select.value))
        if self.preset_defaults:
            self.settings.restrict_to(self.preset_defaults)
        self._show_settings()
        self._show_network()  # the algorithm's own preset: the network's line goes (its download goes on)
        note = preset_change_text(self.settings.algorithm, before, self.settings.preset)
        self._save(note)
        self.view.announce(note)

    def _preset_changed(self) -> None:
        name = str(self.preset_select.value)
        if name not in self.preset_defaults:
            return
        waits = self._needs_download(name) and not self.network_ready
        self.settings.choose_preset(name, available=not waits)
        self._save()
        self._show_settings()  # a preset that waits for its network: the list goes on showing what plays
        if waits:
            self._start_download()  # the preset plays once its network is in
        self._show_network()  # another preset: the network's line goes (its download goes on); learned: it comes

    def _needs_download(self, name: str) -> bool:
        return any(p["name"] == name and p.get("download") for p in self.client.presets)

    def network_chosen(self) -> bool:
        """Whether the player's preset is the one that plays the learned network (in or still downloading)."""
        return self._needs_download(self.settings.preset)

    async def fetch_network(self) -> bool:
        """The learned network downloaded for a use other than play (a game's review), unless it is in; True once
        it is.  The player's preset stays as it is."""
        if not self.network_ready:
            self._start_download()
            while self._network_task is not None:
                await sleep(FETCH_POLL_S)
        return self.network_ready

    def _start_download(self) -> None:
        """The worker downloads the learned network, unless it already is."""
        if self._network_task is None:
            self._network_run += 1
            self._network_task = self._wiring.spawn(self._load_network(self._network_run))

    async def _load_network(self, run: int) -> None:
        """Have the worker download the learned network, showing how far it is; then play it, or say why not.

        Meanwhile the AI plays the stand-in; a failure is said, and the player's
        choice stays saved (the next load tries again, as does choosing it).
        A download whose worker was replaced meanwhile (``run`` is not the
        current one) says nothing: the new worker downloads on its own.
        """
        self._progress(run, progress_text({}))
        if self.network_chosen():  # not when it comes for a review
            self.set_status(f"The AI plays {self.settings.playing} until the learned network is in.")
        try:
            base = page_folder(str(self.document.baseURI))
            answer = await download(self.client, base, lambda text: self._progress(run, text))
        finally:
            if run == self._network_run:
                self._network_task = None
                self._network_text = ""
                self._show_network()
        if run != self._network_run:
            return
        if answer.get("ok"):
            self.network_ready = True
            wanted = self._needs_download(self.settings.preset)  # the player may have chosen another meanwhile
            if self.settings.stand_in is not None and wanted:
                self.settings.arrived()
                self._show_settings()
            if wanted:
                self.set_status(ready_text(answer))
            return
        playing = self.settings.playing
        message = (
            f"The learned network could not be used: {answer.get('error')}. The AI plays {playing} meanwhile; "
            "the download is tried again on the next load, or when you choose learned again."
        )
        self._show_settings()
        self.set_status(message, error=True)
        self.view.show_notice(message, error=True)
        if answer.get("restart"):
            self.on_failure(answer)

    def _progress(self, run: int, text: str) -> None:
        """Download ``run`` is this far: shown if it is still this worker's."""
        if run == self._network_run:
            self._network_text = text
            self._show_network()

    def _show_network(self) -> None:
        """The download's own line: how far it is while the player's choice waits for it, else hidden (never said
        aloud: it changes every second)."""
        if self.network_line is None:
            return
        waiting = self._network_task is not None and self._needs_download(self.settings.preset)
        text = self._network_text if waiting else ""
        self.network_line.textContent = text
        self.network_line.hidden = not text

    def _reset_weights(self) -> None:
        self.settings.reset_weights()
        self._show_weights()
        self._save()

    def _on_weight_input(self, name: str, slider: Any, output: Any) -> "Callable[[Any], None]":
        """The input handler of one weight's slider."""
        return lambda _event: self._weight_changed(name, slider, output)

    def _weight_changed(self, name: str, slider: Any, output: Any) -> None:
        value = float(slider.value)
        self.settings.set_weight(name, value)
        output.textContent = _number(value)
        self._save()

    def _playing_preset(self) -> "dict[str, Any]":
        """The worker's description of the preset that plays ({} until the worker has listed its presets)."""
        return next((p for p in self.client.presets if p["name"] == self.settings.playing), {})

    def _weights_toggled(self) -> None:
        """The weights' sliders are made when their panel is first opened (a phone's start makes none of them)."""
        if self.weights_panel.open and self.preset_defaults and not self.weights_box.hasChildNodes():
            self._show_weights()

    def _show_settings(self) -> None:
        self.algorithm_select.value = self.settings.algorithm
        self.think_slider.value = str(THINK_STEPS_MS.index(self.settings.think_ms))
        self.think_value.textContent = _ms(self.settings.think_ms)
        self.pause_slider.value = str(PAUSE_STEPS_MS.index(self.settings.pause_ms))
        self.pause_value.textContent = _ms(self.settings.pause_ms)
        if self.preset_defaults:
            self.preset_select.value = self.settings.playing
            self.preset_select.title = str(self._playing_preset().get("description", ""))
            if self.weights_panel.open or self.weights_box.hasChildNodes():  # else made when first opened
                self._show_weights()
        for listener in self.on_settings_shown:
            listener()

    def _fill_presets(self) -> None:
        self.preset_select.replaceChildren()
        for preset in self.client.presets:
            option = self.document.createElement("option")
            option.value = preset["name"]
            option.textContent = preset["name"] + (" (downloads its network)" if preset.get("download") else "")
            option.title = str(preset.get("description", ""))
            self.preset_select.appendChild(option)
        self.preset_select.disabled = False

    def _show_weights(self) -> None:
        """One slider per weight of the active preset, showing the player's value or the default."""
        defaults = self.preset_defaults.get(self.settings.playing, {})
        values = self.settings.active_weights(defaults)
        self.weights_box.replaceChildren()
        preset = self._playing_preset()
        listed = preset.get("weight_names")
        explained_keys = []
        order = [name for name in listed if name in defaults] if isinstance(listed, list) else []
        for name in order if set(order) == set(defaults) else sorted(defaults):
            low, high, step = slider_range(float(defaults[name]))
            value = min(max(values[name], low), high)
            row = self.document.createElement("label")
            row.className = "weight"
            caption = self.document.createElement("span")
            caption.className = "weight-name"
            caption.textContent = name
            explained = word_term(name)
            if explained is not None:
                mark_term(caption, explained)
                explained_keys.append(explained)
            slider = self.document.createElement("input")
            slider.type = "range"
            slider.min, slider.max, slider.step = str(low), str(high), str(step)
            slider.value = str(value)
            slider.setAttribute("data-weight", name)
            output = self.document.createElement("output")
            output.textContent = _number(values[name])
            row.append(caption, slider, output)
            self.weights_box.appendChild(row)
            self._wiring.listen(slider, "input", self._on_weight_input(name, slider, output))
        note = self.document.createElement("p")  # what the preset is and what its weights change, in words
        note.className = "weights-note"
        note.setAttribute("id", "ai-weights-note")
        note.textContent = f"{self.settings.playing}: {preset.get('description', '')}"
        self.weights_box.appendChild(note)
        add_entries(self.document, explained_keys)  # the words' descriptions, the explorer built or not

    # -- display ------------------------------------------------------------------------------

    def set_status(self, text: str, error: bool = False, say: str | None = None) -> None:
        """Show ``text`` on the status line and say ``say`` (by default the same text; "" says nothing)."""
        self.status.textContent = text
        self.status.className = "ai-status error" if error else "ai-status"
        spoken = text if say is None else say
        if spoken:
            self.view.announce(spoken)

    def show_readout(self, answer: dict[str, Any]) -> None:
        self.decisions += 1
        fields = {
            "algorithm": ALGORITHMS.get(str(answer.get("algorithm")), str(answer.get("algorithm"))),
            "preset": str(answer.get("preset")),
            "move": str(answer.get("move") or "none"),
            "depth": f"{answer.get('depth')}{RESCUED if answer.get('rescued') else ''}",
            "nodes": f"{int(answer.get('nodes') or 0):,}",
            "nps": f"{round(float(answer.get('nodes_per_second') or 0)):,}/s",  # MicroPython: no "," for floats
            "cutoffs": f"{int(answer.get('cutoffs') or 0):,}",
            "time": f"{float(answer.get('elapsed_ms') or 0):.0f} ms of {_ms(answer.get('think_ms') or 0)}",
            "workers": str(int(answer.get("workers") or 1)),
        }
        for key, text in fields.items():
            self.document.getElementById(f"readout-{key}").textContent = text
        algorithm = ALGORITHM_TERMS.get(str(answer.get("algorithm")))
        if algorithm is not None:
            mark_term(self.document.getElementById("readout-algorithm"), algorithm)
            add_entries(self.document, [algorithm])
        self.readout.setAttribute("data-decisions", str(self.decisions))
        self.readout.setAttribute("data-algorithm", str(answer.get("algorithm")))
        self.readout.setAttribute("data-preset", str(answer.get("preset")))
        self.readout.setAttribute("data-rescued", "true" if answer.get("rescued") else "false")


ALGORITHM_TERMS = {"alphabeta": "alpha-beta", "expectimax": "expectimax"}


def _ms(value: float) -> str:
    value = float(value)
    return f"{value / 1000:g} s" if value >= 1000 else f"{value:g} ms"


def _number(value: float) -> str:
    return f"{value:.4g}"


def preset_change_text(algorithm: str, before: str, after: str) -> str:
    """The preset note when ``algorithm`` was chosen and the preset went from ``before`` to ``after``."""
    name = ALGORITHMS.get(algorithm, algorithm)
    if after == before:
        return f"Now playing {name} with the {after} preset, as before."
    return (
        f"Now playing {name} with the {after} preset (it was {before}): each algorithm plays its own evaluation; "
        "choose another under \u201cEvaluation preset and weights\u201d."
    )
