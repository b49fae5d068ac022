"""initiative.manual_reorder: false (a DM's ruleset) refuses dragging a row of the Initiative
dock: the order stays, the list snaps back and the status bar says why. srd-5e lets the DM
reorder ("Initiative": the DM and the players order ties), see test_combat_docks.py."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings
from pytestqt.qtbot import QtBot

from tests.ui.test_combat_docks import make_window, start


def test_a_ruleset_without_manual_reorder_refuses_the_drag(qtbot: QtBot, tmp_path: Path) -> None:
    window = make_window(qtbot, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    rules = tmp_path / "rulesets"
    rules.mkdir()
    (rules / "fixed.yaml").write_text(
        "schema_version: 1\nextends: srd-5e\nname: Fixed order\n"
        "initiative:\n  manual_reorder: false\n",
        encoding="utf-8",
    )
    window.rulesets.user_dir = rules
    window.rulesets.reload()
    window.rulesets.choose("fixed")
    start(window, qtbot)
    tree = window.combat.initiative.tree
    assert window.document.encounter.combat is not None
    order = [s.creature_id for s in window.document.encounter.combat.order]
    undo_steps = window.undo_stack.count()
    # What a drag does: Qt moves the row, then the tree reports the new order.
    last_row = tree.takeTopLevelItem(tree.topLevelItemCount() - 1)
    assert last_row is not None
    tree.insertTopLevelItem(0, last_row)
    tree.reordered.emit(tree.ids())
    assert window.document.encounter.combat is not None
    assert [s.creature_id for s in window.document.encounter.combat.order] == order
    assert tree.ids() == order  # the list shows the engine's order again
    assert window.undo_stack.count() == undo_steps
    message = window.statusBar().currentMessage()
    assert message == "Not allowed: Fixed order: the DM can't reorder turns"
