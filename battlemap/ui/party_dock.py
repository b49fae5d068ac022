"""Player characters: a small form, the encounter's party, and a roster kept between encounters.

The party (``Encounter.party``, stat blocks) is saved with the encounter; every change to it
is one undo step. Each character saved in the form is also written to the roster in the
user's settings, so the next encounter can take the same characters ("Add from roster").
"Place on map" puts the selected character on a free space as a party-side creature, with
the character's level (the token keeps it: later edits of the character don't change tokens
already placed, as for its other numbers).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from pydantic import ValidationError
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.io.errors import describe_validation_error
from battlemap.io.monsters import creature_from_statblock
from battlemap.model.creature import Side, Size, Speeds
from battlemap.model.document import Change, ReplaceEncounterField
from battlemap.model.limits import (
    MAX_AC,
    MAX_CHARACTER_LEVEL,
    MAX_HP,
    MAX_NAME,
    MAX_SPEED_FEET,
)
from battlemap.model.statblock import (
    Ability,
    AbilityScores,
    Senses,
    StatBlock,
)
from battlemap.ui.library_dock import (
    NOTE_MS,
    add_creatures_command,
    creatures_full,
    free_spaces,
)
from battlemap.ui.style import scene_to_cell
from battlemap.ui.undo import push

if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow

ROSTER_KEY = "party/roster"
PC_TYPE = "player character"
ATTACK_COLUMNS = ("Attack", "To hit", "Reach", "Range", "Long", "Damage", "Type")
SPEED_MODES = ("walk", "fly", "swim", "climb")
NO_LEVEL = 0
"""The level box's value for "no level recorded" (a character saved before levels)."""
BUTTONS_PER_ROW = 3


def score_for_modifier(modifier: int) -> int:
    """The lowest ability score with this modifier (+2 -> 14, -1 -> 8), clamped to 1..30."""
    return max(1, min(30, 10 + 2 * modifier))


