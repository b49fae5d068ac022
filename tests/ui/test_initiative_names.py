"""Issue 15 item 7: a long status ("dying 0✓ 0✗, unconscious, prone") no longer squeezes the
Initiative dock's names to "..."; the status elides (its full text in the tooltip), on a
1366 x 768 laptop, and again after the file is saved and reopened."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSettings
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QTreeWidgetItem
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Document, Side
from battlemap.model.combat import ActiveCondition, Combatant, DeathState
from battlemap.model.ids import EntityId
from battlemap.ui import window_layout
from battlemap.ui.combat.initiative_dock import OrderTree
from battlemap.ui.main_window import MainWindow
from tests.ui.token_helpers import in_combat

SELA = "Sela Brightwater"
CAPTAIN = "Hobgoblin Captain"


def encounter_with_a_long_status() -> Document:
    sela = Creature(id=EntityId("sela"), name=SELA, side=Side.PARTY, x=1, y=1, hp=0, max_hp=22)
    captain = Creature(id=EntityId("cap"), name=CAPTAIN, x=4, y=1, hp=39, max_hp=39)
    down = Combatant(
        creature_id=sela.id,
        group="sela",
        initiative=14,
        death=DeathState(),
        conditions=(ActiveCondition(name="unconscious"), ActiveCondition(name="prone")),
    )
    waiting = Combatant(creature_id=captain.id, group="cap", initiative=12)
    return Document(in_combat((sela, captain), (waiting, down), turn_index=0))


def laptop_window(qtbot: QtBot, document: Document, settings: QSettings) -> MainWindow:
    window = MainWindow(document, settings=settings)
    qtbot.addWidget(window)
    window_layout.fit_to_screen(window, QRect(0, 0, 1366, 768 - 32))
    window.show()
    qtbot.waitExposed(window)
    QApplication.processEvents()
    return window


def row_items(tree: OrderTree) -> list[QTreeWidgetItem]:
    items = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    return [item for item in items if item is not None]


def assert_names_readable(tree: OrderTree) -> None:
    bold = QFont(tree.font())
    bold.setBold(True)
    metrics = QFontMetrics(bold)
    texts = {item.text(1): item for item in row_items(tree)}
    assert set(texts) == {f"▶ {CAPTAIN}", SELA}
    width = tree.header().sectionSize(1)
    for text in texts:
        assert metrics.horizontalAdvance(text) <= width, (text, width)
    sela = texts[SELA]
    status = sela.text(3)
    assert status.startswith("dying") and "unconscious" in status and "prone" in status
    assert sela.toolTip(3) == status  # the whole status, whatever the column shows
    shown = tree.visualItemRect(sela)
    assert shown.width() <= tree.viewport().width()  # no sideways scrolling to read it


def test_a_long_status_leaves_the_names_readable(
    qtbot: QtBot, settings: QSettings, tmp_path: Path
) -> None:
    window = laptop_window(qtbot, encounter_with_a_long_status(), settings)
    tree = window.combat.initiative.tree
    status_width = QFontMetrics(tree.font()).horizontalAdvance(row_items(tree)[1].text(3))
    assert tree.header().sectionSize(3) < status_width  # it would not fit: it elides
    assert_names_readable(tree)
    path = tmp_path / "long-status.battlemap"
    assert window.files.save_to(path)
    window.close()
    reopened = laptop_window(qtbot, Document(window.document.encounter), settings)
    assert reopened.files.open_path(path)
    QApplication.processEvents()
    assert_names_readable(reopened.combat.initiative.tree)
