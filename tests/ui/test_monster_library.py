"""The library dock reads the bundled monsters after the first frame, or at the first look."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from battlemap.io.loader import load_demo_encounter
from battlemap.model.document import Document
from battlemap.ui import library_dock
from battlemap.ui.main_window import MainWindow
from battlemap.ui.monster_library import FILL_AFTER_MS, LazyMonsters


def new_window(qtbot: QtBot, settings: QSettings) -> MainWindow:
    window = MainWindow(Document(load_demo_encounter()), settings=settings)
    qtbot.addWidget(window)
    return window


def test_a_new_window_has_not_read_the_library(qtbot: QtBot, settings: QSettings) -> None:
    dock = new_window(qtbot, settings).library_dock
    assert isinstance(dock.monsters, LazyMonsters) and not dock.monsters.loaded
    assert dock.list.topLevelItemCount() == 0


def test_the_first_look_reads_the_monsters_and_fills_the_list(
    qtbot: QtBot, settings: QSettings
) -> None:
    dock = new_window(qtbot, settings).library_dock
    goblin = dock.monsters.get("Goblin")  # as the attack dialog looks a stat block up
    assert goblin is not None and goblin.name == "Goblin"
    assert dock.list.topLevelItemCount() == len(dock.monsters) >= 300
    assert "Goblin" in dock.visible_names()


def test_shown_it_fills_itself_after_the_first_frame(qtbot: QtBot, settings: QSettings) -> None:
    window = new_window(qtbot, settings)
    window.show()
    dock = window.library_dock
    assert dock.list.topLevelItemCount() == 0  # not before the window is painted
    qtbot.waitUntil(lambda: dock.list.topLevelItemCount() >= 300, timeout=FILL_AFTER_MS + 5000)
    assert isinstance(dock.monsters, LazyMonsters) and dock.monsters.loaded


def test_a_monster_set_before_the_read_keeps_its_own_stat_block(
    qtbot: QtBot, settings: QSettings
) -> None:
    dock = new_window(qtbot, settings).library_dock
    bundled = dict(dock.monsters.items())  # reads them
    mine = bundled["Goblin"].model_copy(update={"hit_dice": "9d6"})
    fresh = new_window(qtbot, settings).library_dock
    fresh.monsters["Goblin"] = mine  # the write reads the bundled ones first
    assert fresh.monsters["Goblin"].hit_dice == "9d6"
    assert len(fresh.monsters) == len(bundled)


def test_an_unreadable_bundled_library_is_said_in_the_dock(
    qtbot: QtBot, settings: QSettings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = tmp_path / "srd-monsters.json"
    broken.write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(library_dock, "asset_path", lambda name: broken)
    dock = new_window(qtbot, settings).library_dock
    assert len(dock.monsters) == 0
    assert "could not be read" in dock.summary.text()
