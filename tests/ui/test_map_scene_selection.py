"""``MapScene.selected_creatures``: the one lookup of "the creatures selected on the map"
that the docks and dialogs share (Use selected, targets, the Creature panel, ...)."""

from __future__ import annotations

from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem

from battlemap.model.ids import EntityId
from battlemap.ui.main_window import MainWindow


def test_every_selected_token_comes_back_once(window: MainWindow) -> None:
    scene = window.scene
    scene.clearSelection()
    scene.tokens[EntityId("c-large")].setSelected(True)
    scene.tokens[EntityId("c-tiny")].setSelected(True)
    chosen = scene.selected_creatures()
    assert sorted(chosen) == [EntityId("c-large"), EntityId("c-tiny")]


def test_a_selected_item_that_is_not_a_token_is_not_a_creature(window: MainWindow) -> None:
    scene = window.scene
    scene.clearSelection()
    other = QGraphicsRectItem(0, 0, 10, 10)
    other.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
    scene.addItem(other)
    other.setSelected(True)
    scene.tokens[EntityId("c-medium")].setSelected(True)
    assert scene.selected_creatures() == [EntityId("c-medium")]
    scene.removeItem(other)


def test_nothing_selected_is_an_empty_list(window: MainWindow) -> None:
    window.scene.clearSelection()
    assert window.scene.selected_creatures() == []
