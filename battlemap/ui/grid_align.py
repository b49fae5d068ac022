"""View > Align grid to image: click two grid corners painted on the map image.

While the tool is on, the status bar asks for the corners and holds a "cells between" box
(how many cells lie between the two corners along the longer direction; 1 for the two
opposite corners of one cell, more for accuracy). The second click sets the background's
cell size and offset and resizes the grid to the image, as one undo step. Escape or a
right click cancels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QAction, QKeyEvent, QMouseEvent, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QHBoxLayout, QLabel, QSpinBox, QWidget

from battlemap.io.map_import import ReplaceMap, align_grid
from battlemap.ui.undo import push

if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow

MARKER_RADIUS = 6.0
Z_MARKER = 60


class GridAligner(QObject):
    """The alignment tool: an action that, while checked, takes two clicks on the map."""

    def __init__(self, window: FeatureWindow) -> None:
        super().__init__(window)
        self.window = window
        self.action = QAction("Align &grid to image", window)
        self.action.setCheckable(True)
        self.action.setStatusTip("Click two grid corners on the map image to fit the grid to it")
        self.action.toggled.connect(self._toggled)
        self.first: QPointF | None = None
        self._marker: QGraphicsEllipseItem | None = None
        self.panel = QWidget()
        self.panel.setObjectName("grid-align-panel")
        self.prompt = QLabel()
        self.cells = QSpinBox()
        self.cells.setRange(1, 200)
        self.cells.setPrefix("cells between: ")
        for widget in (self.prompt, self.cells):
            widget.setParent(self.panel)
        layout = QHBoxLayout(self.panel)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.prompt)
        layout.addWidget(self.cells)

    @property
    def active(self) -> bool:
        return self.action.isChecked()

    def _toggled(self, on: bool) -> None:
        view, viewport = self.window.view, self.window.view.viewport()
        if on and self.window.scene.background_layer.item is None:
            self.action.setChecked(False)
            self.window.statusBar().showMessage("Import a map image first (File > Import map).")
            return
        if on:
            viewport.installEventFilter(self)
            view.installEventFilter(self)  # Escape arrives at the view, clicks at its viewport
            # Permanent: a temporary status message would hide a normal status bar widget.
            self.window.statusBar().addPermanentWidget(self.panel)
            self.panel.show()
            self._set_first(None)
        else:
            viewport.removeEventFilter(self)
            view.removeEventFilter(self)
            self.window.statusBar().removeWidget(self.panel)
            self._set_first(None)

    def _set_first(self, point: QPointF | None) -> None:
        self.first = point
        if self._marker is not None:
            self.window.scene.removeItem(self._marker)
            self._marker = None
        if point is not None:
            r = MARKER_RADIUS
            marker = QGraphicsEllipseItem(-r, -r, 2 * r, 2 * r)
            marker.setPen(QPen(Qt.GlobalColor.red, 0))
            marker.setFlag(marker.GraphicsItemFlag.ItemIgnoresTransformations)
            marker.setPos(point)
            marker.setZValue(Z_MARKER)
            self.window.scene.addItem(marker)
            self._marker = marker
        self.prompt.setText(
            "Click a grid corner on the image…" if point is None else "…and a second corner."
        )

    def click(self, scene_pos: QPointF) -> None:
        """Take one corner (scene coordinates); the second one aligns the grid."""
        if self.first is None:
            self._set_first(scene_pos)
            return
        first, self.first = self.first, None
        self.align(first, scene_pos)

    def align(self, first: QPointF, second: QPointF) -> None:
        window = self.window
        item = window.scene.background_layer.item
        encounter = window.document.encounter
        if item is None or encounter.background is None:
            self.action.setChecked(False)
            return
        a, b = item.mapFromScene(first), item.mapFromScene(second)
        try:
            background, grid = align_grid(
                encounter.background,
                (item.image_width, item.image_height),
                (a.x(), a.y()),
                (b.x(), b.y()),
                self.cells.value(),
                encounter.grid,
            )
        except ValueError as error:
            window.statusBar().showMessage(f"Grid not aligned: {error}", 6000)
            self._set_first(None)
            return
        command = ReplaceMap(
            (("background", encounter.background, background), ("grid", encounter.grid, grid)),
            text="Align grid to image",
        )
        self.action.setChecked(False)
        push(window.undo_stack, window.document, command)
        window.fit_map()
        window.statusBar().showMessage(
            f"Grid aligned: {background.pixels_per_cell:.1f} image pixels per cell, "
            f"{grid.width} x {grid.height} cells",
            6000,
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.MouseButtonPress:
            assert isinstance(event, QMouseEvent)
            if event.button() == Qt.MouseButton.LeftButton:
                self.click(self.window.view.mapToScene(event.position().toPoint()))
                return True
            if event.button() == Qt.MouseButton.RightButton:
                self.action.setChecked(False)
                return True
        if event.type() == QEvent.Type.KeyPress:
            assert isinstance(event, QKeyEvent)
            if event.key() == Qt.Key.Key_Escape:
                self.action.setChecked(False)
                return True
        # Swallow the rest of the clicks so no tool or token reacts to them meanwhile.
        swallowed = (QEvent.Type.MouseButtonRelease, QEvent.Type.MouseButtonDblClick)
        return watched is self.window.view.viewport() and event.type() in swallowed


def install(window: FeatureWindow) -> GridAligner:
    aligner = GridAligner(window)
    window.view_menu.addSeparator()
    window.view_menu.addAction(aligner.action)
    return aligner
