"""Names from files or typed by the DM are shown literally on both windows (issue 18).

A creature named ``<img src=...>`` loaded a local image onto the players' TV through the
banner. These tests walk every label, tooltip, menu entry and scene item of both windows in
a running combat with hostile names and check that Qt would show each name as it is.
"""

from __future__ import annotations

import html
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex
from PySide6.QtCore import Qt as CoreQt
from PySide6.QtGui import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QGroupBox,
    QLabel,
    QWidget,
)
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Grid, Obstacle, Side
from battlemap.model.document import ReplaceEncounterField
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.rests import RestType
from battlemap.ui.main_window import MainWindow
from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip
from tests.ui.players_helpers import open_players
from tests.ui.test_combat_docks import select, start

IMAGE_NAME = '<img src="/tmp/battlemap-secret.png">'
BOLD_NAME = "<b>Bold</b> Orc"
ENTITY_NAME = "Tom &amp; Jerry"
CRATE_NAME = "<b>Crate</b> &amp;"
MONSTER_NAME = "<i>Goblin</i> &amp; co"
HOSTILE_NAMES = (IMAGE_NAME, BOLD_NAME, ENTITY_NAME, CRATE_NAME, MONSTER_NAME)


@pytest.fixture
def encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=10, height=6),
        creatures=(
            Creature(id="tom", name=ENTITY_NAME, side=Side.PARTY, x=1, y=1, hp=9, max_hp=12),
            Creature(id="img", name=IMAGE_NAME, side=Side.HOSTILE, x=4, y=1),
            Creature(id="bold", name=BOLD_NAME, side=Side.HOSTILE, x=6, y=3),
        ),
        obstacles=(Obstacle(name=CRATE_NAME, points=[(8, 4), (9, 4), (9, 5)]),),
    )


def shown_as_rich(text: str, text_format: CoreQt.TextFormat) -> bool:
    """Whether a label in ``text_format`` shows ``text`` as markup (Qt's own rule)."""
    if text_format is CoreQt.TextFormat.AutoText:
        return Qt.mightBeRichText(text)
    return text_format in (CoreQt.TextFormat.RichText, CoreQt.TextFormat.MarkdownText)


def model_cells(model: QAbstractItemModel, parent: QModelIndex | None = None) -> list[QModelIndex]:
    """Every cell of ``model`` under ``parent``, a tree's children too."""
    parent = parent or QModelIndex()
    cells = []
    list_model = isinstance(model, QAbstractListModel)  # its columnCount is private
    for row in range(model.rowCount(parent)):
        for column in range(1 if list_model else model.columnCount(parent)):
            cell = model.index(row, column, parent)
            cells.append(cell)
            if column == 0 and model.rowCount(cell):
                cells += model_cells(model, cell)
    return cells


def texts(window: MainWindow) -> Iterator[tuple[str, str, str]]:
    """(where, kind, text) for every text Qt shows on both windows: labels with their
    format, tooltips, menu and button texts (mnemonics), tree cells' tooltips, scene items."""
    yield from widget_texts(window, window.players.window, *QApplication.topLevelWidgets())
    for scene in (window.scene, window.players.window.scene):
        for item in scene.items():
            yield type(item).__name__, "tooltip", item.toolTip()


def widget_texts(*tops: QWidget) -> Iterator[tuple[str, str, str]]:
    """``texts`` of the widgets ``tops`` and all inside them."""
    widgets: list[QWidget] = []
    for top in tops:
        widgets += [top, *top.findChildren(QWidget)]
    for widget in dict.fromkeys(widgets):
        where = f"{type(widget).__name__} {widget.objectName()}"
        yield where, "tooltip", widget.toolTip()
        if isinstance(widget, QLabel):
            rich = shown_as_rich(widget.text(), widget.textFormat())
            yield where, "rich" if rich else "plain", widget.text()
        if isinstance(widget, QAbstractButton | QGroupBox):
            title = widget.title() if isinstance(widget, QGroupBox) else widget.text()
            yield where, "mnemonic", title
        if isinstance(widget, QAbstractItemView) and widget.model() is not None:
            for cell in model_cells(widget.model()):  # cells show plain text, tooltips not
                yield where, "plain", str(cell.data(CoreQt.ItemDataRole.DisplayRole) or "")
                yield where, "tooltip", str(cell.data(CoreQt.ItemDataRole.ToolTipRole) or "")
        for action in widget.actions():
            yield f"{where} action", "mnemonic", action.text()
            yield f"{where} action", "tooltip", action.toolTip()


