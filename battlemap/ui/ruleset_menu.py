"""The Rules menu: pick the encounter's ruleset, and see user ruleset files that were skipped.

The ruleset in play is named in the status bar at all times; switching shows what changes at
the table (``battlemap.rules.ruleset_changes``) in a box that does not block the map.

The registry holds the shipped rulesets plus the DM's own files from the user data folder
(``<AppData>/rulesets``). A broken user file is listed under "Ruleset problems" and skipped;
it never stops the app.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QStandardPaths, Qt, QTimer, QUrl
from PySide6.QtGui import QAction, QActionGroup, QDesktopServices, QUndoStack
from PySide6.QtWidgets import QLabel, QMenu, QMessageBox

from battlemap.model.document import Change, Document, ReplaceEncounterField
from battlemap.rules.loader import RulesetError, RulesetRegistry, load_registry
from battlemap.rules.schema import Ruleset
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.plain_text import literal_labels, literal_mnemonics, plain_tooltip
from battlemap.ui.undo import push

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    pass


def user_rulesets_dir() -> Path:
    """Where the DM's own ruleset files live."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    return Path(base) / "rulesets"


def ruleset_title(registry: RulesetRegistry, ruleset_id: str) -> str:
    try:
        return f"{registry.get(ruleset_id).name} ({ruleset_id})"
    except RulesetError:
        return f"{ruleset_id} (cannot be loaded)"


class RulesetMenu(QObject):
    def __init__(self, window: FeatureWindow, document: Document, undo_stack: QUndoStack) -> None:
        super().__init__(window)
        self.window = window
        self.document = document
        self.undo_stack = undo_stack
        self.user_dir = user_rulesets_dir()
        self._registry: RulesetRegistry | None = None
        self.menu = QMenu("&Rules", window)
        help_menu = window.help_menu
        window.menuBar().insertMenu(help_menu.menuAction(), self.menu)
        self.menu.aboutToShow.connect(self._fill)
        self.group = QActionGroup(self)
        self.label = QLabel()  # "Rules: 5e SRD", always in the status bar
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # a user ruleset's name is text
        window.statusBar().addPermanentWidget(self.label)
        self.summary: QMessageBox | None = None
        """The last switch's summary box (non-modal; replaced by the next switch)."""
        document.subscribe(self._on_change)
        self.show_ruleset()
        # Reading and validating every ruleset takes a noticeable moment: do it just after
        # the window first shows, not before.
        QTimer.singleShot(0, self, self._report_problems_quietly)

    @property
    def registry(self) -> RulesetRegistry:
        if self._registry is None:
            self._registry = load_registry(self.user_dir)
        return self._registry

    def _report_problems_quietly(self) -> None:
        self._report_problems(quiet=True)
        self.show_ruleset()  # the name, now that the files are read

    def _loaded(self, ruleset_id: str) -> Ruleset | None:
        try:
            return self.registry.get(ruleset_id)
        except RulesetError:
            return None

    def show_ruleset(self) -> None:
        """Name the encounter's ruleset in the status bar: its id until the ruleset files are
        read (just after the window shows), then its name."""
        ruleset_id = self.document.encounter.ruleset
        if self._registry is None:
            self.label.setText(f"Rules: {ruleset_id}")
            return
        rules = self._loaded(ruleset_id)
        name = rules.name if rules is not None else f"{ruleset_id} (cannot be loaded)"
        self.label.setText(f"Rules: {name}")
        about = rules.description if rules is not None else ""
        self.label.setToolTip(plain_tooltip(f"{about}\n\nSwitch in the Rules menu.".strip()))

    def _on_change(self, change: Change) -> None:
        if change.other or change.replaced:  # the ruleset is one of the "other" fields
            self.show_ruleset()

    def _fill(self) -> None:
        self.menu.clear()
        current = self.document.encounter.ruleset
        ids = self.registry.ids()
        if current not in ids:
            ids = [*ids, current]
        for ruleset_id in ids:
            # a name's "&" is shown, not a mnemonic: "Bloodied & Brink"
            title = literal_mnemonics(ruleset_title(self.registry, ruleset_id))
            action = QAction(title, self.menu)
            action.setCheckable(True)
            action.setChecked(ruleset_id == current)
            action.setEnabled(ruleset_id in self.registry.sources)
            action.triggered.connect(lambda _=False, rid=ruleset_id: self.choose(rid))
            self.group.addAction(action)
            self.menu.addAction(action)
        self.menu.addSeparator()
        self.menu.addAction("&Reload ruleset files", self.reload)
        self.menu.addAction("Open my &rulesets folder", self.open_folder)
        problems = self.menu.addAction("Ruleset &problems…", self._report_problems)
        problems.setEnabled(bool(self.registry.problems))

    def choose(self, ruleset_id: str) -> None:
        """Play the encounter under ``ruleset_id`` (one undo step) and show what changes."""
        from battlemap.rules.ruleset_changes import ruleset_changes

        old = self.document.encounter.ruleset
        if ruleset_id == old:
            return
        old_rules, new_rules = self._loaded(old), self._loaded(ruleset_id)
        name = new_rules.name if new_rules is not None else ruleset_id
        command = ReplaceEncounterField("ruleset", old, ruleset_id, text=f"Ruleset: {name}")
        push(self.undo_stack, self.document, command)
        if old_rules is None or new_rules is None:
            lines = [f"{old} cannot be loaded: what changes is not known."]
        else:
            lines = ruleset_changes(old_rules, new_rules).lines()
        self.window.statusBar().showMessage(f"Now playing {name}: {lines[0]}", 10_000)
        self._show_summary(name, lines)

    def _show_summary(self, name: str, lines: list[str]) -> None:
        if self.summary is not None:
            self.summary.close()
        box = QMessageBox(
            QMessageBox.Icon.Information,
            "Ruleset changed",
            f"Now playing {name}. What changes:\n\n" + "\n".join(f"• {s}" for s in lines),
            QMessageBox.StandardButton.Ok,
            self.window,
        )
        literal_labels(box)  # a user ruleset's name and fields are shown as typed
        box.setWindowModality(Qt.WindowModality.NonModal)  # the map stays usable
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.destroyed.connect(lambda _=None: self._forget_summary(box))
        box.show()
        self.summary = box

    def _forget_summary(self, box: QMessageBox) -> None:
        if self.summary is box:
            self.summary = None

    def reload(self) -> None:
        self._registry = load_registry(self.user_dir)
        self._fill()
        self._report_problems(quiet=True)

    def open_folder(self) -> None:
        self.user_dir.mkdir(parents=True, exist_ok=True)
        QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.user_dir)))

    def _report_problems(self, quiet: bool = False) -> None:
        problems = self.registry.problems
        if not problems:
            return
        if quiet:  # at start or reload: a status-bar note, never a blocking dialog
            count = sum(len(error.problems) for error in problems)
            self.window.statusBar().showMessage(
                f"{count} problem(s) in your ruleset files; those files were skipped "
                "(Rules > Ruleset problems…)",
                10_000,
            )
            return
        text = "\n".join(str(problem) for error in problems for problem in error.problems)
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Ruleset problems",
            f"These files were skipped:\n\n{text}",
            parent=self.window,
        )
        literal_labels(box)  # the problems quote the files
        box.exec()


def install(window: FeatureWindow) -> RulesetMenu:
    return RulesetMenu(window, window.document, window.undo_stack)
