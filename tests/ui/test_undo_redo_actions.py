"""Edit > Undo and Redo name the step they take back or do again, as plain text (issue 15).

A creature named ``<img src=...>`` must show literally in Redo's tooltip, as in Undo's; and
a window closed and deleted with steps to redo must not call into its deleted actions (a
lambda on ``redoTextChanged`` did, in 40 tests).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QSettings
from PySide6.QtGui import Qt
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow
from tests.ui.test_combat_docks import select

IMAGE_NAME = '<img src="/tmp/battlemap-secret.png">'
AMPERSAND_NAME = "Tom & Jerry"


@pytest.fixture
def encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=8, height=6),
        creatures=(
            Creature(id="img", name=IMAGE_NAME, side=Side.HOSTILE, x=4, y=1, hp=10, max_hp=10),
            Creature(id="tom", name=AMPERSAND_NAME, side=Side.PARTY, x=1, y=1, hp=9, max_hp=9),
        ),
    )


def damage(window: MainWindow, creature_id: str) -> None:
    """One recorded step named after the creature: 1 damage from the Creature dock."""
    before = window.undo_stack.count()
    select(window, creature_id)
    window.combat.panel.amount.setValue(1)
    window.combat.panel.damage_button.click()
    assert window.undo_stack.count() == before + 1


def test_redo_names_the_undone_step_as_plain_text(window: MainWindow) -> None:
    redo = window.redo_action
    assert not redo.isEnabled() and redo.text() == "&Redo" and redo.toolTip() == "Redo"
    damage(window, "img")
    window.undo_action.trigger()
    assert IMAGE_NAME in window.undo_stack.redoText()
    assert redo.isEnabled()
    assert IMAGE_NAME in redo.text()
    tip = redo.toolTip()
    assert IMAGE_NAME not in tip  # escaped, so Qt shows the name instead of loading an image
    assert Qt.mightBeRichText(tip) and "&lt;img" in tip
    redo.trigger()
    assert window.document.encounter.creature(EntityId("img")).hp == 9
    assert not redo.isEnabled() and redo.toolTip() == "Redo"


def test_redo_shows_an_ampersand_in_a_name_as_one(window: MainWindow) -> None:
    damage(window, "tom")
    window.undo_action.trigger()
    assert "Tom && Jerry" in window.redo_action.text()  # a literal &, not a mnemonic
    assert "Tom & Jerry" in window.redo_action.toolTip()
    assert "&&" not in window.redo_action.toolTip()


def test_a_window_deleted_with_steps_to_redo_calls_no_deleted_action(
    qtbot: QtBot, encounter: Encounter, tmp_path: Path
) -> None:
    """Deleting the window deletes its undo stack, which clears itself and says so: the
    Undo and Redo refreshes must not run on actions already gone (pytest-qt fails the test
    on an exception in a slot)."""
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(Document(encounter), settings=settings)
    window.show()
    qtbot.waitExposed(window)
    damage(window, "img")
    damage(window, "tom")
    window.undo_stack.undo()
    stack = window.undo_stack
    with qtbot.waitSignal(stack.destroyed, timeout=2000):
        window.close()
        window.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def test_a_window_shown_again_after_closing_still_names_its_steps(
    qtbot: QtBot, window: MainWindow
) -> None:
    window.close()
    window.show()
    qtbot.waitExposed(window)
    damage(window, "img")
    assert IMAGE_NAME in window.undo_action.text()
    window.undo_action.trigger()
    assert IMAGE_NAME in window.redo_action.text() and window.redo_action.isEnabled()
