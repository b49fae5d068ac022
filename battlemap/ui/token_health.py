"""The DM chooses, per creature, what the players' window shows of its health: nothing, its
state (bloodied, down, dead) or a ring of the hit points left without numbers (right-click >
Players see health). One undo step, saved with the creature (``Creature.health_shown``)."""

from __future__ import annotations

from PySide6.QtGui import QActionGroup
from PySide6.QtWidgets import QMenu

from battlemap.model.ids import EntityId
from battlemap.model.traits import HealthShown
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.undo import push_creature_update

MENU_TEXT = "Players see health"
CHOICES = {
    HealthShown.NONE: "Nothing",
    HealthShown.STATE: "Its state (bloodied, down)",
    HealthShown.RING: "A ring of hit points left",
}


class TokenHealth:
    """Adds the players' health choice to every token's right-click menu."""

    def __init__(self, window: FeatureWindow) -> None:
        self.window = window
        window.scene.token_menu_builders.append(self.build)

    def build(self, menu: QMenu, creature_id: EntityId) -> None:
        shown = self.window.document.encounter.creature(creature_id).health_shown
        choices = menu.addMenu(MENU_TEXT)
        group = QActionGroup(choices)
        for value, text in CHOICES.items():
            action = choices.addAction(text)
            action.setCheckable(True)
            action.setChecked(value is shown)
            group.addAction(action)
            action.triggered.connect(lambda _on=False, v=value: self.set(creature_id, v))

    def set(self, creature_id: EntityId, shown: HealthShown) -> None:
        push_creature_update(
            self.window.undo_stack,
            self.window.document,
            creature_id,
            lambda c: f"Players see {c.name}'s health: {CHOICES[shown].lower()}",
            health_shown=shown,
        )


def install(window: FeatureWindow) -> TokenHealth:
    return TokenHealth(window)
