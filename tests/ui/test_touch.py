"""A touch screen laid on the table: pinch to zoom, trackpad zoom, a finger drags a token.

Real touch events go through Qt (QTest's touch sequences → Qt's pinch recogniser, or Qt's
mouse events made from an unhandled touch), offscreen. Map (tests/ui/conftest.py, 12 x 10):
Owl (Tiny) at (0.5, 0.5), Fighter at (2, 2), Ogre (Large) at (5, 2).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QNativeGestureEvent, QPointingDevice
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_view import FINGER_SLOP_PX
from battlemap.ui.style import cell_to_scene
from tests.ui.helpers import cell_centre_in_view

Sequence = QTest.QTouchEventSequence


@pytest.fixture(scope="module")
def finger() -> QPointingDevice:
    return QTest.createTouchDevice()


@pytest.fixture
def big(window: MainWindow) -> MainWindow:
    """The window large enough for the whole map to fit at 100 % (64 px a cell)."""
    window.resize(1600, 1000)
    QApplication.processEvents()
    window.view.resetTransform()
    window.view.centerOn(window.map_rect().center())
    return window


def touch(
    window: MainWindow, device: QPointingDevice, points: Callable[[Sequence], object]
) -> None:
    """One touch frame on the map's viewport (points given in viewport pixels)."""
    sequence = QTest.touchEvent(window.view.viewport(), device)
    points(sequence)
    sequence.commit()
    del sequence
    QApplication.processEvents()


