"""Issue 15 (found by the scripted session): a new character's name box starts empty, so a
name clicked into and typed is the whole name (it was "New characterBrakka")."""

from __future__ import annotations

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.ui.main_window import MainWindow


def test_a_typed_name_is_the_whole_name(qtbot: QtBot, window: MainWindow) -> None:
    dialog = window.party_dock.new_character()
    assert dialog.name.text() == "" and dialog.name.placeholderText() == "New character"
    qtbot.mouseClick(dialog.name, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.name, "Brakka")
    dialog.accept()
    assert [b.name for b in window.document.encounter.party] == ["Brakka"]
