"""The view onto a map scene: zoom around the cursor, pan, fit, and the cell under the mouse."""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QInputDevice,
    QKeyEvent,
    QMouseEvent,
    QNativeGestureEvent,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import QGestureEvent, QGraphicsScene, QGraphicsView, QPinchGesture, QWidget

from battlemap.ui.style import scene_to_cell
from battlemap.ui.token_item import TokenItem
from battlemap.ui.zoom_preview import ZoomPreview

MIN_SCALE, MAX_SCALE = 0.05, 8.0
ZOOM_STEP = 1.15
FINGER_SLOP_PX = 12
"""A finger that lands this close (viewport pixels) to a token, but on none, grabs the nearest
one: a Tiny token (half a cell, 32 px at 100 %) then takes a 56 px wide touch."""
FIT_MARGIN_PX = 10
"""Fit map leaves this much of the view's background around the map, on its narrow sides."""


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
        self._finger_shift: QPointF | None = None
        # The map tools (battlemap.ui.tools) see mouse and key events after panning does;
        # the hook returns True when the active tool used the event.
        self.tool_hook: Callable[[QEvent], bool] | None = None
        self.tool_cursor: Qt.CursorShape | None = None
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)
        self._fitted: tuple[QRectF, QTransform] | None = None
        """The map rect of the last Fit map and the transform it gave, while they still hold:
        the view then scrolls no further than it shows, and a resize fits the map again."""
        scene.sceneRectChanged.connect(lambda _rect: self._forget_fit())  # a new map size
        if scene.backgroundBrush().style() != Qt.BrushStyle.NoBrush:
            # Its brush covers every pixel of each frame: Qt need not clear them first (~1 ms).
            self.viewport().setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.zoom_preview = ZoomPreview(self)
        """During a wheel or pinch zoom, the last sharp frame scaled (see ``zoom_preview``)."""

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
        if self._still_fitted():
            assert self._fitted is not None
            self._fit(self._fitted[0])  # a resized window or dock keeps the whole map in view
        self.visible_rect_changed.emit(self.visible_scene_rect())

    # --- zoom ------------------------------------------------------------

    def current_scale(self) -> float:
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        self._forget_fit()  # zooming from a fit: scroll over the whole scene again
        target = min(MAX_SCALE, max(MIN_SCALE, self.current_scale() * factor))
        factor = target / self.current_scale()
        if not math.isclose(factor, 1.0):
            self.zoom_preview.step()
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

    def zoom_at(self, factor: float, point: QPointF) -> None:
        """Zoom by ``factor`` keeping the map point under the viewport pixel ``point`` under it
        (as far as the scroll range allows: near the map's edge the view can't move further)."""
        anchor = self.transformationAnchor()
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
        before = self.mapToScene(point.toPoint())
        self.zoom_by(factor)
        after = self.mapToScene(point.toPoint())
        centre = self.mapToScene(self.viewport().rect().center())
        self.centerOn(centre + (before - after))
        self.setTransformationAnchor(anchor)

    def paintEvent(self, event: QPaintEvent) -> None:
        if self.zoom_preview.active:
            painter = QPainter(self.viewport())
            self.zoom_preview.paint(painter)
            painter.end()
            return
        super().paintEvent(event)
        self.zoom_preview.sharp_frame_painted()

    def viewportEvent(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Gesture:
            return self._pinch(event)  # type: ignore[arg-type]
        if event.type() == QEvent.Type.NativeGesture:
            return self._native_zoom(event)  # type: ignore[arg-type]
        return super().viewportEvent(event)

    def _pinch(self, event: QGestureEvent) -> bool:
        """Two fingers on a touch screen (Linux, Windows: Qt's pinch recogniser on the touch
        events) zoom around their centre, which stays under the fingers."""
        pinch = event.gesture(Qt.GestureType.PinchGesture)
        if not isinstance(pinch, QPinchGesture):
            return False
        if pinch.changeFlags() & QPinchGesture.ChangeFlag.ScaleFactorChanged:
            centre = self.viewport().mapFromGlobal(pinch.centerPoint())
            self.zoom_at(pinch.scaleFactor(), centre)
        event.accept(pinch)
        return True

    def _native_zoom(self, event: QNativeGestureEvent) -> bool:
        """A trackpad pinch (macOS; Wayland and X11 with XInput 2.4 touchpad gestures) comes
        as native zoom gestures: ``value`` is the change of scale since the last one (0.1 is
        10 % bigger), around the pointer. The begin/end events carry nothing to do."""
        if event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
            self.zoom_at(1.0 + event.value(), event.position())
        elif event.gestureType() not in (
            Qt.NativeGestureType.BeginNativeGesture,
            Qt.NativeGestureType.EndNativeGesture,
        ):
            return super().viewportEvent(event)
        event.accept()
        return True

    def fit_map(self, map_rect: QRectF) -> None:
        """Show the whole map as large as the view allows, ``FIT_MARGIN_PX`` inside its edges,
        without scroll bars: until the DM zooms, the view scrolls no further than it shows
        (the scene's margin around the map is out of reach) and follows resizes."""
        self._fit(QRectF(map_rect))
        self.visible_rect_changed.emit(self.visible_scene_rect())

    def _fit(self, map_rect: QRectF) -> None:
        self.zoom_preview.end()
        area = self.maximumViewportSize()  # the viewport without scroll bars
        room_w, room_h = area.width() - 2 * FIT_MARGIN_PX, area.height() - 2 * FIT_MARGIN_PX
        if map_rect.isEmpty() or room_w <= 0 or room_h <= 0:
            return
        scale = min(room_w / map_rect.width(), room_h / map_rect.height())
        scale = min(MAX_SCALE, max(MIN_SCALE, scale))
        self.setTransform(QTransform.fromScale(scale, scale))
        # One pixel less than the viewport: Qt rounds the scroll range, and a range of one
        # pixel would show a scroll bar. A map larger than this (at MIN_SCALE) still scrolls.
        shown = QRectF(0, 0, (area.width() - 1) / scale, (area.height() - 1) / scale)
        shown.moveCenter(map_rect.center())
        self.setSceneRect(shown.united(map_rect))
        self.centerOn(map_rect.center())
        self._fitted = (map_rect, self.transform())

    def _still_fitted(self) -> bool:
        """Whether the last fit still holds; when the transform changed since (a zoom, or a
        caller's ``setTransform``), forget it and scroll over the whole scene again."""
        if self._fitted is None:
            return False
        if self.transform() == self._fitted[1]:
            return True
        self._forget_fit()
        return False

    def _forget_fit(self) -> None:
        if self._fitted is None:
            return
        self._fitted = None
        centre = self.mapToScene(self.viewport().rect().center())
        self.setSceneRect(QRectF())  # back to the scene's rect: the map and its margin
        self.centerOn(centre)

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
        self.zoom_preview.end()  # what a press lands on is drawn sharp
        panning = event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space_held
        )
        if panning:
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        if _from_finger(event) and self.dragMode() == QGraphicsView.DragMode.RubberBandDrag:
            self._finger_shift = self._finger_to_token(event.position())
        event = self._with_finger_shift(event)
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
        event = self._with_finger_shift(event)
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
        event = self._with_finger_shift(event)
        if not event.buttons():
            self._finger_shift = None
        if self._use_tool(event):
            return
        super().mouseReleaseEvent(event)

    # --- fingers: a near miss on a token grabs it --------------------------

    def _finger_to_token(self, pos: QPointF) -> QPointF | None:
        """How far to move a finger's press at ``pos`` (viewport) onto the nearest token within
        ``FINGER_SLOP_PX``; None when it is on one already or none is near."""
        here = self.mapToScene(pos.toPoint())
        slop = FINGER_SLOP_PX
        box = QRectF(pos.x() - slop, pos.y() - slop, 2 * slop, 2 * slop).toAlignedRect()
        best: tuple[float, QPointF] | None = None
        for item in self.items(box):
            if not isinstance(item, TokenItem):
                continue
            if item.sceneBoundingRect().contains(here):
                return None
            rect = self.mapFromScene(item.sceneBoundingRect()).boundingRect()
            inside = QPointF(
                min(max(pos.x(), rect.left() + 2), rect.right() - 2),
                min(max(pos.y(), rect.top() + 2), rect.bottom() - 2),
            )
            distance = math.hypot(inside.x() - pos.x(), inside.y() - pos.y())
            if distance <= slop and (best is None or distance < best[0]):
                best = (distance, inside - pos)
        return best[1] if best is not None else None

    def _with_finger_shift(self, event: QMouseEvent) -> QMouseEvent:
        """``event`` moved by the current finger's shift onto its token (the same for the whole
        touch, so the token follows the finger without a jump)."""
        shift = self._finger_shift
        if shift is None or not _from_finger(event):
            return event
        return QMouseEvent(
            event.type(),
            event.position() + shift,
            event.scenePosition() + shift,
            event.globalPosition() + shift,
            event.button(),
            event.buttons(),
            event.modifiers(),
            event.source(),
            event.pointingDevice(),
        )

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self._use_tool(event):
            return
        super().mouseDoubleClickEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if self._use_tool(event):
            return
        super().contextMenuEvent(event)


def _from_finger(event: QMouseEvent) -> bool:
    """A mouse event Qt made from a finger on a touch screen."""
    return event.device().type() == QInputDevice.DeviceType.TouchScreen