def pinch(
    window: MainWindow, device: QPointingDevice, centre: QPoint, start: int, end: int
) -> None:
    """Two fingers at ``centre`` ± ``start`` px horizontally, moved in 8 steps to ± ``end``."""
    vp = window.view.viewport()
    spans = [start + (end - start) * i // 8 for i in range(9)]
    for index, span in enumerate(spans):
        kind = "press" if index == 0 else "release" if index == len(spans) - 1 else "move"

        def two_fingers(s: Sequence, d: int = span, k: str = kind) -> None:
            getattr(s, k)(0, centre - QPoint(d, 0), vp)
            getattr(s, k)(1, centre + QPoint(d, 0), vp)

        touch(window, device, two_fingers)
        QTest.qWait(10)


def test_two_fingers_spreading_zoom_in_around_their_centre(
    big: MainWindow, finger: QPointingDevice
) -> None:
    view = big.view
    centre = cell_centre_in_view(view, 4, 4)
    under = view.mapToScene(centre)
    pinch(big, finger, centre, 30, 120)  # fingers 60 px apart, then 240: about 4x
    assert 2.5 < view.current_scale() <= 4.5
    moved = view.mapToScene(centre) - under
    assert abs(moved.x()) < cell_to_scene(0.25) and abs(moved.y()) < cell_to_scene(0.25)
    assert big.document.encounter.creature(EntityId("c-medium")).x == 2  # no token moved  # type: ignore[arg-type]


def test_two_fingers_closing_zoom_out(big: MainWindow, finger: QPointingDevice) -> None:
    view = big.view
    view.zoom_by(3.0)
    pinch(big, finger, view.viewport().rect().center(), 150, 50)
    assert 0.8 < view.current_scale() < 1.6


def test_trackpad_zoom_gesture_zooms_around_the_pointer(big: MainWindow) -> None:
    view = big.view
    point = QPointF(cell_centre_in_view(view, 3, 3))
    under = view.mapToScene(point.toPoint())
    pad = QPointingDevice.primaryPointingDevice()
    global_point = QPointF(view.viewport().mapToGlobal(point.toPoint()))
    for kind, value in (
        (Qt.NativeGestureType.BeginNativeGesture, 0.0),
        (Qt.NativeGestureType.ZoomNativeGesture, 0.25),
        (Qt.NativeGestureType.ZoomNativeGesture, 0.2),
        (Qt.NativeGestureType.EndNativeGesture, 0.0),
    ):
        event = QNativeGestureEvent(kind, pad, 2, point, point, global_point, value, QPointF(0, 0))
        QApplication.sendEvent(view.viewport(), event)
        assert event.isAccepted()
    assert view.current_scale() == pytest.approx(1.25 * 1.2)
    moved = view.mapToScene(point.toPoint()) - under
    assert abs(moved.x()) <= 2 and abs(moved.y()) <= 2


def drag_with_finger(
    window: MainWindow, device: QPointingDevice, start: QPoint, end: QPoint
) -> None:
    vp = window.view.viewport()
    touch(window, device, lambda s: s.press(0, start, vp))
    for i in range(1, 6):
        at = start + (end - start) * (i / 5)

        def move(s: Sequence, to: QPoint = at) -> None:
            s.move(0, to, vp)

        touch(window, device, move)
    touch(window, device, lambda s: s.release(0, end, vp))


def test_a_finger_drags_a_token_as_one_undo_step(big: MainWindow, finger: QPointingDevice) -> None:
    view = big.view
    steps = big.undo_stack.count()
    drag_with_finger(
        big, finger, cell_centre_in_view(view, 2.5, 2.5), cell_centre_in_view(view, 2.5, 4.5)
    )
    fighter = big.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    assert (fighter.x, fighter.y) == (2, 4)
    assert big.undo_stack.count() == steps + 1
    big.undo_stack.undo()
    fighter = big.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    assert (fighter.x, fighter.y) == (2, 2)


def test_tokens_are_finger_sized_at_100_percent(big: MainWindow) -> None:
    """A token takes a finger (about 40 px) at the default zoom: a Medium one by its size, a
    Tiny one (half a cell) with the finger slop around it."""
    view = big.view
    assert view.current_scale() == 1.0
    sides = {
        creature_id: view.mapFromScene(token.sceneBoundingRect()).boundingRect().width()
        for creature_id, token in big.scene.tokens.items()
    }
    assert sides[EntityId("c-medium")] >= 40
    assert sides[EntityId("c-tiny")] < 40 <= sides[EntityId("c-tiny")] + 2 * FINGER_SLOP_PX


def test_a_finger_just_off_a_tiny_token_still_drags_it(
    big: MainWindow, finger: QPointingDevice
) -> None:
    view = big.view
    owl = big.scene.tokens["c-tiny"]  # type: ignore[index]
    edge = view.mapFromScene(owl.sceneBoundingRect()).boundingRect()
    start = QPoint(edge.right() + FINGER_SLOP_PX - 3, edge.center().y())  # beside it, not on it
    assert not view.mapToScene(start).x() < owl.sceneBoundingRect().right()
    drag_with_finger(big, finger, start, start + QPoint(0, 2 * 64))
    owl_now = big.document.encounter.creature("c-tiny")  # type: ignore[arg-type]
    assert (owl_now.x, owl_now.y) == (0.5, 2.5)


def test_a_mouse_click_just_off_a_token_grabs_nothing(big: MainWindow) -> None:
    from tests.ui.helpers import drag

    view = big.view
    owl = big.scene.tokens["c-tiny"]  # type: ignore[index]
    edge = view.mapFromScene(owl.sceneBoundingRect()).boundingRect()
    start = QPoint(edge.right() + FINGER_SLOP_PX - 3, edge.center().y())
    drag(view, start, start + QPoint(0, 2 * 64))
    owl_now = big.document.encounter.creature("c-tiny")  # type: ignore[arg-type]
    assert (owl_now.x, owl_now.y) == (0.5, 0.5)


def test_a_pinch_with_one_finger_on_a_token_zooms_and_moves_nothing(
    big: MainWindow, finger: QPointingDevice
) -> None:
    view = big.view
    fighter = big.scene.tokens["c-medium"]  # type: ignore[index]
    on_token = view.mapFromScene(fighter.sceneBoundingRect().center())
    # centre 40 px right of the token: the left finger starts on it, both spread out
    pinch(big, finger, on_token + QPoint(40, 0), 40, 130)
    assert view.current_scale() > 2
    fighter_now = big.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    assert (fighter_now.x, fighter_now.y) == (2, 2)
    assert big.undo_stack.count() == 0
