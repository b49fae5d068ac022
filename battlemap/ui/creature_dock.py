"""The Creature dock: the selected creature's numbers, editable, each edit one undo step.

From the top: name; side and size on one row; the AC line; the HP bar; the combat panel
(``battlemap.ui.combat`` puts it under the HP bar); then two folds, closed at first, for what
a DM sets up once: "Numbers" (HP, max and temporary HP, AC, reach, character level: "—" for
none) and "Speeds", whose headers summarise them ("Numbers: HP 4 / 7 · AC 15 · reach 5 ft");
last, what the players' window shows of it (hidden, name shown). The dock scrolls when it is
short.

Above the HP bar a "Defence" line shows the AC, with the cover the creature has against the
creature the pointer hovers (the targeting overlay's geometry, ``cover_source``), e.g.
"AC 15 (+2 half cover vs Goblin 1 = 17)"; just "AC 15" when no other creature is hovered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from battlemap.model.creature import Creature, Side, Size
from battlemap.model.document import Change, Document, RemoveCreature, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.model.limits import (
    MAX_AC,
    MAX_CHARACTER_LEVEL,
    MAX_HP,
    MAX_NAME,
    MAX_REACH_FEET,
    MAX_SPEED_FEET,
)
from battlemap.ui.map_scene import MapScene
from battlemap.ui.undo import push

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow
    from battlemap.ui.targeting.facts import CoverAgainst

NUMBER_FIELDS = {
    "hp": ("HP", 0, MAX_HP),
    "max_hp": ("Max HP", 0, MAX_HP),
    "temp_hp": ("Temp HP", 0, MAX_HP),
    "ac": ("AC", 0, MAX_AC),
    "reach": ("Reach", 0, MAX_REACH_FEET),
    "level": ("Level", 0, MAX_CHARACTER_LEVEL),  # 0 shows "—": no level (None)
}
SPEED_FIELDS = ("walk", "fly", "swim", "climb", "burrow")
BODY_MIN_WIDTH = 300
"""Narrower than this and the combat panel's buttons and the number grids get cut."""
SPIN_MIN_WIDTH = 72
INDENT = 12
SHOW_WHILE_UNSEEN = "Show to the players while hiding or invisible"


class Section(QWidget):
    """A fold: a flat header button with an arrow that shows or hides ``body``; the header
    reads "Title: summary" so a closed fold still tells what is inside."""

    def __init__(self, title: str, body: QWidget, expanded: bool = False) -> None:
        super().__init__()
        self.title = title
        self.body = body
        self.header = QToolButton()
        self.header.setObjectName(f"section-{title.lower()}")
        self.header.setCheckable(True)
        self.header.setAutoRaise(True)
        self.header.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.header.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.header.setToolTip(f"Show or hide {title.lower()}")
        self.header.toggled.connect(self.set_expanded)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.header)
        layout.addWidget(body)
        self.set_summary("")
        self.header.setChecked(expanded)
        self.set_expanded(expanded)

    def set_expanded(self, expanded: bool) -> None:
        self.body.setVisible(expanded)
        arrow = Qt.ArrowType.DownArrow if expanded else Qt.ArrowType.RightArrow
        self.header.setArrowType(arrow)

    def set_summary(self, summary: str) -> None:
        self.header.setText(f"{self.title}: {summary}" if summary else self.title)


