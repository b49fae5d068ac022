"""The DM's lights: right-click the map to add a torch, a lantern or a light of any radii;
drag a light to move it; right-click it to remove it; right-click a token to have it carry a
torch (the light moves with it) or to put it down. Each is one undo step, saved with the
encounter (``Encounter.lights``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QMenu, QWidget

from battlemap.geometry.illumination import light_centre
from battlemap.model.document import Change, Command
from battlemap.model.encounter import Encounter
from battlemap.model.features import Light, Point
from battlemap.model.ids import EntityId
from battlemap.model.light_commands import (
    AddLight,
    RemoveLight,
    ReplaceLight,
    light_index,
    light_of_feet,
    torch,
)
from battlemap.model.limits import MAX_LIGHT_RANGE_CELLS
from battlemap.model.map_commands import CommandGroup
from battlemap.ui.feature_window import FeatureWindow
from battlemap.ui.light_items import LightLayer
from battlemap.ui.style import scene_to_cell
from battlemap.ui.undo import push

LANTERN_BRIGHT_FEET = LANTERN_DIM_FEET = 30.0
"""A hooded lantern (the rules documents): bright light in a 30-foot radius and dim light for
an additional 30 feet."""
CARRY_TEXT = "Carry a torch"
DROP_TEXT = "Put the torch down"
DOUSE_TEXT = "Put out the torch"
REMOVE_TEXT = "Remove light"

AskRadii = Callable[[QWidget, float], tuple[float, float] | None]
"""Asks the DM for a light's bright and dim feet (given the cell's feet); None: cancelled."""


def ask_radii(parent: QWidget, cell_feet: float) -> tuple[float, float] | None:
    """A small dialog: bright light (feet) and dim light beyond it (feet)."""
    dialog = QDialog(parent)
    dialog.setWindowTitle("Add light")
    most = MAX_LIGHT_RANGE_CELLS * cell_feet / 2
    boxes = []
    for start in (20.0, 20.0):
        box = QDoubleSpinBox(dialog)
        box.setRange(0, most)
        box.setDecimals(1)
        box.setSingleStep(5)
        box.setSuffix(" ft")
        box.setValue(start)
        boxes.append(box)
    form = QFormLayout(dialog)
    form.addRow("&Bright light, radius:", boxes[0])
    form.addRow("&Dim light, beyond it:", boxes[1])
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form.addRow(buttons)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return boxes[0].value(), boxes[1].value()


def drop_orphaned_lights(before: Encounter, after: Encounter) -> Command | None:
    """The lights a removed creature carried, put down where it stood (part of the removal's
    undo step), or None."""
    gone = {c.id for c in before.creatures} - {c.id for c in after.creatures}
    orphans = [light for light in after.lights if light.carried_by in gone]
    if not orphans:
        return None
    dropped: list[Command] = [
        ReplaceLight(
            light,
            light.model_copy(update={"carried_by": None, "position": light_centre(light, before)}),
        )
        for light in orphans
    ]
    return dropped[0] if len(dropped) == 1 else CommandGroup(tuple(dropped), text="Put down")


class LightActions:
    """The map's and the tokens' light entries, and the lights drawn on the DM's map."""

    def __init__(self, window: FeatureWindow, ask: AskRadii = ask_radii) -> None:
        self.window = window
        self.ask = ask
        """Asks for a custom light's radii (tests hand in their own)."""
        self.layer = LightLayer(window.scene, self.move)
        window.scene.map_menu_builders.append(self.build_map_menu)
        window.scene.token_menu_builders.append(self.build_token_menu)
        window.document.subscribe(self._on_change)
        window.document.follow_ups.append(drop_orphaned_lights)
        self.layer.sync(window.document.encounter)

    def _on_change(self, change: Change) -> None:
        if change.map or change.creatures or change.replaced:
            self.layer.sync(self.window.document.encounter)

    def _push(self, command: Command) -> None:
        push(self.window.undo_stack, self.window.document, command)

    # --- the map's menu ---------------------------------------------------------

    def build_map_menu(self, menu: QMenu, scene_pos: QPointF) -> None:
        item = self.layer.light_at(scene_pos)
        if item is not None:
            light_id = item.light_id
            menu.addAction(REMOVE_TEXT, lambda: self.remove(light_id))
            return
        at = (scene_to_cell(scene_pos.x()), scene_to_cell(scene_pos.y()))
        menu.addAction("Add a torch here", lambda: self.add_torch(at))
        menu.addAction("Add a lantern here", lambda: self.add_lantern(at))
        menu.addAction("Add a light here…", lambda: self.add_custom(at))

    def add_torch(self, at: Point) -> None:
        self._push(AddLight(torch(at, self._cell_feet()), text="Add torch"))

    def add_lantern(self, at: Point) -> None:
        lantern = light_of_feet(
            at, LANTERN_BRIGHT_FEET, LANTERN_DIM_FEET, self._cell_feet(), "lantern"
        )
        self._push(AddLight(lantern, text="Add lantern"))

    def add_custom(self, at: Point) -> None:
        radii = self.ask(self.window, self._cell_feet())
        if radii is not None:
            self._push(AddLight(light_of_feet(at, *radii, self._cell_feet())))

    def move(self, light_id: EntityId, to: Point) -> None:
        """Put the light at ``to`` (cells): a light whose carrier has left the map is
        nobody's once the DM moves it."""
        light = self._light(light_id)
        if light.position != to:
            moved = light.model_copy(update={"position": to, "carried_by": None})
            self._push(ReplaceLight(light, moved, text=f"Move {light.name}"))

    def remove(self, light_id: EntityId) -> None:
        self._push(RemoveLight.of(self.window.document.encounter, light_id))

    # --- a token's menu ------------------------------------------------------------

    def build_token_menu(self, menu: QMenu, creature_id: EntityId) -> None:
        menu.addSeparator()
        carried = self.carried_by(creature_id)
        if carried is None:
            menu.addAction(CARRY_TEXT, lambda: self.carry_torch(creature_id))
            return
        light_id = carried.id
        menu.addAction(DROP_TEXT, lambda: self.put_down(light_id))
        menu.addAction(DOUSE_TEXT, lambda: self.remove(light_id))

    def carried_by(self, creature_id: EntityId) -> Light | None:
        """The first light ``creature_id`` carries, or None."""
        lights = self.window.document.encounter.lights
        return next((light for light in lights if light.carried_by == creature_id), None)

    def carry_torch(self, creature_id: EntityId) -> None:
        encounter = self.window.document.encounter
        name = encounter.creature(creature_id).name
        lit = torch((0.0, 0.0), self._cell_feet(), carried_by=creature_id)
        placed = lit.model_copy(update={"position": light_centre(lit, encounter)})
        self._push(AddLight(placed, text=f"{name} carries a torch"))

    def put_down(self, light_id: EntityId) -> None:
        """The light stays where its carrier stands now, carried by nobody."""
        encounter = self.window.document.encounter
        light = self._light(light_id)
        dropped = light.model_copy(
            update={"carried_by": None, "position": light_centre(light, encounter)}
        )
        self._push(ReplaceLight(light, dropped, text=f"Put down the {light.name}"))

    def _light(self, light_id: EntityId) -> Light:
        encounter = self.window.document.encounter
        return encounter.lights[light_index(encounter, light_id)]

    def _cell_feet(self) -> float:
        return self.window.document.encounter.grid.cell_feet


def install(window: FeatureWindow) -> LightActions:
    return LightActions(window)
