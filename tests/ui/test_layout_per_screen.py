"""Window layouts are remembered per screen size (issue 15, "also expected"): a DM who
arranges the docks on the 1366 x 768 laptop and on the 1920 x 1080 monitor gets each back on
its screen, and View > Reset layout puts the first-run layout of the current size back.

The offscreen platform has one made-up screen: ``layout_memory.screen_size`` is replaced to
say which screen the window is on, and ``fit_to_screen`` sizes it as on that screen.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from PySide6.QtCore import QRect, QSettings, QSize, Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QTabBar
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.document import Document
from battlemap.ui import layout_memory, window_layout
from battlemap.ui.main_window import MainWindow

LAPTOP, DESKTOP = QSize(1366, 768), QSize(1920, 1080)
PANEL_PX = 32
"""The desktop's panel: the window gets the screen less this."""
Start = Callable[[QSize], MainWindow]
Area = Qt.DockWidgetArea


@pytest.fixture
def start(
    qtbot: QtBot, encounter: Encounter, settings: QSettings, monkeypatch: pytest.MonkeyPatch
) -> Start:
    """Start the app on a screen of the given size (the same settings each time)."""
    screen = QSize()
    monkeypatch.setattr(layout_memory, "screen_size", lambda _window: QSize(screen))
    first_size = window_layout.fit_to_screen  # as the window calls it, before its restore
    monkeypatch.setattr(
        window_layout,
        "fit_to_screen",
        lambda window: first_size(window, QRect(0, 0, screen.width(), screen.height() - PANEL_PX)),
    )

    def on(size: QSize) -> MainWindow:
        screen.setWidth(size.width())
        screen.setHeight(size.height())
        window = MainWindow(Document(encounter), settings=settings)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        QApplication.processEvents()
        return window

    return on


def tabbed_with_library(window: MainWindow, dock: QDockWidget) -> bool:
    return dock in window.tabifiedDockWidgets(window.library_dock)


def test_each_screen_size_gets_back_its_own_arrangement(start: Start, settings: QSettings) -> None:
    laptop = start(LAPTOP)
    assert tabbed_with_library(laptop, laptop.combat.log)  # the laptop's first-run layout
    laptop.addDockWidget(Area.BottomDockWidgetArea, laptop.combat.log)  # the DM drags it down
    laptop.history_dock.close()
    laptop.close()

    desktop = start(DESKTOP)  # nothing saved for this size: its own first-run layout
    assert desktop.dockWidgetArea(desktop.combat.log) == Area.BottomDockWidgetArea
    assert desktop.history_dock.isVisible()
    desktop.addDockWidget(Area.LeftDockWidgetArea, desktop.library_dock)
    desktop.close()

    laptop = start(LAPTOP)
    assert laptop.dockWidgetArea(laptop.combat.log) == Area.BottomDockWidgetArea
    assert not laptop.history_dock.isVisible()
    assert laptop.dockWidgetArea(laptop.library_dock) == Area.RightDockWidgetArea
    laptop.close()

    desktop = start(DESKTOP)
    assert desktop.dockWidgetArea(desktop.library_dock) == Area.LeftDockWidgetArea
    assert desktop.history_dock.isVisible()
    desktop.close()
    laptop_geometry, _ = layout_memory.layout_keys(LAPTOP)
    desktop_geometry, _ = layout_memory.layout_keys(DESKTOP)
    assert settings.value(laptop_geometry) != settings.value(desktop_geometry)  # each its own


@pytest.mark.parametrize(
    ("size", "log_tabbed"),
    [(LAPTOP, True), (DESKTOP, False)],  # the laptop's log is a tab: it needs the height
)
def test_reset_layout_brings_back_the_first_run_layout_of_this_size(
    start: Start, size: QSize, log_tabbed: bool
) -> None:
    window = start(size)
    log = window.combat.log
    window.addDockWidget(Area.LeftDockWidgetArea, log)
    window.addDockWidget(Area.LeftDockWidgetArea, window.creature_dock)
    window.history_dock.close()
    window.combat.initiative.close()
    reset = window.reset_layout_action
    assert reset in window.view_menu.actions()
    reset.trigger()
    QApplication.processEvents()
    assert tabbed_with_library(window, log) is log_tabbed
    if not log_tabbed:
        assert window.dockWidgetArea(log) == Area.BottomDockWidgetArea
    assert window.dockWidgetArea(window.creature_dock) == Area.RightDockWidgetArea
    assert window.history_dock.isVisible() or tabbed_with_library(window, window.history_dock)
    tab_bars = [bar for bar in window.findChildren(QTabBar) if bar.isVisible()]
    assert len(tab_bars) == 1  # the right column's: none left over from the wrecked layout
    initiative, actions = window.combat.initiative, window.combat.actions
    assert initiative.isVisible() and actions.isVisible()
    for dock in (initiative, actions):
        assert window.dockWidgetArea(dock) == Area.LeftDockWidgetArea
        assert dock.width() >= window_layout.LEFT_MIN_WIDTH
    window.close()
    again = start(size)  # the reset layout is the one kept for this size
    assert tabbed_with_library(again, again.combat.log) is log_tabbed
    assert again.combat.initiative.isVisible()


def test_a_layout_saved_before_sizes_were_kept_still_opens(
    start: Start, settings: QSettings
) -> None:
    window = start(LAPTOP)
    window.addDockWidget(Area.LeftDockWidgetArea, window.library_dock)
    state, geometry = window.saveState(), window.saveGeometry()
    window.close()
    settings.clear()
    settings.setValue(layout_memory.LEGACY_STATE, state)
    settings.setValue(layout_memory.LEGACY_GEOMETRY, geometry)
    again = start(DESKTOP)
    assert again.dockWidgetArea(again.library_dock) == Area.LeftDockWidgetArea


def test_a_mangled_saved_layout_gives_the_first_run_layout(
    start: Start, settings: QSettings
) -> None:
    geometry_key, state_key = layout_memory.layout_keys(LAPTOP)
    settings.setValue(geometry_key, "not a geometry")
    settings.setValue(state_key, "not a state")
    window = start(LAPTOP)
    assert tabbed_with_library(window, window.combat.log)
    assert window.combat.initiative.isVisible()


def test_the_layout_of_the_screen_it_was_closed_on_wins_while_that_screen_is_connected(
    start: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Laptop and monitor both plugged in, the laptop the primary screen: a window closed on
    the monitor opens with the monitor's layout (its geometry puts it back there); with the
    monitor unplugged, the laptop's."""
    connected = [LAPTOP, DESKTOP]
    monkeypatch.setattr(layout_memory, "connected_sizes", lambda: list(connected))
    laptop = start(LAPTOP)
    laptop.close()  # the laptop's layout: the first-run one, the log a tab
    desktop = start(DESKTOP)
    desktop.addDockWidget(Area.LeftDockWidgetArea, desktop.library_dock)
    desktop.close()
    again = start(LAPTOP)  # opens on the primary screen, then goes back to the monitor
    assert again.dockWidgetArea(again.library_dock) == Area.LeftDockWidgetArea
    connected.remove(DESKTOP)  # unplugged while that window runs (it saves nothing here)
    unplugged = start(LAPTOP)
    assert unplugged.dockWidgetArea(unplugged.library_dock) == Area.RightDockWidgetArea
    assert tabbed_with_library(unplugged, unplugged.combat.log)
