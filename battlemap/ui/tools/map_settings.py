"""The Map settings dialog: map size in cells and cell size in feet, applied as one step."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QSpinBox,
    QWidget,
)

from battlemap.model.grid import Grid
from battlemap.model.limits import MAX_CELL_FEET, MAX_MAP_CELLS, MIN_CELL_FEET
from battlemap.model.map_commands import SetGrid
from battlemap.ui.tools.base import ToolContext


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

    def _apply(self) -> None:
        old = self.context.document.encounter.grid
        new = self.chosen_grid()
        if new != old:
            self.context.push(SetGrid.of(self.context.document.encounter, new))
