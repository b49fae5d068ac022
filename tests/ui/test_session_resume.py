"""A start goes on where the last session stopped (issue 15, "also expected"): the last
encounter reopens (if the DM chose so, the default), the players' window too if it was open,
on its screen; a gone or broken last file is reported, dropped from Open Recent, and the
window keeps the demo.

Each "restart" is a new ``MainWindow`` on the same settings file, started as ``app.py`` does
(``resume_session``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QSettings
from PySide6.QtGui import QGuiApplication
from pytestqt.qtbot import QtBot

from battlemap.app import resume_session
from battlemap.io.encounter_file import save_battlemap
from battlemap.model import Creature, Document, Encounter, Grid
from battlemap.ui.main_window import MainWindow
from battlemap.ui.players.controller import OPEN_AT_CLOSE, PLAYERS_SCREEN
from battlemap.ui.recent_files import REOPEN_KEY, REOPEN_TEXT
from tests.ui.players_helpers import open_players
from tests.ui.session_helpers import user_folders  # noqa: F401 (autouse fixture)

DEMO_NAME = "Demo"
Restart = Callable[[], tuple[MainWindow, list[str]]]


def saved_file(folder: Path, name: str = "crypt.battlemap") -> Path:
    path = folder / name
    encounter = Encounter(
        name="Crypt",
        grid=Grid(width=9, height=7),
        creatures=(Creature(id="c-ghoul", name="Ghoul", x=1, y=1),),
    )
    save_battlemap(path, encounter, {})
    return path


@pytest.fixture
def restart(qtbot: QtBot, settings: QSettings) -> Restart:
    """Start the app again on the same settings: a window on the demo, then ``app.py``'s
    start-up; returns the window and the error messages it showed."""

    def start() -> tuple[MainWindow, list[str]]:
        demo = Encounter(name=DEMO_NAME, grid=Grid(width=6, height=6))
        window = MainWindow(Document(demo), settings=settings)
        qtbot.addWidget(window)
        errors: list[str] = []
        window.files.show_error = lambda _parent, title, text: errors.append(f"{title}: {text}")
        window.show()
        qtbot.waitExposed(window)
        resumed = resume_session(window, None)
        qtbot.waitUntil(lambda: resumed.done)  # after the first frame
        window.files.confirm_close = False  # the teardown closes it without asking
        return window, errors

    return start


def open_from_recent_menu(window: MainWindow, path: Path) -> None:
    """File > Open Recent > the entry naming ``path`` (the list must hold it)."""
    window.files.recent_menu.aboutToShow.emit()
    entry = next(a for a in window.files.recent_menu.actions() if a.statusTip() == str(path))
    entry.trigger()


def test_the_last_encounter_reopens_at_start(
    window: MainWindow, restart: Restart, tmp_path: Path
) -> None:
    crypt = saved_file(tmp_path)
    window.files.open_path(crypt)
    window.close()
    again, errors = restart()
    assert again.document.encounter.name == "Crypt"
    assert again.files.path == crypt.resolve()
    assert again.windowTitle().startswith("crypt.battlemap")
    assert again.undo_stack.isClean() and errors == []
    assert again.files.recent.reopen_action.isChecked()  # the default, shown in the menu


def test_the_dm_can_switch_the_reopening_off_in_the_open_recent_menu(
    window: MainWindow, restart: Restart, tmp_path: Path, settings: QSettings
) -> None:
    window.files.open_path(saved_file(tmp_path))
    window.files.recent_menu.aboutToShow.emit()
    choice = next(a for a in window.files.recent_menu.actions() if a.text() == REOPEN_TEXT)
    assert choice.isCheckable() and choice.isChecked()
    choice.trigger()
    assert str(settings.value(REOPEN_KEY)).lower() == "false"
    window.close()
    again, errors = restart()
    assert again.document.encounter.name == DEMO_NAME and errors == []
    assert not again.files.recent.reopen_action.isChecked()
    assert "Last encounter: crypt.battlemap (File > Open Recent" in (
        again.statusBar().currentMessage()
    )  # offered instead
    open_from_recent_menu(again, (tmp_path / "crypt.battlemap").resolve())  # still listed
    assert again.document.encounter.name == "Crypt"


def test_a_gone_last_file_is_reported_dropped_and_the_demo_stays(
    window: MainWindow, restart: Restart, tmp_path: Path
) -> None:
    older, newest = saved_file(tmp_path, "older.battlemap"), saved_file(tmp_path)
    window.files.open_path(older)
    window.files.open_path(newest)
    window.close()
    newest.unlink()
    again, errors = restart()
    assert again.document.encounter.name == DEMO_NAME
    assert len(errors) == 1
    assert "no such file" in errors[0] and str(newest.resolve()) in errors[0]
    assert "no longer listed in File > Open Recent" in errors[0]
    assert again.files.recent_files() == [older.resolve()]


def test_a_broken_recent_file_is_reported_and_dropped_though_it_still_exists(
    window: MainWindow, restart: Restart, tmp_path: Path
) -> None:
    crypt = saved_file(tmp_path)
    window.files.open_path(crypt)
    window.close()
    crypt.write_bytes(b"not a zip at all")
    again, errors = restart()
    assert again.document.encounter.name == DEMO_NAME
    assert len(errors) == 1 and str(crypt.resolve()) in errors[0]
    assert "no longer listed" in errors[0]
    assert crypt.exists() and again.files.recent_files() == []


def test_a_broken_file_opened_from_the_menu_leaves_the_list(
    window: MainWindow, tmp_path: Path
) -> None:
    errors: list[str] = []
    window.files.show_error = lambda _parent, _title, text: errors.append(text)
    good, broken = saved_file(tmp_path, "good.battlemap"), saved_file(tmp_path)
    window.files.open_path(broken)
    window.files.open_path(good)
    broken.write_bytes(b"PK\x03\x04 truncated")
    open_from_recent_menu(window, broken.resolve())
    assert window.document.encounter.name == "Crypt" and window.files.path == good.resolve()
    assert len(errors) == 1 and "no longer listed" in errors[0]
    assert window.files.recent_files() == [good.resolve()]
    window.files.recent_menu.aboutToShow.emit()
    assert not any(
        a.statusTip() == str(broken.resolve()) for a in window.files.recent_menu.actions()
    )


def test_a_file_named_on_the_command_line_is_not_replaced(
    window: MainWindow, qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    window.files.open_path(saved_file(tmp_path))
    window.close()
    named = Encounter(name="Named", grid=Grid(width=5, height=5))
    again = MainWindow(Document(named), settings=settings)
    qtbot.addWidget(again)
    again.show()
    resumed = resume_session(again, tmp_path / "named.json")
    qtbot.waitUntil(lambda: resumed.done)
    again.files.confirm_close = False
    assert again.document.encounter.name == "Named"


def test_the_players_window_reopens_on_its_screen_if_it_was_open(
    window: MainWindow, qtbot: QtBot, restart: Restart, settings: QSettings
) -> None:
    open_players(window, qtbot)
    screen = window.players.window.screen()
    window.close()
    assert str(settings.value(OPEN_AT_CLOSE)).lower() == "true"
    assert settings.value(PLAYERS_SCREEN) == screen.name()
    again, _errors = restart()
    qtbot.waitUntil(again.players.window.isVisible)
    assert again.players.toggle_action.isChecked()
    assert again.players.window.screen().name() == screen.name()


def test_a_players_window_closed_before_the_app_stays_closed(
    window: MainWindow, qtbot: QtBot, restart: Restart, settings: QSettings
) -> None:
    open_players(window, qtbot)
    window.players.toggle_action.setChecked(False)
    window.close()
    assert str(settings.value(OPEN_AT_CLOSE)).lower() == "false"
    again, _errors = restart()
    assert not again.players.window.isVisible()
    assert not again.players.toggle_action.isChecked()


def test_the_players_window_reopens_when_its_last_screen_is_gone(
    window: MainWindow, qtbot: QtBot, restart: Restart, settings: QSettings
) -> None:
    open_players(window, qtbot)
    window.close()
    settings.setValue(PLAYERS_SCREEN, "HDMI-unplugged")
    again, _errors = restart()
    qtbot.waitUntil(again.players.window.isVisible)
    assert again.players.window.screen() in QGuiApplication.screens()


def test_the_window_draws_before_the_last_encounter_reopens_and_says_what_opens(
    window: MainWindow, qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    """The reopen waits for the first frame (it took ~0.4-0.7 s with nothing drawn): the map
    view paints the demo first, with the file's name on the status bar, then the file opens."""
    crypt = saved_file(tmp_path)
    window.files.open_path(crypt)
    window.close()
    again = MainWindow(Document(Encounter(name=DEMO_NAME)), settings=settings)
    qtbot.addWidget(again)
    painted: list[str] = []
    watcher = PaintWatcher(lambda: painted.append(again.document.encounter.name))
    again.view.viewport().installEventFilter(watcher)
    again.show()
    resumed = resume_session(again, None)
    assert again.statusBar().currentMessage() == f"Opening {crypt.name}…"
    assert again.document.encounter.name == DEMO_NAME and not resumed.done
    qtbot.waitUntil(lambda: resumed.done)
    again.files.confirm_close = False
    assert painted and painted[0] == DEMO_NAME  # a first frame before the reopen
    assert again.document.encounter.name == "Crypt"


class PaintWatcher(QObject):
    def __init__(self, seen: Callable[[], None]) -> None:
        super().__init__()
        self.seen = seen

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.seen()
        return False
