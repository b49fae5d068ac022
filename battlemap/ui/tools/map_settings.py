"""The Map settings dialog: map size in cells, cell size in feet and the map's light (its
ambient level, and whether the picture has its lighting baked in), applied as one step."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from battlemap.model.document import Command, ReplaceEncounterField
from battlemap.model.features import LightLevel, MapLighting
from battlemap.model.grid import Grid
from battlemap.model.limits import MAX_CELL_FEET, MAX_MAP_CELLS, MIN_CELL_FEET
from battlemap.model.map_commands import CommandGroup, SetGrid
from battlemap.ui.tools.base import ToolContext

AMBIENT_LABELS = {
    LightLevel.BRIGHT: "Bright (daylight, a lit hall)",
    LightLevel.DIM: "Dim (dusk, moonlight)",
    LightLevel.DARK: "Dark (night, an unlit dungeon)",
}


class MapSettingsDialog(QDialog):
    """Edits the encounter's grid. On OK a changed grid is pushed as one ``SetGrid``."""

    def __init__(self, context: ToolContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("map-settings-dialog")
        self.setWindowTitle("Map settings")
        self.context = context
        grid = context.document.encounter.grid
        self.width_cells = self._cells_box(grid.width, "map-width")
        self.height_cells = self._cells_box(grid.height, "map-height")
        self.cell_feet = QDoubleSpinBox()
        self.cell_feet.setObjectName("cell-feet")
        self.cell_feet.setRange(MIN_CELL_FEET, MAX_CELL_FEET)
        self.cell_feet.setDecimals(1)
        self.cell_feet.setSingleStep(2.5)
        self.cell_feet.setSuffix(" ft")
        self.cell_feet.setValue(grid.cell_feet)
        form = QFormLayout(self)
        form.addRow("Map &width:", self.width_cells)
        form.addRow("Map &height:", self.height_cells)
        form.addRow("&Cell size:", self.cell_feet)
        lighting = context.document.encounter.lighting
        self.ambient = QComboBox()
        self.ambient.setObjectName("ambient-light")
        for level, label in AMBIENT_LABELS.items():
            self.ambient.addItem(label, level.value)
        self.ambient.setCurrentIndex(list(AMBIENT_LABELS).index(lighting.ambient))
        self.baked = QCheckBox("The map picture shows its own light (&baked)")
        self.baked.setObjectName("baked-lighting")
        self.baked.setChecked(lighting.baked_lighting)
        form.addRow("&Ambient light:", self.ambient)
        form.addRow("", self.baked)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.accepted.connect(self._apply)

    @staticmethod
    def _cells_box(value: int, name: str) -> QSpinBox:
        box = QSpinBox()
        box.setObjectName(name)
        box.setRange(1, MAX_MAP_CELLS)
        box.setSuffix(" cells")
        box.setValue(value)
        return box

    def chosen_grid(self) -> Grid:
        current = self.context.document.encounter.grid
        return Grid.model_validate(
            {
                **current.model_dump(),
                "width": self.width_cells.value(),
                "height": self.height_cells.value(),
                "cell_feet": self.cell_feet.value(),
            }
        )

    def chosen_lighting(self) -> MapLighting:
        return MapLighting(
            ambient=LightLevel(self.ambient.currentData()), baked_lighting=self.baked.isChecked()
        )

    def _apply(self) -> None:
        encounter = self.context.document.encounter
        commands: list[Command] = []
        new = self.chosen_grid()
        if new != encounter.grid:
            commands.append(SetGrid.of(encounter, new))
        lighting = self.chosen_lighting()
        if lighting != encounter.lighting:
            commands.append(ReplaceEncounterField("lighting", encounter.lighting, lighting))
        if len(commands) == 1:
            self.context.push(commands[0])
        elif commands:
            self.context.push(CommandGroup(tuple(commands), text="Map settings"))
