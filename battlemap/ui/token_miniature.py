"""Miniatures mode per creature (issue 20): right-click > Miniature on the table. A physical
miniature stands on the flat TV where the creature is, so the players' window draws no token
there; the creature keeps its plate, its place in the initiative strip and its sight. One undo
step, saved with the creature (``Creature.miniature``)."""

from __future__ import annotations

from PySide6.QtWidgets import QMenu

from battlemap.model.ids import EntityId
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.undo import push_creature_update

MENU_TEXT = "Miniature on the table"
STATUS_TIP = "A physical miniature stands here: the players' window draws no token for it"


class TokenMiniature:
    """Adds the miniature toggle to every token's right-click menu."""

    def __init__(self, window: FeatureWindow) -> None:
        self.window = window
        window.scene.token_menu_builders.append(self.build)

    def build(self, menu: QMenu, creature_id: EntityId) -> None:
        creature = self.window.document.encounter.creature(creature_id)
        action = menu.addAction(MENU_TEXT)
        action.setCheckable(True)
        action.setChecked(creature.miniature)
        action.setStatusTip(STATUS_TIP)
        action.toggled.connect(lambda on: self.set(creature_id, on))

    def set(self, creature_id: EntityId, miniature: bool) -> None:
        push_creature_update(
            self.window.undo_stack,
            self.window.document,
            creature_id,
            lambda c: f"{c.name}: {'a miniature' if miniature else 'a token'} on the table",
            miniature=miniature,
        )


def install(window: FeatureWindow) -> TokenMiniature:
    return TokenMiniature(window)
