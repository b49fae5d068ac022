from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side, Size
from battlemap.ui.main_window import MainWindow


@pytest.fixture
def encounter() -> Encounter:
    creatures = (
        Creature(id="c-tiny", name="Owl", size=Size.TINY, side=Side.PARTY, x=0.5, y=0.5),
        Creature(id="c-medium", name="Fighter", size=Size.MEDIUM, side=Side.PARTY, x=2, y=2),
        Creature(id="c-large", name="Ogre", size=Size.LARGE, side=Side.HOSTILE, x=5, y=2),
        Creature(id="c-huge", name="Giant", size=Size.HUGE, side=Side.HOSTILE, x=0, y=5),
        Creature(id="c-garg", name="Dragon", size=Size.GARGANTUAN, side=Side.HOSTILE, x=6, y=5),
    )
    return Encounter(grid=Grid(width=12, height=10), creatures=creatures)


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def window(qtbot: QtBot, encounter: Encounter, settings: QSettings) -> MainWindow:
    window = MainWindow(Document(encounter), settings=settings)
    qtbot.addWidget(window)
    window.resize(1000, 800)
    window.show()
    qtbot.waitExposed(window)
    window.view.resetTransform()
    window.view.centerOn(window.map_rect().center())
    return window
