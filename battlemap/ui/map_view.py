"""The view onto a map scene: zoom around the cursor, pan, fit, and the cell under the mouse."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QEvent, QPoint, QRectF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import QGestureEvent, QGraphicsScene, QGraphicsView, QPinchGesture, QWidget

from battlemap.ui.style import scene_to_cell

MIN_SCALE, MAX_SCALE = 0.05, 8.0
ZOOM_STEP = 1.15


class MapView(QGraphicsView):
    """Signals:
    cell_hovered(int, int): the cell under the cursor, or (-1, -1) off the map.
    visible_rect_changed(QRectF): the scene area shown changed (pan, zoom or resize).
    """

    cell_hovered = Signal(int, int)
    visible_rect_changed = Signal(QRectF)

    def __init__(self, scene: QGraphicsScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHints(
            QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
        )
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setMouseTracking(True)
        self._space_held = False
        self._pan_from: QPoint | None = None
        # The map tools (battlemap.ui.tools) see mouse and key events after panning does;
        # the hook returns True when the active tool used the event.
        self.tool_hook: Callable[[QEvent], bool] | None = None
        self.tool_cursor: Qt.CursorShape | None = None
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)

    def _use_tool(self, event: QEvent) -> bool:
        if self.tool_hook is not None and self.tool_hook(event):
            event.accept()
            return True
        return False

    def _restore_cursor(self) -> None:
        if self.tool_cursor is None:
            self.viewport().unsetCursor()
        else:
            self.viewport().setCursor(self.tool_cursor)

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()

    def scrollContentsBy(self, dx: int, dy: int) -> None:
        super().scrollContentsBy(dx, dy)
        self.visible_rect_changed.emit(self.visible_scene_rect())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.visible_rect_changed.emit(self.visible_scene_rect())

    # --- zoom ------------------------------------------------------------

    def current_scale(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        target = min(MAX_SCALE, max(MIN_SCALE, self.current_scale() * factor))
        factor = target / self.current_scale()
        if not math.isclose(factor, 1.0):
            self.scale(factor, factor)
            self.visible_rect_changed.emit(self.visible_scene_rect())

    def zoom_in(self) -> None:
        self.zoom_by(ZOOM_STEP * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.zoom_by(1 / (ZOOM_STEP * ZOOM_STEP))

    def wheelEvent(self, event: QWheelEvent) -> None:
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom_by(ZOOM_STEP**steps)
        event.accept()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Gesture:
            return self._pinch(event)  # type: ignore[arg-type]
        return super().viewportEvent(event)

    def _pinch(self, event: QGestureEvent) -> bool:
        """Two fingers on a touch screen laid on the table zoom around their centre."""
        pinch = event.gesture(Qt.GestureType.PinchGesture)
        if not isinstance(pinch, QPinchGesture):
            return False
        if pinch.changeFlags() & QPinchGesture.ChangeFlag.ScaleFactorChanged:
            anchor = self.transformationAnchor()
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
            centre = self.mapToScene(self.viewport().mapFromGlobal(pinch.centerPoint().toPoint()))
            self.zoom_by(pinch.scaleFactor())
            self.centerOn(centre)
            self.setTransformationAnchor(anchor)
        event.accept(pinch)
        return True

    def fit_map(self, map_rect: QRectF) -> None:
        self.fitInView(map_rect, Qt.AspectRatioMode.KeepAspectRatio)
        self.visible_rect_changed.emit(self.visible_scene_rect())

    # --- pan: middle-drag, or space + left-drag ---------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if self._use_tool(event):
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space_held = False
            self._restore_cursor()
            return
        super().keyReleaseEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        panning = event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_held
        )
        if panning:
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if self._use_tool(event):
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            now = event.position().toPoint()
            delta = now - self._pan_from
            self._pan_from = now
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - delta.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - delta.y())
            event.accept()
            return
        scene_pos = self.mapToScene(event.position().toPoint())
        self.cell_hovered.emit(
            math.floor(scene_to_cell(scene_pos.x())), math.floor(scene_to_cell(scene_pos.y()))
        )
        if self._use_tool(event):
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._pan_from is not None:
            self._pan_from = None
            self._restore_cursor()
            event.accept()
            return
        if self._use_tool(event):
            return
        super().mouseReleaseEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self._use_tool(event):
            return
        super().mouseDoubleClickEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if self._use_tool(event):
            return
        super().contextMenuEvent(event)
