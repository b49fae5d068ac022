"""The attack dialog names the light's reason: a knight without darkvision attacking a
gargoyle in a dark room (srd-5e "Unseen Attackers and Targets": both unseen, so the target's
disadvantage and the attacker's advantage cancel), each reason shown."""

from __future__ import annotations

import html
import os
from pathlib import Path

from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Side
from battlemap.model.features import LightLevel, MapLighting
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.ui.fight_window import begin_fight, shown_window
from tests.ui.test_combat_attack_dialog import KNIGHT
from tests.ui.tool_input import click as click_map


def dark_window(qtbot: QtBot, tmp_path: Path) -> MainWindow:
    creatures = (
        Creature(id="c-knight", name="Knight", side=Side.PARTY, x=2, y=2, hp=30, max_hp=30),
        Creature(id="c-garg", name="Gargoyle", side=Side.HOSTILE, x=3, y=2, hp=20, max_hp=20),
    )
    encounter = Encounter(
        grid=Grid(width=10, height=8),
        creatures=creatures,
        party=(KNIGHT,),
        lighting=MapLighting(ambient=LightLevel.DARK),
    )
    window = shown_window(qtbot, tmp_path, encounter)
    begin_fight(window, "c-knight")
    return window


def test_the_dialog_names_darkness_as_the_reason(qtbot: QtBot, tmp_path: Path) -> None:
    window = dark_window(qtbot, tmp_path)
    dialog = window.combat.attack_dialog
    window.combat.open_attack()
    window.view.resetTransform()
    window.view.centerOn(window.map_rect().center())
    qtbot.mouseClick(dialog.pick, Qt.MouseButton.LeftButton)
    click_map(window.view, 3.5, 2.5)  # the Gargoyle's token
    assert dialog.target_id() == EntityId("c-garg")
    shown = html.unescape(dialog.situation.text())
    assert "the attacker can't see the target: target in darkness, no darkvision" in shown
    assert "the target can't see the attacker: attacker in darkness, no darkvision" in shown
    if os.environ.get("BATTLEMAP_SHOTS"):  # to look at it: BATTLEMAP_SHOTS=/some/dir
        dialog.grab().save(str(Path(os.environ["BATTLEMAP_SHOTS"]) / "attack-in-darkness.png"))
