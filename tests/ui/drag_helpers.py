"""Shared set-up for the drag-feedback and targeting tests: a small room with a wall, mud and
a goblin, and a way to drag with keyboard modifiers (``helpers.drag`` sends none)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, QSettings, Qt
from PySide6.QtGui import QImage, QMouseEvent, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsView
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter
from battlemap.ui.main_window import MainWindow
from tests.ui.helpers import cell_centre_in_view


def open_window(qtbot: QtBot, tmp_path: Path, encounter: Encounter) -> MainWindow:
    """A main window on ``encounter`` with the whole map in view (pixel probes reach it)."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1600, 1000)
    window.show()
    qtbot.waitExposed(window)
    window.fit_map()
    return window


def send(
    view: QGraphicsView,
    kind: QEvent.Type,
    pos: QPoint,
    button: Qt.MouseButton,
    buttons: Qt.MouseButton,
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    local = QPointF(pos)
    global_pos = QPointF(view.viewport().mapToGlobal(pos))
    event = QMouseEvent(kind, local, global_pos, button, buttons, modifiers)
    QApplication.sendEvent(view.viewport(), event)


def press_at(window: MainWindow, cell: tuple[float, float]) -> None:
    left = Qt.MouseButton.LeftButton
    point = cell_centre_in_view(window.view, *cell)
    send(window.view, QEvent.Type.MouseButtonPress, point, left, left)


def move_through(
    window: MainWindow,
    cells: Sequence[tuple[float, float]],
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
    steps: int = 4,
) -> None:
    """Mouse moves with the left button held from ``cells[0]`` through the rest."""
    view = window.view
    points = [cell_centre_in_view(view, *c) for c in cells]
    for a, b in itertools.pairwise(points):
        for i in range(1, steps + 1):
            point = a + (b - a) * (i / steps)
            send(
                view, QEvent.Type.MouseMove, point, Qt.MouseButton.NoButton,
                Qt.MouseButton.LeftButton, modifiers,
            )  # fmt: skip


def release_at(
    window: MainWindow,
    cell: tuple[float, float],
    modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    point = cell_centre_in_view(window.view, *cell)
    send(window.view, QEvent.Type.MouseButtonRelease, point, left, none, modifiers)


def grab_view(window: MainWindow) -> QImage:
    """What the view shows, drawn by the view itself (items that ignore the zoom included)."""
    size = window.view.viewport().size()
    image = QImage(size, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    window.view.render(painter, QRectF(image.rect()), window.view.viewport().rect())
    painter.end()
    return image


def pixel_at(window: MainWindow, image: QImage, cell: tuple[float, float]) -> tuple[int, int, int]:
    point = cell_centre_in_view(window.view, *cell)
    colour = image.pixelColor(point.x(), point.y())
    return colour.red(), colour.green(), colour.blue()
