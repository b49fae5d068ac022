"""Help > About names the app and its version; the application icon loads in every size."""

from __future__ import annotations

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from battlemap import APP_NAME, __version__
from battlemap.resources import app_icon_files
from battlemap.ui.main_window import MainWindow


def test_about_box_shows_name_and_version(qtbot: QtBot, window: MainWindow) -> None:
    seen: dict[str, str] = {}

    def read_and_close() -> None:
        box = QApplication.activeModalWidget()
        assert isinstance(box, QMessageBox)
        seen["title"], seen["text"] = box.windowTitle(), box.text()
        box.accept()

    about = next(a for a in window.help_menu.actions() if a.text().startswith("&About"))
    QTimer.singleShot(0, read_and_close)
    about.trigger()  # modal: returns once read_and_close has closed it
    assert seen["title"] == f"About {APP_NAME}"
    assert f"{APP_NAME} {__version__}" in seen["text"]


def test_app_icon_pngs_load_in_every_size(qtbot: QtBot) -> None:
    icon = QIcon()
    for png in app_icon_files():
        icon.addFile(str(png))
    sizes = {size.width() for size in icon.availableSizes()}
    assert {16, 32, 48, 64, 128, 256} <= sizes
    assert not icon.pixmap(QSize(24, 24)).isNull()
