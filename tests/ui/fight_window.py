"""The shared set-up of UI tests: a main window on an encounter, shown at a laptop's size, and
a fight begun with a chosen creature first."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model import Document, Encounter
from battlemap.ui.main_window import MainWindow

LAPTOP = (1366, 768)


def shown_window(
    qtbot: QtBot, tmp_path: Path, encounter: Encounter, size: tuple[int, int] = LAPTOP
) -> MainWindow:
    """A main window on ``encounter`` (its settings in ``tmp_path``), shown and exposed."""
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    return window


def begin_fight(window: MainWindow, first: str, seed: int | None = 5) -> None:
    """Start a combat of every creature, roll initiative (dice seeded by ``seed``; None: the
    session's own), move ``first`` to the head of the order (the rest keep theirs) and begin."""
    ui = window.combat
    if seed is not None:
        ui.session.seed_source = lambda: seed
    ui.initiative.start()
    ui.initiative.roll(monsters_only=False)
    state = ui.session.state
    assert state is not None
    ids = [str(s.creature_id) for s in state.order]
    if ids[0] != first:
        ids.remove(first)
        ui.initiative.tree.reordered.emit([first, *ids])
    ui.initiative.begin()
