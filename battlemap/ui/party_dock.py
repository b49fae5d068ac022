"""Player characters: a form, the encounter's party, and a roster kept between encounters.

The party (``Encounter.party``, stat blocks) is saved with the encounter; every change to it
is one undo step. Each character saved in the form is also written to the roster in the
user's settings, so the next encounter can take the same characters ("Add from roster").
"Place on map" puts the selected character on a free space as a party-side creature, with
the character's level (the token keeps it: later edits of the character don't change tokens
already placed, as for its other numbers). "Export roster…" and "Import roster…" carry the
characters to another machine as a roster file (``io/roster_file.py``, ``docs/roster.md``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QFileDialog,
    QGridLayout,
    QInputDialog,
    QListWidget,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlemap.io.errors import FileFormatError
from battlemap.model.creature import Side
from battlemap.model.document import Change, ReplaceEncounterField
from battlemap.model.limits import MAX_PARTY
from battlemap.model.statblock import StatBlock
from battlemap.ui.library_dock import (
    NOTE_MS,
    add_creatures_command,
    creatures_full,
)
from battlemap.ui.map_resettle import setup_spaces
from battlemap.ui.style import scene_to_cell
from battlemap.ui.undo import push

__all__ = ["PartyDock", "install"]

if TYPE_CHECKING:  # the character form is imported when the DM first opens it
    from battlemap.ui.character_form import PlayerCharacterDialog
    from battlemap.ui.feature_window import FeatureWindow

ROSTER_KEY = "party/roster"
BUTTONS_PER_ROW = 3


class PartyDock(QDockWidget):
    """The encounter's party, with buttons to create, edit, remove and place characters."""

    def __init__(self, window: FeatureWindow, settings: QSettings) -> None:
        super().__init__("Party", window)
        self.setObjectName("party-dock")
        self.window_ = window
        self.settings = settings
        self.list = QListWidget()
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.itemDoubleClicked.connect(lambda *_: self.edit_selected())
        # Two rows of buttons: in one row the five made the right column ~470 px wide.
        buttons = QGridLayout()
        self.buttons: dict[str, QPushButton] = {}
        for index, (text, slot) in enumerate(
            (
                ("New…", self.new_character),
                ("Edit…", self.edit_selected),
                ("Remove", self.remove_selected),
                ("From roster…", self.add_from_roster),
                ("Place on map", self.place_selected),
                ("Export roster…", self.export_roster),
                ("Import roster…", self.import_roster),
            )
        ):
            button = QPushButton(text)
            # Not ``connect(slot)``: clicked's ``checked`` would land in add_from_roster's name.
            button.clicked.connect(lambda _=False, s=slot: s())
            buttons.addWidget(button, *divmod(index, BUTTONS_PER_ROW))
            self.buttons[text] = button
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.addWidget(self.list)
        layout.addLayout(buttons)
        self.setWidget(body)
        self._shown: tuple[StatBlock, ...] = ()
        window.document.subscribe(self._on_change)
        self.refresh()

    # --- the party in the encounter -----------------------------------------------------

    @property
    def party(self) -> tuple[StatBlock, ...]:
        return self.window_.document.encounter.party

    def _on_change(self, change: Change) -> None:
        # "other" covers combat too (every attack and turn): rebuild the list only when the
        # party itself differs from what it shows.
        if change.other and self.party != self._shown:
            self.refresh()

    def refresh(self) -> None:
        self._shown = self.party
        current = self.list.currentRow()
        self.list.clear()
        for block in self.party:
            level = f"level {block.level}, " if block.level is not None else ""
            self.list.addItem(
                f"{block.name} — {level}AC {block.armor_class}, HP {block.hit_points}, "
                f"PP {block.passive_perception}"
            )
        self.list.setCurrentRow(min(current, self.list.count() - 1))

    def selected(self) -> StatBlock | None:
        row = self.list.currentRow()
        return self.party[row] if 0 <= row < len(self.party) else None

    def set_party(self, party: tuple[StatBlock, ...], text: str) -> bool:
        """Make ``party`` the encounter's (one undo step); refused (status bar, False) past
        the model's ``MAX_PARTY``, so every party the app keeps saves and reopens."""
        if len(party) > MAX_PARTY:
            self.window_.statusBar().showMessage(
                f"{text}: refused, the party would have {len(party)} characters, more than"
                f" {MAX_PARTY}"
            )
            return False
        command = ReplaceEncounterField("party", self.party, party, text=text)
        push(self.window_.undo_stack, self.window_.document, command)
        return True

    def save_character(self, block: StatBlock, replacing: StatBlock | None = None) -> None:
        """Put ``block`` in the party (in place of ``replacing``) and in the roster."""
        party = [b for b in self.party if b.name != block.name and b != replacing]
        index = self.party.index(replacing) if replacing in self.party else len(party)
        party.insert(min(index, len(party)), block)
        self.set_party(tuple(party), f"Save {block.name}")
        self.remember(block)

    def _saved(self, dialog: PlayerCharacterDialog, replacing: StatBlock | None) -> None:
        if dialog.block is not None:
            self.save_character(dialog.block, replacing)

    def new_character(self) -> PlayerCharacterDialog:
        from battlemap.ui.character_form import PlayerCharacterDialog  # built when first used

        dialog = PlayerCharacterDialog(self.window_)
        dialog.accepted.connect(lambda: self._saved(dialog, None))
        dialog.open()
        return dialog

    def edit_selected(self) -> PlayerCharacterDialog | None:
        block = self.selected()
        if block is None:
            return None
        from battlemap.ui.character_form import PlayerCharacterDialog

        dialog = PlayerCharacterDialog(self.window_, block)
        dialog.accepted.connect(lambda: self._saved(dialog, block))
        dialog.open()
        return dialog

    def remove_selected(self) -> None:
        block = self.selected()
        if block is not None:
            self.set_party(tuple(b for b in self.party if b != block), f"Remove {block.name}")

    def place_selected(self) -> None:
        """Put the selected character on the free space nearest the middle of the view."""
        from battlemap.io.monsters import creature_from_statblock  # on first use, not at start

        block = self.selected()
        if block is None:
            return
        view = self.window_.view
        centre = view.mapToScene(view.viewport().rect().center())
        encounter = self.window_.document.encounter
        if (full := creatures_full(encounter)) is not None:
            self.window_.statusBar().showMessage(full)
            return
        near = (scene_to_cell(centre.x()), scene_to_cell(centre.y()))
        spaces = setup_spaces(encounter, block.size, 1, near, Side.PARTY)
        if not spaces:
            self.window_.statusBar().showMessage(f"No free space on the map for {block.name}.")
            return
        creature = creature_from_statblock(block, side=Side.PARTY, position=spaces[0])
        push(
            self.window_.undo_stack,
            self.window_.document,
            add_creatures_command([creature], f"Place {block.name}"),
        )

    # --- the roster, kept in the user's settings ----------------------------------------

    def roster(self) -> list[StatBlock]:
        """Characters saved in earlier encounters; unreadable entries are skipped."""
        raw = self.settings.value(ROSTER_KEY, "[]")
        try:
            entries = json.loads(str(raw))
        except json.JSONDecodeError:
            return []
        roster = []
        for entry in entries if isinstance(entries, list) else []:
            try:
                roster.append(StatBlock.model_validate(entry))
            except ValidationError:
                continue
        return roster

    def remember(self, block: StatBlock) -> None:
        """Keep ``block`` in the roster, newest last; past ``MAX_PARTY`` the oldest go."""
        roster = ([b for b in self.roster() if b.name != block.name] + [block])[-MAX_PARTY:]
        self.settings.setValue(ROSTER_KEY, json.dumps([b.model_dump(mode="json") for b in roster]))

    def export_roster(self, path: Path | None = None) -> bool:
        """Write the roster, with this encounter's party, to a roster file (asks where when
        ``path`` is None). False when cancelled or the file can't be written (status bar)."""
        if path is None:
            chosen, _ = QFileDialog.getSaveFileName(
                self, "Export roster", "party.json", "Battlemap roster (*.json)"
            )
            if not chosen:
                return False
            path = Path(chosen)
        from battlemap.io.roster_file import write_roster

        party_names = {b.name for b in self.party}
        kept = [*self.party, *(b for b in self.roster() if b.name not in party_names)]
        left_out = len(kept) - MAX_PARTY  # a roster file holds at most a party's worth
        try:
            write_roster(path, kept[:MAX_PARTY])
        except OSError as error:
            self.window_.statusBar().showMessage(f"Can't write {path}: {error.strerror or error}")
            return False
        note = f" ({left_out} older roster characters left out)" if left_out > 0 else ""
        exported = min(len(kept), MAX_PARTY)
        self.window_.statusBar().showMessage(f"Exported {exported} characters to {path}{note}")
        return True

    def import_roster(self, path: Path | None = None) -> bool:
        """Read a roster file (asks which when ``path`` is None): its characters join the
        roster and this encounter's party (one undo step; a character of the same name is
        replaced). A bad file changes nothing and the status bar says why."""
        if path is None:
            chosen, _ = QFileDialog.getOpenFileName(
                self, "Import roster", "", "Battlemap roster (*.json);;All files (*)"
            )
            if not chosen:
                return False
            path = Path(chosen)
        from battlemap.io.roster_file import read_roster

        try:
            characters = read_roster(path)
        except FileFormatError as error:
            self.window_.statusBar().showMessage(f"Not imported: {error}")
            return False
        names = {b.name for b in characters}
        party = (*(b for b in self.party if b.name not in names), *characters)
        if not self.set_party(party, f"Import {len(characters)} characters"):
            return False
        for block in characters:
            self.remember(block)
        self.window_.statusBar().showMessage(f"Imported {len(characters)} characters from {path}")
        return True

    def add_from_roster(self, name: str | None = None) -> None:
        """Add a roster character to this encounter's party (asks which when ``name`` is None)."""
        roster = {b.name: b for b in self.roster()}
        if name is None:
            if not roster:
                self.window_.statusBar().showMessage(
                    "From roster: the roster is empty. A character made with New… is saved to it.",
                    NOTE_MS,
                )
                return
            name, ok = QInputDialog.getItem(
                self, "Add from roster", "Character", sorted(roster), 0, False
            )
            if not ok:
                return
        block = roster.get(name)
        if block is None or block in self.party:
            why = "is not in the roster" if block is None else "is already in the party"
            self.window_.statusBar().showMessage(f"{name} {why}.", NOTE_MS)
            return
        others = tuple(b for b in self.party if b.name != block.name)
        self.set_party((*others, block), f"Add {block.name}")


def install(window: FeatureWindow) -> PartyDock:
    dock = PartyDock(window, window.settings)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.tabifyDockWidget(window.library_dock, dock)
    window.library_dock.raise_()  # the library is the tab a DM wants first
    window.view_menu.addAction(dock.toggleViewAction())
    return dock