def _spin(low: int, high: int, value: int, suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    box.setSuffix(suffix)
    return box


class PlayerCharacterDialog(QDialog):
    """Edit one player character; ``block`` holds the result after ``accept``."""

    def __init__(self, parent: QWidget | None, block: StatBlock | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Player character")
        self.setObjectName("pc-dialog")
        self.block: StatBlock | None = None
        start = block or StatBlock(name="New character", type=PC_TYPE, hit_points=10)
        form = QFormLayout()
        self.name = QLineEdit(start.name)
        self.name.setMaxLength(MAX_NAME)
        self.size_box = QComboBox()
        for size in Size:
            self.size_box.addItem(size.value.capitalize(), size.value)
        self.size_box.setCurrentIndex(list(Size).index(start.size))
        self.ac = _spin(0, MAX_AC, start.armor_class)
        self.hp = _spin(1, MAX_HP, start.hit_points)
        self.speeds = {
            mode: _spin(0, MAX_SPEED_FEET, getattr(start.speeds, mode), " ft")
            for mode in SPEED_MODES
        }
        start_level = start.level if block is not None else 1  # a new character: level 1
        self.level = _spin(NO_LEVEL, MAX_CHARACTER_LEVEL, start_level or NO_LEVEL)
        self.level.setSpecialValueText("—")
        self.level.setToolTip("Character level: the rest dialog's dice ('—': not recorded)")
        self.dex = _spin(-5, 10, start.abilities.modifier(Ability.DEX))
        self.wis = _spin(-5, 10, start.abilities.modifier(Ability.WIS))
        self.perception = _spin(0, 50, start.senses.passive_perception)
        speed_row = QHBoxLayout()
        for mode, box in self.speeds.items():
            speed_row.addWidget(QLabel(mode))
            speed_row.addWidget(box)
        for label, widget in (
            ("Name", self.name),
            ("Size", self.size_box),
            ("Armour class", self.ac),
            ("Hit points", self.hp),
            ("Level", self.level),
            ("Dex modifier", self.dex),
            ("Wis modifier", self.wis),
            ("Passive Perception", self.perception),
        ):
            form.addRow(label, widget)
        form.addRow("Speeds", speed_row)
        self.attacks = QTableWidget(0, len(ATTACK_COLUMNS))
        self.attacks.setHorizontalHeaderLabels(list(ATTACK_COLUMNS))
        for attack in start.attacks:
            damage = attack.damage[0] if attack.damage else None
            self.add_attack_row(
                attack.name,
                attack.to_hit,
                attack.reach,
                attack.range_normal,
                attack.range_long,
                damage.dice if damage else "",
                damage.type if damage else "",
            )
        add_row, remove_row = QPushButton("Add attack"), QPushButton("Remove attack")
        add_row.clicked.connect(lambda: self.add_attack_row("Attack", 0, 5, None, None, "1d6", ""))
        remove_row.clicked.connect(lambda: self.attacks.removeRow(self.attacks.currentRow()))
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # may quote what was typed
        self.error.setObjectName("pc-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(QLabel("Attacks (reach for melee, range/long for ranged; feet)"))
        layout.addWidget(self.attacks)
        row = QHBoxLayout()
        row.addWidget(add_row)
        row.addWidget(remove_row)
        layout.addLayout(row)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self._keep = start

    def add_attack_row(self, *values: object) -> None:
        row = self.attacks.rowCount()
        self.attacks.insertRow(row)
        for column, value in enumerate(values):
            self.attacks.setItem(row, column, QTableWidgetItem("" if value is None else str(value)))

    def _attack_dicts(self) -> list[dict[str, object]]:
        attacks: list[dict[str, object]] = []
        for row in range(self.attacks.rowCount()):
            cells = [self.attacks.item(row, c) for c in range(len(ATTACK_COLUMNS))]
            name, to_hit, reach, normal, long, dice, kind = (
                cell.text().strip() if cell else "" for cell in cells
            )

            def number(text: str) -> int | None:
                return int(text) if text.lstrip("+-").isdigit() else None

            melee, ranged = number(reach) is not None, number(normal) is not None
            attack_kind = "melee or ranged" if melee and ranged else "ranged" if ranged else "melee"
            damage = [{"dice": dice, "type": kind or "bludgeoning"}] if dice else []
            attacks.append(
                {
                    "name": name or f"Attack {row + 1}",
                    "kind": attack_kind,
                    "to_hit": number(to_hit) or 0,
                    "reach": number(reach) if melee or not ranged else None,
                    "range_normal": number(normal),
                    "range_long": number(long),
                    "damage": damage,
                }
            )
        return attacks

    def build(self) -> StatBlock:
        """The stat block the form describes.

        Raises:
            ValidationError: a field is out of range (the message names it).
        """
        abilities = self._keep.abilities.model_copy(
            update={
                "dexterity": score_for_modifier(self.dex.value()),
                "wisdom": score_for_modifier(self.wis.value()),
            }
        )
        return StatBlock.model_validate(
            {
                **self._keep.model_dump(),
                "name": self.name.text().strip(),
                "size": self.size_box.currentData(),
                "type": PC_TYPE,
                "armor_class": self.ac.value(),
                "hit_points": self.hp.value(),
                "speeds": Speeds(**{m: box.value() for m, box in self.speeds.items()}),
                "abilities": AbilityScores.model_validate(abilities.model_dump()),
                "senses": Senses(passive_perception=self.perception.value()),
                "attacks": self._attack_dicts(),
                "level": self.level.value() or None,
            }
        )

    def accept(self) -> None:
        try:
            self.block = self.build()
        except ValidationError as error:
            self.error.setText(describe_validation_error(error))
            return
        super().accept()


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
            self.list.addItem(
                f"{block.name} — AC {block.armor_class}, HP {block.hit_points}, "
                f"PP {block.senses.passive_perception}"
            )
        self.list.setCurrentRow(min(current, self.list.count() - 1))

    def selected(self) -> StatBlock | None:
        row = self.list.currentRow()
        return self.party[row] if 0 <= row < len(self.party) else None

    def set_party(self, party: tuple[StatBlock, ...], text: str) -> None:
        command = ReplaceEncounterField("party", self.party, party, text=text)
        push(self.window_.undo_stack, self.window_.document, command)

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
        dialog = PlayerCharacterDialog(self.window_)
        dialog.accepted.connect(lambda: self._saved(dialog, None))
        dialog.open()
        return dialog

    def edit_selected(self) -> PlayerCharacterDialog | None:
        block = self.selected()
        if block is None:
            return None
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
        block = self.selected()
        if block is None:
            return
        view = self.window_.view
        centre = view.mapToScene(view.viewport().rect().center())
        encounter = self.window_.document.encounter
        if (full := creatures_full(encounter)) is not None:
            self.window_.statusBar().showMessage(full)
            return
        spaces = free_spaces(
            encounter, block.size, 1, (scene_to_cell(centre.x()), scene_to_cell(centre.y()))
        )
        if not spaces:
            self.window_.statusBar().showMessage(f"No free space on the map for {block.name}.")
            return
        creature = creature_from_statblock(block, side=Side.PARTY, position=spaces[0])
        creature = creature.model_copy(update={"level": block.level})
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
        roster = [b for b in self.roster() if b.name != block.name] + [block]
        self.settings.setValue(ROSTER_KEY, json.dumps([b.model_dump(mode="json") for b in roster]))

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