def misread(kind: str, text: str, name: str) -> bool:
    """Whether Qt would show ``name`` inside ``text`` other than literally."""
    if name not in text:
        return False
    if kind == "rich":
        return True
    if kind == "tooltip":
        return Qt.mightBeRichText(text)
    return kind == "mnemonic" and "&" in name


def misread_names(window: MainWindow) -> list[tuple[str, str, str]]:
    return [
        (where, kind, text)
        for where, kind, text in texts(window)
        for name in HOSTILE_NAMES
        if misread(kind, text, name)
    ]


def test_the_helpers_keep_text_literal() -> None:
    assert plain_tooltip("Orc, AC 13") == "Orc, AC 13"  # Qt shows it as it is already
    tip = plain_tooltip(f"{IMAGE_NAME} moves\nsecond line")
    assert Qt.mightBeRichText(tip) and "<img" not in tip and "&lt;img" in tip
    assert literal_mnemonics("Remove Tom & Jerry") == "Remove Tom && Jerry"


def test_hostile_names_show_literally_on_both_windows_in_a_combat(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.library_dock.add_monsters([StatBlock(name=MONSTER_NAME, hit_points=7)])
    window.library_dock.select(MONSTER_NAME)
    open_players(window, qtbot)
    window.combat.session.seed_source = lambda: 11
    start(window, qtbot)
    menus = []  # kept alive while the windows are walked
    for turn in range(3):  # each creature's turn: the docks name it, the attack dialog too
        acting = window.document.encounter.combat.current.creature_id  # type: ignore[union-attr]
        target = next(cid for cid in ("img", "tom") if cid != acting)
        select(window, target)
        window.combat.attack_dialog.open_for(target=target)  # type: ignore[arg-type]
        menus += [window.scene.token_menu(cid) for cid in ("tom", "img", "bold")]  # type: ignore[arg-type]
        assert misread_names(window) == [], f"turn {turn}"
        window.combat.attack_dialog.close()
        window.combat.initiative.next_turn()
    banner = window.players.window.banner
    assert banner.textFormat() is CoreQt.TextFormat.PlainText
    acting = window.document.encounter.combat.current.creature_id  # type: ignore[union-attr]
    name = window.document.encounter.creature(acting).name
    assert banner.text() == f"Round 2 — {name}'s turn"
    strip = window.players.window.strip.text()
    assert all(name in strip for name in (IMAGE_NAME, BOLD_NAME, ENTITY_NAME))
    everywhere = [text for _, _, text in texts(window)]
    for name in HOSTILE_NAMES:  # each is shown: as it is, or escaped in rich text
        assert any(name in text or html.escape(name) in text for text in everywhere), name


def test_hostile_names_show_literally_in_the_save_area_and_rest_dialogs(
    window: MainWindow,
) -> None:
    window.document.apply(ReplaceEncounterField("ruleset", "srd-5e", "bloodied-brink"))  # rests
    everyone = ["tom", "img", "bold"]
    assert window.combat.save_dialog is not None
    window.combat.save_dialog.open_for(everyone)  # type: ignore[arg-type]
    window.scene.clearSelection()
    for creature_id in everyone:
        window.scene.tokens[EntityId(creature_id)].setSelected(True)
    window.combat.area_dialog.open_for_selection()
    rest = window.combat.rest_dialog
    assert rest is not None and rest.open_for(RestType.SHORT, everyone)  # type: ignore[arg-type]
    assert misread_names(window) == []
    for dialog in (window.combat.save_dialog, window.combat.area_dialog, rest):
        assert dialog is not None
        assert dialog.isVisible()
        shown = [text for _, _, text in widget_texts(dialog)]
        assert any(IMAGE_NAME in text or html.escape(IMAGE_NAME) in text for text in shown)
