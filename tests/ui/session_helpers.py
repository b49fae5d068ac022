"""Shared by the file and autosave tests: user folders in a temp folder, and a simple edit."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QStandardPaths

from battlemap.model.document import MoveCreature
from battlemap.ui.main_window import MainWindow
from battlemap.ui.undo import push


@pytest.fixture(autouse=True)
def user_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Every user folder Qt knows (data, config, documents) points into the temp folder.

    Import this fixture into a test module to make it apply there.
    """
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    QStandardPaths.setTestModeEnabled(True)
    yield home
    QStandardPaths.setTestModeEnabled(False)


def move_fighter(window: MainWindow, to: tuple[float, float]) -> None:
    """One undoable edit: move the conftest encounter's fighter so its corner is at ``to``."""
    fighter = window.document.encounter.creature("c-medium")  # type: ignore[arg-type]
    push(window.undo_stack, window.document, MoveCreature(fighter.id, (fighter.x, fighter.y), to))
