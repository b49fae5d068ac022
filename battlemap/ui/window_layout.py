"""The main window's first-run layout: its size on the screen it opens on, and its docks' sizes
(and, on a short screen, the Combat log's place).

The one place for first-run sizes. A geometry the DM saved (``MainWindow._restore_layout``) is
restored after ``fit_to_screen`` and replaces it; with a saved dock layout ``size_docks`` is
not called at all.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QToolBar

SCREEN_WIDTH_SHARE = 0.96
"""The first window's width, as a share of the screen's available width (maximised-ish)."""
FRAME_ALLOWANCE = QSize(16, 40)
"""Room left for the window manager's frame and title bar, which ``resize`` does not count."""
FALLBACK_SIZE = QSize(1280, 800)
"""The first size with no real screen to follow (the offscreen platform)."""

LEFT_MIN_WIDTH = 312
"""The least the Initiative and Actions docks narrow to, each alone too: the Actions dock's
three columns of buttons ("Cast a Spell" with its menu arrow the widest) need ~310 px
mid-combat (more than before a combat, when its minimum is measured), and the order's
columns read whole."""
LEFT_WIDTH = 320
"""Initiative and Actions: the order's Init, Creature, HP and Status columns and the action
buttons' labels read whole (each dock also has a minimum width from its contents)."""
RIGHT_WIDTH = 340
"""The right column (Creature library / History / Party tabs over the Creature dock); the map
takes the rest of the width."""
LOG_HEIGHT_SHARE, LOG_MIN_HEIGHT, LOG_MAX_HEIGHT = 0.14, 120, 160
"""The Combat log along the bottom: a few lines; the side columns need the height more."""
CREATURE_MAX_HEIGHT = 520
"""Enough for the whole Creature dock mid-combat; a taller column gives the rest to the
library's list."""
SHORT_WINDOW_HEIGHT = 800
"""Below this (a 1366 x 768 laptop's window is ~700 px), the Combat log starts as a tab in the
right column: along the bottom it took ~130 px from the Creature dock's HP and damage fields
and the Actions dock's buttons, which then scrolled out of sight."""
CREATURE_SHARE = 520 / 720
"""The Creature dock's share of the right column: the taller of it, since its combat panel
(HP, damage, conditions) is what a DM uses most."""
INITIATIVE_SHARE = 385 / 785
"""The Initiative dock's share of the left column: at 1600 x 1000 the order and the Actions
dock both show whole mid-combat (385 and 400 px)."""


def first_window_size(available: QRect) -> QSize:
    """The main window's size (without the frame) on a first start on a screen whose available
    geometry (the screen less the desktop's panels) is ``available``.

    Most of the screen: ``SCREEN_WIDTH_SHARE`` of the width, the full height less the title
    bar; never larger than the available area less ``FRAME_ALLOWANCE``, so the framed window
    fits. An empty ``available`` gives ``FALLBACK_SIZE``.
    """
    if available.isEmpty():
        return QSize(FALLBACK_SIZE)
    width = min(
        round(available.width() * SCREEN_WIDTH_SHARE), available.width() - FRAME_ALLOWANCE.width()
    )
    height = available.height() - FRAME_ALLOWANCE.height()
    return QSize(max(1, width), max(1, height))


def fit_to_screen(window: QMainWindow, available: QRect | None = None) -> None:
    """Size the window for its screen and centre it in the available area (first start only:
    a saved geometry restored later replaces both).

    Args:
        window: the main window, before it is shown.
        available: the screen's area to use; None for the window's screen's available area
            (``FALLBACK_SIZE`` on the offscreen platform: tests and headless screenshots).
    """
    if available is None:
        offscreen = QGuiApplication.platformName() == "offscreen"  # a made-up 800 x 800 screen
        screen = None if offscreen else window.screen()
        available = screen.availableGeometry() if screen is not None else QRect()
    size = first_window_size(available)
    window.resize(size)
    if not available.isEmpty():
        frame = QRect(available.topLeft(), size)
        frame.moveCenter(available.center())
        window.move(frame.topLeft())


def size_docks(
    window: QMainWindow,
    *,
    left: tuple[QDockWidget, QDockWidget] | None,
    right: QDockWidget | None,
    creature: QDockWidget | None,
    log: QDockWidget | None,
) -> None:
    """First-run dock sizes for the window's current size.

    Args:
        window: the main window, already at its first size.
        left: the Initiative and Actions docks (stacked on the left), if installed.
        right: a dock of the right column's tabs (library / history / party).
        creature: the Creature dock under them.
        log: the Combat log along the bottom; in a window shorter than
            ``SHORT_WINDOW_HEIGHT`` it becomes a tab of the right column instead.

    Each size is a wish: Qt keeps every dock at least at its minimum size.
    """
    column = window.height() - _chrome_height(window)  # the side columns' height, log included
    if log is not None and right is not None and window.height() < SHORT_WINDOW_HEIGHT:
        window.tabifyDockWidget(right, log)  # a tab in the right column, not a bottom row
        right.raise_()
        log = None
    if log is not None:
        log_height = round(window.height() * LOG_HEIGHT_SHARE)
        log_height = max(LOG_MIN_HEIGHT, min(LOG_MAX_HEIGHT, log_height))
        window.resizeDocks([log], [log_height], Qt.Orientation.Vertical)
        column -= log_height
    if left is not None:
        initiative, actions = left
        window.resizeDocks([initiative], [LEFT_WIDTH], Qt.Orientation.Horizontal)
        share = round(column * INITIATIVE_SHARE)
        window.resizeDocks([initiative, actions], [share, column - share], Qt.Orientation.Vertical)
    if right is not None:
        window.resizeDocks([right], [RIGHT_WIDTH], Qt.Orientation.Horizontal)
    if creature is not None:
        share = min(round(column * CREATURE_SHARE), CREATURE_MAX_HEIGHT)
        window.resizeDocks([creature], [share], Qt.Orientation.Vertical)


def _chrome_height(window: QMainWindow) -> int:
    """The menu bar, top toolbars and status bar: what the docks' columns don't get."""
    toolbar = max(  # the top toolbars share one row
        (
            bar.sizeHint().height()
            for bar in window.findChildren(QToolBar)
            if window.toolBarArea(bar) == Qt.ToolBarArea.TopToolBarArea
        ),
        default=0,
    )
    return window.menuBar().sizeHint().height() + toolbar + window.statusBar().sizeHint().height()
