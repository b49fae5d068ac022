"""The main window's first start: its size follows the screen, the docks leave the map most of
the width, and Fit map shows the whole map without scroll bars.

Map (tests/ui/conftest.py): 12 x 10 cells, five creatures.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, QSettings, QSize, Qt
from PySide6.QtWidgets import QApplication, QHeaderView, QPushButton, QScrollArea
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.document import Document
from battlemap.ui import window_layout
from battlemap.ui.main_window import MainWindow
from battlemap.ui.map_view import FIT_MARGIN_PX
from tests.ui.test_creature_dock_layout import fight_and_select

LAPTOP = QRect(0, 0, 1366, 768 - 32)
"""A 1366 x 768 laptop's screen less a 32 px desktop panel."""
MIN_MAP_SHARE = 0.45
READABLE_LEFT_WIDTH = 300
"""Init, Creature, HP and Status side by side, and the action buttons' labels."""


def first_start(
    qtbot: QtBot, encounter: Encounter, settings: QSettings, screen: QRect
) -> MainWindow:
    """A window as the app opens it with no saved layout, on a screen of ``screen``."""
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window_layout.fit_to_screen(window, screen)
    window.show()
    qtbot.waitExposed(window)
    window.fit_map()
    QApplication.processEvents()
    return window


@pytest.mark.parametrize(
    ("screen", "expected"),
    [
        (QRect(0, 0, 1366, 736), QSize(1311, 696)),  # 96 % of the width, the height less 40
        (QRect(0, 0, 1920, 1040), QSize(1843, 1000)),
        (QRect(0, 0, 300, 200), QSize(284, 160)),  # a tiny screen: its width less the frame
    ],
)
def test_the_first_size_is_most_of_the_screen_and_fits_it(screen: QRect, expected: QSize) -> None:
    size = window_layout.first_window_size(screen)
    assert size == expected
    frame = window_layout.FRAME_ALLOWANCE
    assert size.width() + frame.width() <= screen.width()
    assert size.height() + frame.height() <= screen.height()


def test_no_real_screen_gives_the_fallback_size(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    assert window_layout.first_window_size(QRect()) == window_layout.FALLBACK_SIZE
    window = MainWindow(Document(encounter), settings=settings)  # offscreen: no real screen
    qtbot.addWidget(window)
    assert window.size() == window_layout.FALLBACK_SIZE


def test_on_a_1366_by_768_laptop_the_docks_are_readable_and_the_map_gets_the_most(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, LAPTOP)
    assert LAPTOP.contains(window.geometry())
    initiative, actions = window.combat.initiative, window.combat.actions
    for dock in (initiative, actions):
        assert dock.width() >= max(READABLE_LEFT_WIDTH, dock.minimumSizeHint().width())
    header = initiative.tree.header()
    for column in range(3):  # Init, Creature, HP: each shown, none cut off at the right
        assert not header.isSectionHidden(column) and header.sectionSize(column) > 0
    # the Status column takes what the names leave, and elides (issue 15 item 7)
    assert header.sectionResizeMode(3) == QHeaderView.ResizeMode.Stretch
    assert header.length() <= header.width()
    end_turn = actions.end_button
    assert end_turn.width() >= end_turn.sizeHint().width()  # its label reads whole
    right = window.creature_dock.width()
    assert right <= 360
    assert window.library_dock.width() == right  # one column: the tabs over the Creature dock
    assert window.view.width() >= MIN_MAP_SHARE * window.width()


def test_a_saved_window_size_wins_over_the_first_start_size(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, LAPTOP)
    window.resize(790, 620)  # within the offscreen screen: restoreGeometry keeps it there
    QApplication.processEvents()
    window.close()
    again = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(again)
    assert again.size() == QSize(790, 620)


def test_fit_map_shows_the_whole_map_without_scroll_bars_until_a_zoom(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, LAPTOP)
    view = window.view
    assert view.horizontalScrollBar().maximum() == 0
    assert view.verticalScrollBar().maximum() == 0
    shown = view.mapFromScene(window.map_rect()).boundingRect()
    inside = view.viewport().rect()
    assert inside.contains(shown)
    gap = min(  # the map fills the view on its narrow sides, a margin from the edge
        shown.left() - inside.left(),
        inside.right() - shown.right(),
        shown.top() - inside.top(),
        inside.bottom() - shown.bottom(),
    )
    assert gap <= 2 * FIT_MARGIN_PX
    window.resize(window.width() - 200, window.height())  # the map follows a resize
    QApplication.processEvents()
    assert view.viewport().rect().contains(view.mapFromScene(window.map_rect()).boundingRect())
    assert view.horizontalScrollBar().maximum() == 0
    view.zoom_in()  # zoomed in, the whole scene scrolls again, its margin around the map too
    QApplication.processEvents()
    assert view.horizontalScrollBar().maximum() > 0
    assert view.sceneRect() == window.scene.sceneRect()


def test_the_actions_dock_alone_stays_wide_enough_for_its_buttons_mid_combat(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    """With the Initiative dock closed, the DM drags the Actions dock as narrow as it goes:
    its buttons still read whole (its contents need more once a combat runs)."""
    window = first_start(qtbot, encounter, settings, LAPTOP)
    initiative, actions = window.combat.initiative, window.combat.actions
    for button in (initiative.start_button, initiative.roll_all, initiative.begin_button):
        button.click()
    initiative.close()
    window.resizeDocks([actions], [100], Qt.Orientation.Horizontal)
    QApplication.processEvents()
    assert actions.width() >= window_layout.LEFT_MIN_WIDTH
    scroll = actions.widget()
    assert isinstance(scroll, QScrollArea)
    body = scroll.widget()
    assert body is not None
    assert body.width() >= body.minimumSizeHint().width()
    for button in (actions.end_button, *actions.findChildren(QPushButton)):
        if button.isVisible():
            assert button.width() >= button.minimumSizeHint().width()


def test_on_a_laptop_the_log_is_a_tab_and_damage_shows_without_scrolling(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, LAPTOP)
    log = window.combat.log
    assert window.dockWidgetArea(log) == Qt.DockWidgetArea.RightDockWidgetArea
    assert log in window.tabifiedDockWidgets(window.library_dock)
    scroll = fight_and_select(window, "c-large")
    damage = window.combat.panel.damage_button
    corner = damage.mapTo(scroll.viewport(), damage.rect().bottomRight())
    assert scroll.viewport().rect().contains(corner)


def test_on_a_1920_by_1080_screen_the_log_runs_along_the_bottom(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, QRect(0, 0, 1920, 1040))
    assert window.dockWidgetArea(window.combat.log) == Qt.DockWidgetArea.BottomDockWidgetArea
    assert window.view.width() >= 0.55 * window.width()
