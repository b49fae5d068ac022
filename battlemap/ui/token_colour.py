"""The DM picks a token's colour (right-click > Token colour…): one undo step, saved with the
creature (``Creature.colour``), drawn on both windows; "Side colour" goes back to the side's."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QColor
from PySide6.QtWidgets import QColorDialog, QMenu, QWidget

from battlemap.model.creature import Creature
from battlemap.model.document import UpdateCreature
from battlemap.model.ids import EntityId
from battlemap.ui import style
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.undo import push

PICK_TEXT = "Token colour…"
RESET_TEXT = "Side colour"

ColourPicker = Callable[[QColor, QWidget, str], QColor | None]


def ask_colour(start: QColor, parent: QWidget, title: str) -> QColor | None:
    """Qt's colour dialog; None when the DM cancels."""
    chosen = QColorDialog.getColor(start, parent, title)
    return chosen if chosen.isValid() else None


def recoloured(creature: Creature, colour: str | None) -> UpdateCreature | None:
    """The command giving ``creature`` ``colour`` (None: its side's), or None if unchanged."""
    if colour is not None:
        colour = colour.lower()
    if colour == creature.colour:
        return None
    text = f"Colour of {creature.name}" if colour else f"{creature.name}: side colour"
    return UpdateCreature(creature, creature.model_copy(update={"colour": colour}), text=text)


class TokenColours:
    """Adds the colour entries to every token's right-click menu."""

    def __init__(self, window: FeatureWindow, pick: ColourPicker = ask_colour) -> None:
        self.window = window
        self.pick = pick
        """Asks the DM for a colour (tests hand in their own)."""
        window.scene.token_menu_builders.append(self.build)

    def build(self, menu: QMenu, creature_id: EntityId) -> None:
        menu.addSeparator()
        menu.addAction(PICK_TEXT, lambda: self.choose(creature_id))
        creature = self.window.document.encounter.creature(creature_id)
        if creature.colour is not None:
            menu.addAction(RESET_TEXT, lambda: self.set(creature_id, None))

    def choose(self, creature_id: EntityId) -> None:
        creature = self.window.document.encounter.creature(creature_id)
        start = QColor(creature.colour or style.SIDE_COLOURS[creature.side].name())
        chosen = self.pick(start, self.window, f"Colour of {creature.name}")
        if chosen is not None:
            self.set(creature_id, chosen.name())

    def set(self, creature_id: EntityId, colour: str | None) -> None:
        command = recoloured(self.window.document.encounter.creature(creature_id), colour)
        if command is not None:
            push(self.window.undo_stack, self.window.document, command)


def install(window: FeatureWindow) -> TokenColours:
    return TokenColours(window)
