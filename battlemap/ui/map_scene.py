"""The DM's scene: a view of the Document's encounter that redraws on every change."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSceneContextMenuEvent, QMenu

from battlemap.model.creature import snap_position
from battlemap.model.document import Change, Document, MoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.schema import Ruleset
from battlemap.ui import style
from battlemap.ui.background_item import BackgroundLayer
from battlemap.ui.map_layer import MapLayer
from battlemap.ui.plain_text import literal_menu
from battlemap.ui.plate_layout import spread_plates
from battlemap.ui.style import cell_to_scene, scene_to_cell
from battlemap.ui.token_image import TokenImages
from battlemap.ui.token_item import TokenItem
from battlemap.ui.token_state import TokenState, token_states
from battlemap.ui.undo import push
from battlemap.ui.unseen_marker import UnseenMarkers

MAP_MARGIN_CELLS = 2


class TokenDragHooks(Protocol):
    def move(self, creature_id: EntityId, pos: QPointF, modifiers: Qt.KeyboardModifier) -> None: ...

    def drop(self, creature_id: EntityId, pos: QPointF, modifiers: Qt.KeyboardModifier) -> bool: ...


class MapScene(QGraphicsScene):
    """Builds items from the model; token drops become ``MoveCreature`` commands.

    Signals:
        message(str): a short explanation for the status bar (e.g. why a drop was refused).
    """

    message = Signal(str)

    def __init__(self, document: Document, undo_stack: QUndoStack) -> None:
        super().__init__()
        self.document = document
        self.undo_stack = undo_stack
        self.setBackgroundBrush(style.OUTSIDE_MAP)
        self.tokens: dict[EntityId, TokenItem] = {}
        self.token_images = TokenImages(lambda: document.images)
        """The tokens' pictures, decoded once each (``token_image``)."""
        # Features add entries to a token's right-click menu: build(menu, creature_id).
        self.token_menu_builders: list[Callable[[QMenu, EntityId], None]] = []
        # And to the map's own menu, where no item took the right-click: build(menu, at).
        self.map_menu_builders: list[Callable[[QMenu, QPointF], None]] = []
        # Live drag feedback (battlemap.ui.drag): move(id, pos, modifiers) while a token is
        # dragged; drop(id, pos, modifiers) -> True when it handled the drop itself.
        self.drag_hooks: TokenDragHooks | None = None
        # What each token shows of its creature's state; the combat feature swaps in one
        # that knows the encounter's ruleset (bloodied is the ruleset's rule).
        self.token_states: Callable[[Encounter], dict[EntityId, TokenState]] = lambda encounter: (
            token_states(encounter, None)
        )
        # The encounter's ruleset (None: unknown); the combat feature swaps in the window's.
        self.ruleset_of: Callable[[Encounter], Ruleset | None] = lambda encounter: None
        self.map_layer = MapLayer(self)
        self.background_layer = BackgroundLayer(self, document)
        self._rebuild_map()
        self._sync_tokens()
        self.show_states()
        document.subscribe(self._on_change)
        self.unseen_markers = UnseenMarkers(self)  # after _on_change: it marks the tokens made

    def selected_creatures(self) -> list[EntityId]:
        """The creatures of the tokens selected on the map, in ``selectedItems()`` order
        (Qt's, not the order the DM clicked them: callers that need one sort it themselves).

        Only tokens count (a selected wall, light or region is not a creature); a token whose
        C++ item is already gone (the scene is emptying itself) is skipped.
        """
        return [
            item.creature_id
            for item in self.selectedItems()
            if shiboken6.isValid(item) and isinstance(item, TokenItem)
        ]

    # --- model -> items -------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if change.map:
            self._rebuild_map()
        if change.map:  # the cell size may have changed: every token's side with it
            self._sync_tokens()
        elif change.creatures:
            self._sync_tokens(change.creatures)
        if change.other or change.creatures or change.replaced or change.map:
            self.show_states()

    def show_states(self) -> None:
        """Show every token's turn, state and conditions (only changed ones redraw)."""
        states = self.token_states(self.document.encounter)
        relayout = False
        for creature_id, token in self.tokens.items():
            state = states.get(creature_id)
            if state is not None:
                before = token.state
                relayout |= state.marks != before.marks or state.acting != before.acting
                token.show_state(state)
        if relayout:  # the plates make way for the icons, and for the acting one's plate
            self._spread_plates()

    def _spread_plates(self) -> None:
        tokens = self.tokens.values()
        spread_plates(
            (token.plate for token in tokens),
            (token.conditions.sceneBoundingRect() for token in tokens if token.conditions.marks),
            first=next((token.plate for token in tokens if token.state.acting), None),
            tokens=(token.sceneBoundingRect() for token in tokens),
        )

    def _rebuild_map(self) -> None:
        encounter = self.document.encounter
        self.background_layer.sync(encounter.background)
        paper = self.background_layer.item is None
        self.map_layer.sync(
            encounter.grid, paper, encounter.terrain, encounter.obstacles, encounter.walls
        )
        margin = cell_to_scene(MAP_MARGIN_CELLS)
        grid = encounter.grid
        self.setSceneRect(
            QRectF(
                -margin,
                -margin,
                cell_to_scene(grid.width) + 2 * margin,
                cell_to_scene(grid.height) + 2 * margin,
            )
        )

    def _sync_tokens(self, changed: frozenset[EntityId] | None = None) -> None:
        """Add, remove and update token items to match the encounter's creatures.

        Args:
            changed: ids of the creatures to update; None updates every token (after a map
                change, or after a drop that may have carried other selected tokens along).
        """
        encounter = self.document.encounter
        cell_feet = encounter.grid.cell_feet
        present = {creature.id for creature in encounter.creatures}
        for creature_id in list(self.tokens):
            if creature_id not in present:
                self.removeItem(self.tokens.pop(creature_id))
        for creature in encounter.creatures:
            if changed is not None and creature.id not in changed:
                continue
            token = self.tokens.get(creature.id)
            if token is None:
                token = TokenItem(creature, cell_feet, self._on_token_dropped)
                self.tokens[creature.id] = token
                self.addItem(token)
            else:
                token.update_from(creature, cell_feet)
        self._spread_plates()

    # --- token context menu -------------------------------------------------

    def contextMenuEvent(self, event: QGraphicsSceneContextMenuEvent) -> None:
        token = next(
            (item for item in self.items(event.scenePos()) if isinstance(item, TokenItem)), None
        )
        if token is None:
            super().contextMenuEvent(event)
            if not event.isAccepted():
                self._map_menu(event)
            return
        menu = self.token_menu(token.creature_id)
        if not menu.isEmpty():
            menu.exec(event.screenPos())
        event.accept()

    def _map_menu(self, event: QGraphicsSceneContextMenuEvent) -> None:
        menu = QMenu()
        for build in self.map_menu_builders:
            build(menu, event.scenePos())
        if not menu.isEmpty():
            menu.exec(event.screenPos())
            event.accept()

    def token_menu(self, creature_id: EntityId) -> QMenu:
        """The right-click menu of a token: every feature's entries, names shown literally."""
        menu = QMenu()
        for build in self.token_menu_builders:
            build(menu, creature_id)
        literal_menu(menu)
        return menu

    # --- items -> commands ----------------------------------------------

    def _on_token_dropped(self, creature_id: EntityId, scene_pos: QPointF) -> None:
        token = self.tokens.get(creature_id)
        modifiers = token.drop_modifiers if token is not None else Qt.KeyboardModifier.NoModifier
        if self.drag_hooks is not None and self.drag_hooks.drop(creature_id, scene_pos, modifiers):
            self._sync_tokens()
            return
        encounter = self.document.encounter
        creature = encounter.creature(creature_id)
        step = creature.snap_step()
        x = snap_position(scene_to_cell(scene_pos.x()), step)
        y = snap_position(scene_to_cell(scene_pos.y()), step)
        side = creature.space_cells(encounter.grid.cell_feet)
        if (x, y) == (creature.x, creature.y):
            self._sync_tokens()
        elif not encounter.grid.contains_rect(x, y, side, side):
            self._sync_tokens()
            self.message.emit(f"{creature.name} can't be placed off the map.")
        else:
            push(
                self.undo_stack,
                self.document,
                MoveCreature(creature_id, (creature.x, creature.y), (x, y)),
            )
            self._sync_tokens()  # put back any other selected token the drag carried along