class CreatureDock(QDockWidget):
    """Shows the one selected creature; with none or several selected it says so."""

    def __init__(self, document: Document, scene: MapScene, undo_stack: QUndoStack) -> None:
        super().__init__("Creature")
        self.setObjectName("creature-dock")
        self.document = document
        self.undo_stack = undo_stack
        self.scene = scene
        self.creature_id: EntityId | None = None
        body = QWidget()
        body.setMinimumWidth(BODY_MIN_WIDTH)
        form = QFormLayout(body)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.empty = QLabel("Select a token to see and edit its creature.")
        self.empty.setWordWrap(True)
        form.addRow(self.empty)
        self.name = QLineEdit()
        self.name.setMaxLength(MAX_NAME)  # the model's limit: a longer name could not reopen
        self.name.editingFinished.connect(lambda: self._edit(name=self.name.text().strip()))
        form.addRow("Name", self.name)
        self.side_box = QComboBox()
        for side in Side:
            self.side_box.addItem(side.value.capitalize(), side)
        self.side_box.activated.connect(
            lambda _: self._edit(side=Side(self.side_box.currentData()))
        )
        self.size_box = QComboBox()
        for size in Size:
            self.size_box.addItem(f"{size.value.capitalize()} ({size.space_feet:g} ft)", size)
        self.size_box.activated.connect(
            lambda _: self._edit(size=Size(self.size_box.currentData()))
        )
        for box in (self.side_box, self.size_box):
            box.setMinimumContentsLength(6)  # both fit one row in a narrow dock
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
        self.side_box.setToolTip("Side")
        self.size_box.setToolTip("Size (its space)")
        side_and_size = QHBoxLayout()
        side_and_size.addWidget(self.side_box, 1)
        side_and_size.addWidget(self.size_box, 1)
        form.addRow("Side, size", side_and_size)
        self.ac_cover = QLabel()
        self.ac_cover.setObjectName("ac-with-cover")
        self.ac_cover.setWordWrap(True)
        self.ac_cover.setTextFormat(Qt.TextFormat.PlainText)
        bold = self.ac_cover.font()
        bold.setBold(True)
        self.ac_cover.setFont(bold)
        self.ac_cover.setToolTip(
            "The AC to beat; hover another creature to add the cover this one has against it"
        )
        # Near the top (above the HP bar and the combat panel), always shown while a creature
        # is, so the rows below do not jump when the pointer moves over tokens.
        form.addRow("Defence", self.ac_cover)
        self.cover_source: Callable[[EntityId], CoverAgainst | None] = lambda _: None
        """The cover the given creature has against the hovered one (the targeting overlay)."""
        self.hp_bar = QProgressBar()
        self.hp_bar.setFormat("%v / %m HP")
        form.addRow("Health", self.hp_bar)
        # The combat panel goes under the HP bar (battlemap.ui.combat); the numbers a DM sets
        # up once fold away below it, each fold's title saying what it holds.
        self.numbers: dict[str, QSpinBox] = {}
        numbers = QWidget()
        grid = QGridLayout(numbers)
        grid.setContentsMargins(INDENT, 0, 0, 0)
        for index, (field, (label, low, high)) in enumerate(NUMBER_FIELDS.items()):
            suffix = " ft" if field == "reach" else ""
            self.numbers[field] = self._spin(grid, index, label, low, high, field, suffix)
        self.numbers["level"].setSpecialValueText("—")
        self.numbers_section = Section("Numbers", numbers)
        form.addRow(self.numbers_section)
        self.speeds: dict[str, QSpinBox] = {}
        speeds = QWidget()
        grid = QGridLayout(speeds)
        grid.setContentsMargins(INDENT, 0, 0, 0)
        for index, mode in enumerate(SPEED_FIELDS):
            self.speeds[mode] = self._spin(
                grid, index, mode.capitalize(), 0, MAX_SPEED_FEET, mode, " ft"
            )
        self.speeds_section = Section("Speeds", speeds)
        form.addRow(self.speeds_section)
        self.hidden = QCheckBox("Hidden")
        self.hidden.setToolTip("Hidden from the players: their window never shows it")
        self.hidden.toggled.connect(lambda on: self._edit(hidden=on))
        self.name_shown = QCheckBox("Name shown")
        self.name_shown.setToolTip(
            'The players\' window shows its name; otherwise a generic label ("Large creature")'
        )
        self.name_shown.toggled.connect(lambda on: self._edit(name_shown_to_players=on))
        players_row = QHBoxLayout()
        players_row.addWidget(self.hidden)
        players_row.addWidget(self.name_shown)
        players_row.addStretch(1)
        form.addRow("Players' window", players_row)
        self._fields: list[QWidget] = [
            self.name,
            self.side_box,
            self.size_box,
            self.hp_bar,
            self.hidden,
            self.name_shown,
            *self.numbers.values(),
            *self.speeds.values(),
        ]
        self.setWidget(body)
        scene.selectionChanged.connect(self._on_selection)
        document.subscribe(self._on_change)
        self._show(None)

    def _spin(
        self,
        grid: QGridLayout,
        index: int,
        label: str,
        low: int,
        high: int,
        field: str,
        suffix: str = "",
    ) -> QSpinBox:
        """A number box with its label in cell ``index`` of a two-column grid."""
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setSuffix(suffix)
        spin.setMinimumWidth(SPIN_MIN_WIDTH)
        spin.setKeyboardTracking(False)  # one command per finished edit, not per keystroke
        spin.valueChanged.connect(lambda value: self._edit_number(field, value))
        text = QLabel(label)
        text.setBuddy(spin)
        row, column = divmod(index, 2)
        grid.addWidget(text, row, column * 2)
        grid.addWidget(spin, row, column * 2 + 1)
        grid.setColumnStretch(column * 2 + 1, 1)
        return spin

    # --- model -> widgets ------------------------------------------------------

    def _on_selection(self) -> None:
        if not shiboken6.isValid(self.scene):  # the scene empties itself while being destroyed
            return
        ids = self.scene.selected_creatures()
        self.creature_id = ids[0] if len(ids) == 1 else None
        self._show(self._creature())

    def _on_change(self, change: Change) -> None:
        if self.creature_id is not None and self.creature_id in change.creatures:
            self._show(self._creature())

    def _creature(self) -> Creature | None:
        if self.creature_id is None:
            return None
        try:
            return self.document.encounter.creature(self.creature_id)
        except KeyError:  # removed (or its addition undone)
            self.creature_id = None
            return None

    def _show(self, creature: Creature | None) -> None:
        self.empty.setVisible(creature is None)
        for widget in self._fields:
            widget.setEnabled(creature is not None)
        if creature is None:
            self.numbers_section.set_summary("")
            self.speeds_section.set_summary("")
            self.refresh_cover()
            return
        blockers = [QSignalBlocker(widget) for widget in self._fields]
        self.name.setText(creature.name)
        self.side_box.setCurrentIndex(self.side_box.findData(creature.side))
        self.size_box.setCurrentIndex(self.size_box.findData(creature.size))
        self.hp_bar.setRange(0, max(1, creature.max_hp))
        self.hp_bar.setValue(min(creature.hp, creature.max_hp))
        for field, spin in self.numbers.items():
            spin.setValue(getattr(creature, field) or 0)  # level None: 0, shown "—"
        for mode, spin in self.speeds.items():
            spin.setValue(getattr(creature.speeds, mode))
        self.hidden.setChecked(creature.hidden)
        self.name_shown.setChecked(creature.name_shown_to_players)
        del blockers
        temp = f" +{creature.temp_hp}" if creature.temp_hp else ""
        self.numbers_section.set_summary(
            f"HP {creature.hp}{temp} / {creature.max_hp} · AC {creature.ac}"
            f" · reach {creature.reach} ft"
        )  # no level here: at the dock's usual width a longer line elides the AC
        moving = [
            f"{mode} {getattr(creature.speeds, mode)}"
            for mode in SPEED_FIELDS
            if getattr(creature.speeds, mode)
        ]
        self.speeds_section.set_summary(", ".join(moving) + " ft" if moving else "none")
        self.refresh_cover()

    def refresh_cover(self) -> None:
        """Show the AC line: with the cover against the hovered creature when there is one."""
        creature = self._creature()
        cover = self.cover_source(creature.id) if creature is not None else None
        if creature is None:
            self.ac_cover.setText("")
        else:
            self.ac_cover.setText(cover.ac_text(creature.ac) if cover else f"AC {creature.ac}")

    # --- widgets -> commands ---------------------------------------------------------

    def _edit_number(self, field: str, value: int) -> None:
        creature = self._creature()
        if creature is None:
            return
        if field in SPEED_FIELDS:
            self._edit(speeds=creature.speeds.model_copy(update={field: value}))
        elif field == "hp":
            self._edit(hp=min(value, creature.max_hp))
        elif field == "max_hp":
            self._edit(max_hp=value, hp=min(creature.hp, value))
        elif field == "level":
            self._edit(level=value or None)
        else:
            self._edit(**{field: value})

    def _edit(self, **changes: object) -> None:
        creature = self._creature()
        if creature is None:
            return
        if changes.get("name") == "":
            self._show(creature)  # a creature always has a name: put the old one back
            return
        updated = creature.model_copy(update=changes)
        if updated != creature:
            push(self.undo_stack, self.document, UpdateCreature(creature, updated))


