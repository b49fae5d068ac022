"""From a stat block's action to the dialogs that play it: a save action pre-fills the Area
damage dialog (ability, DC, damage, half on a success) and sizes the Area template tool from
the action (a 60-ft cone; "within 10 ft" of the creature is placed centred on it at once);
a save without damage pre-fills the Saving throw dialog; a
legendary attack opens the attack dialog for the legendary creature, spending no action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QSpinBox

from battlemap.geometry.template_shape import TemplateShape
from battlemap.model.ids import EntityId
from battlemap.model.statblock_actions import AreaShape, SaveAction, SaveArea
from battlemap.rules.enums import Ability as RulesAbility
from battlemap.ui.tools.template import TemplateTool

if TYPE_CHECKING:
    from battlemap.ui.combat import CombatUi

_SHAPES = {
    AreaShape.CONE: TemplateShape.CONE,
    AreaShape.LINE: TemplateShape.LINE,
    AreaShape.CUBE: TemplateShape.CUBE,
    AreaShape.SPHERE: TemplateShape.CIRCLE,
    AreaShape.CYLINDER: TemplateShape.CIRCLE,
    AreaShape.AROUND: TemplateShape.CIRCLE,
}


def rules_ability(save: SaveAction) -> RulesAbility:
    """The save's ability as the saving-throw rows name it (``dex``...)."""
    return RulesAbility(save.ability.value[:3])


def template_size(area: SaveArea, space_feet: float) -> tuple[TemplateShape, int]:
    """The Area template for ``area``: "within 10 ft" of a creature is a circle reaching 10 ft
    past its space (``space_feet`` wide), centred on it."""
    shape = _SHAPES[area.shape]
    if area.shape is AreaShape.AROUND:
        return shape, int(area.size_feet + space_feet / 2)
    return shape, area.size_feet


class MonsterFlow:
    """Opens the dialogs for the Actions dock's stat-block actions."""

    def __init__(self, ui: CombatUi) -> None:
        self.ui = ui

    def template_tool(self) -> TemplateTool | None:
        tools = getattr(self.ui.window, "tools", None)
        tool = getattr(tools, "tools", {}).get("template") if tools is not None else None
        return tool if isinstance(tool, TemplateTool) else None

    def size_template(self, area: SaveArea, creature_id: EntityId) -> bool:
        """Make the Area template tool the active tool, shaped and sized for ``area``."""
        tool = self.template_tool()
        tools = getattr(self.ui.window, "tools", None)
        if tool is None or tools is None:
            return False
        creature = self.ui.session.encounter.creature(creature_id)
        shape, feet = template_size(area, creature.size.space_feet)
        tool.feet[shape] = feet
        tool.set_shape(shape)
        options = tool.options_widget()
        width = options.findChild(QSpinBox, "template-width")
        if shape is TemplateShape.LINE and width is not None:
            width.setValue(area.width_feet)  # through the box, so it shows the width
        tools.activate("template")
        if area.shape is AreaShape.AROUND:  # centred on the creature: nothing to place
            side = creature.space_cells(self.ui.session.encounter.grid.cell_feet)
            tool.place_around((creature.x + side / 2, creature.y + side / 2), creature_id)
        return True

    def open_save(self, creature_id: EntityId, save: SaveAction) -> None:
        """Pre-fill the area (with damage) or saving-throw (without) flow from ``save``."""
        name = self.ui.session.name(creature_id)
        where = f" ({save.area.text})" if save.area is not None else ""
        if save.damage:
            self.ui.area_dialog.prefill(save)
            failing = f"; a failure also means {save.on_failure}" if save.on_failure else ""
            if save.area is not None and self.size_template(save.area, creature_id):
                if save.area.shape is AreaShape.AROUND:
                    return  # placed and Area damage open: the dialog says the rest
                self.ui.session.reported.emit(
                    f"{name}: {save.name}{where}: place the template; the creatures it catches"
                    f" make the save in Area damage{failing}"
                )
                return
            self.ui.area_dialog.open_for_selection()
            return
        dialog = self.ui.save_dialog
        dialog.ability.setCurrentIndex(dialog.ability.findData(rules_ability(save)))
        dialog.dc.setValue(save.dc)
        dialog.open_for_selection()
        condition = dialog.condition.findData(save.on_failure) if save.on_failure else -1
        if condition >= 0:  # the ruleset has it, and a combat is running
            dialog.condition.setCurrentIndex(condition)
        self.ui.session.reported.emit(
            f"{name}: {save.name}{where}: select the creatures in the area, then Use selected"
        )

    def open_attack(self, creature_id: EntityId, attack_name: str) -> None:
        """The attack dialog for ``creature_id``'s ``attack_name``, spending no action (a
        legendary action's attack)."""
        dialog = self.ui.attack_dialog
        dialog.open_for("", attacker=creature_id)
        dialog.choose_attack(attack_name)
