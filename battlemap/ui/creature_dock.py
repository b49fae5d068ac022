"""The Creature dock: the selected creature's numbers, editable, each edit one undo step.

Above the HP bar a "Defence" line shows the AC, with the cover the creature has against the
creature the pointer hovers (the targeting overlay's geometry, ``cover_source``), e.g.
"AC 15 (+2 half cover vs Goblin 1 = 17)"; just "AC 15" when no other creature is hovered.
"""

from __future__ import annotations

from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QProgressBar,
    QSpinBox,
    QWidget,
)

from battlemap.model.creature import Creature, Side, Size
from battlemap.model.document import Change, Document, RemoveCreature, UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.ui.map_scene import MapScene
from battlemap.ui.targeting.facts import CoverAgainst
from battlemap.ui.token_item import TokenItem
from battlemap.ui.undo import push

NUMBER_FIELDS = {
    "hp": ("Hit points", 0, 100_000),
    "max_hp": ("Maximum HP", 0, 100_000),
    "temp_hp": ("Temporary HP", 0, 100_000),
    "ac": ("Armour class", 0, 50),
    "reach": ("Reach (ft)", 0, 100),
}
SPEED_FIELDS = ("walk", "fly", "swim", "climb", "burrow")


class CreatureDock(QDockWidget):
    """Shows the one selected creature; with none or several selected it says so."""

    def __init__(self, document: Document, scene: MapScene, undo_stack: object) -> None:
        super().__init__("Creature")
        self.setObjectName("creature-dock")
        self.document = document
        self.undo_stack = undo_stack
        self.scene = scene
        self.creature_id: EntityId | None = None
        body = QWidget()
        form = QFormLayout(body)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.empty = QLabel("Select a token to see and edit its creature.")
        self.empty.setWordWrap(True)
        form.addRow(self.empty)
        self.name = QLineEdit()
        self.name.editingFinished.connect(lambda: self._edit(name=self.name.text().strip()))
        form.addRow("Name", self.name)
        self.side_box = QComboBox()
        for side in Side:
            self.side_box.addItem(side.value.capitalize(), side)
        self.side_box.activated.connect(
            lambda _: self._edit(side=Side(self.side_box.currentData()))
        )
        form.addRow("Side", self.side_box)
        self.size_box = QComboBox()
        for size in Size:
            self.size_box.addItem(f"{size.value.capitalize()} ({size.space_feet:g} ft)", size)
        self.size_box.activated.connect(
            lambda _: self._edit(size=Size(self.size_box.currentData()))
        )
        form.addRow("Size", self.size_box)
        self.hp_bar = QProgressBar()
        self.hp_bar.setFormat("%v / %m HP")
        form.addRow("Health", self.hp_bar)
        self.numbers: dict[str, QSpinBox] = {}
        for field, (label, low, high) in NUMBER_FIELDS.items():
            self.numbers[field] = self._spin(form, label, low, high, field)
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
        hp_row: tuple[int, object] = form.getWidgetPosition(self.hp_bar)  # type: ignore[assignment]
        form.insertRow(hp_row[0], "Defence", self.ac_cover)
        self.cover_source: Callable[[EntityId], CoverAgainst | None] = lambda _: None
        """The cover the given creature has against the hovered one (the targeting overlay)."""
        self.speeds: dict[str, QSpinBox] = {}
        for mode in SPEED_FIELDS:
            self.speeds[mode] = self._spin(form, f"{mode.capitalize()} speed (ft)", 0, 1000, mode)
        self.hidden = QCheckBox("Hidden from the players")
        self.hidden.toggled.connect(lambda on: self._edit(hidden=on))
        form.addRow(self.hidden)
        self.name_shown = QCheckBox("Players see its name")
        self.name_shown.setToolTip("Otherwise the players' window shows a generic label")
        self.name_shown.toggled.connect(lambda on: self._edit(name_shown_to_players=on))
        form.addRow(self.name_shown)
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

    def _spin(self, form: QFormLayout, label: str, low: int, high: int, field: str) -> QSpinBox:
        spin = QSpinBox()
        spin.setRange(low, high)
        spin.setKeyboardTracking(False)  # one command per finished edit, not per keystroke
        spin.valueChanged.connect(lambda value: self._edit_number(field, value))
        form.addRow(label, spin)
        return spin

    # --- model -> widgets ------------------------------------------------------

    def _on_selection(self) -> None:
        if not shiboken6.isValid(self.scene):  # the scene empties itself while being destroyed
            return
        ids = [
            item.creature_id for item in self.scene.selectedItems() if isinstance(item, TokenItem)
        ]
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
            self.refresh_cover()
            return
        blockers = [QSignalBlocker(widget) for widget in self._fields]
        self.name.setText(creature.name)
        self.side_box.setCurrentIndex(self.side_box.findData(creature.side))
        self.size_box.setCurrentIndex(self.size_box.findData(creature.size))
        self.hp_bar.setRange(0, max(1, creature.max_hp))
        self.hp_bar.setValue(min(creature.hp, creature.max_hp))
        for field, spin in self.numbers.items():
            spin.setValue(getattr(creature, field))
        for mode, spin in self.speeds.items():
            spin.setValue(getattr(creature.speeds, mode))
        self.hidden.setChecked(creature.hidden)
        self.name_shown.setChecked(creature.name_shown_to_players)
        del blockers
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
            push(self.undo_stack, self.document, UpdateCreature(creature, updated))  # type: ignore[arg-type]


def install(window: object) -> CreatureDock:
    """Add the dock to the main window's right side and its View menu."""
    dock = CreatureDock(window.document, window.scene, window.undo_stack)  # type: ignore[attr-defined]
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)  # type: ignore[attr-defined]
    window.view_menu.addAction(dock.toggleViewAction())  # type: ignore[attr-defined]
    return dock


def add_token_menu_entries(window: object) -> None:
    """Right-click on a token: hide it from (or show it to) the players, or remove it."""
    document: Document = window.document  # type: ignore[attr-defined]
    undo_stack = window.undo_stack  # type: ignore[attr-defined]

    def build(menu: QMenu, creature_id: EntityId) -> None:
        creature = document.encounter.creature(creature_id)
        label = "Show to the players" if creature.hidden else "Hide from the players"
        toggled = creature.model_copy(update={"hidden": not creature.hidden})
        menu.addAction(label, lambda: push(undo_stack, document, UpdateCreature(creature, toggled)))
        menu.addSeparator()
        index = document.encounter.creatures.index(creature)
        menu.addAction(
            f"Remove {creature.name}",
            lambda: push(undo_stack, document, RemoveCreature(creature, index)),
        )

    window.scene.token_menu_builders.append(build)  # type: ignore[attr-defined]