def install(window: FeatureWindow) -> CreatureDock:
    """Add the dock to the main window's right side and its View menu."""
    dock = CreatureDock(window.document, window.scene, window.undo_stack)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    window.view_menu.addAction(dock.toggleViewAction())
    return dock


def add_token_menu_entries(window: FeatureWindow) -> None:
    """Right-click on a token: hide it from (or show it to) the players, show a non-party one
    to them while it hides or is invisible (or not), or remove it."""
    document = window.document
    undo_stack = window.undo_stack

    def build(menu: QMenu, creature_id: EntityId) -> None:
        creature = document.encounter.creature(creature_id)

        def toggle(field: str) -> None:
            toggled = creature.model_copy(update={field: not getattr(creature, field)})
            push(undo_stack, document, UpdateCreature(creature, toggled))

        label = "Show to the players" if creature.hidden else "Hide from the players"
        menu.addAction(label, lambda: toggle("hidden"))
        if creature.side is not Side.PARTY:  # the party always sees its own hiding members
            unseen = menu.addAction(SHOW_WHILE_UNSEEN, lambda: toggle("shown_while_unseen"))
            unseen.setCheckable(True)
            unseen.setChecked(creature.shown_while_unseen)
            unseen.setStatusTip(
                "Checked: the players' window draws it (see-through) while it hides or is "
                "invisible; unchecked: it vanishes from their window then"
            )
        menu.addSeparator()
        index = document.encounter.creatures.index(creature)

        def remove() -> None:  # in a combat, the creature leaves it in the same step
            from battlemap.rules.removal import RemovalRefusedError, leaving_combat_too

            encounter = document.encounter
            session = window.combat.session
            ruleset = session.ruleset() if encounter.combat is not None else None
            command = RemoveCreature(creature, index)
            try:
                push(undo_stack, document, leaving_combat_too(encounter, ruleset, command))
            except RemovalRefusedError as refusal:
                session.refused.emit(str(refusal))

        menu.addAction(f"Remove {creature.name}", remove)

    window.scene.token_menu_builders.append(build)
