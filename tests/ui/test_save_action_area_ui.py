"""Save actions through the Area damage flow (issue 16): "each creature within 10 ft. of the
dragon" is placed centred on it at once (the SRD Adult Red Dragon's Wing Attack), every damage
part is pre-filled (two for a burst of fire and radiant), and the damage type is the
action's; a type the ruleset hasn't is said, not swapped for another."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from pytestqt.qtbot import QtBot

from battlemap.geometry.templates import TemplateShape
from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model import Creature, Document, Encounter, Grid, Side
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Ability, Damage
from battlemap.model.statblock_actions import AreaShape, SaveAction, SaveArea
from battlemap.resources import asset_path
from battlemap.ui.main_window import MainWindow
from battlemap.ui.tools.template import TemplateTool
from tests.ui.test_combat_docks import click

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)
SRD = {block.name: block for block in load_library(asset_path("srd-monsters.json")).monsters}
DRAGON, HERO, FAR = EntityId("c-dragon"), EntityId("c-hero"), EntityId("c-far")
BURST = SaveAction(
    name="Searing Burst",
    ability=Ability.DEX,
    dc=23,
    damage=(Damage(dice="4d6", type="fire"), Damage(dice="4d6", type="radiant")),
    area=SaveArea(shape=AreaShape.AROUND, size_feet=10),
)


def _window(qtbot: QtBot, tmp_path: Path, ruleset: str = "srd-5e") -> MainWindow:
    dragon = creature_from_statblock(SRD["Adult Red Dragon"], position=(3, 2))  # cells 3-5
    dragon = dragon.model_copy(update={"id": DRAGON})
    hero = Creature(id=HERO, name="Hero", side=Side.PARTY, x=6, y=3, hp=60, max_hp=60)
    far = Creature(id=FAR, name="Far", side=Side.PARTY, x=14, y=3, hp=60, max_hp=60)
    encounter = Encounter(
        grid=Grid(width=20, height=10), creatures=(dragon, hero, far), ruleset=ruleset
    )
    window = MainWindow(
        Document(encounter), settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    )
    qtbot.addWidget(window)
    window.resize(1366, 768)
    window.show()
    qtbot.waitExposed(window)
    return window


def _wing_attack() -> SaveAction:
    legendary = SRD["Adult Red Dragon"].legendary
    assert legendary is not None
    save = next(a.save for a in legendary.actions if a.name == "Wing Attack")
    assert save is not None
    return save


def test_within_10_ft_is_placed_centred_on_the_dragon(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path)
    flow = window.combat.actions.monster.flow
    assert flow is not None
    flow.open_save(DRAGON, _wing_attack())
    tool = window.tools.tools["template"]
    assert isinstance(tool, TemplateTool) and tool.template is not None
    assert tool.template.shape is TemplateShape.CIRCLE
    assert tool.template.origin == (4.5, 3.5) and tool.template.size_feet == 17  # 10 + 15/2
    area = window.combat.area_dialog
    assert area.isVisible()
    listed = {
        area.targets.item(i).data(Qt.ItemDataRole.UserRole) for i in range(area.targets.count())
    }
    assert listed == {str(HERO)}  # not the dragon itself, not the far one
    assert area.dc.value() == 22 and area.dice.text() == "2d6+8"
    assert area.damage_type.currentData() == "bludgeoning" and area.more_parts == []


def test_every_damage_part_is_prefilled_and_dealt(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path)
    flow = window.combat.actions.monster.flow
    assert flow is not None
    flow.open_save(DRAGON, BURST)
    area = window.combat.area_dialog
    assert (area.dice.text(), area.damage_type.currentData()) == ("4d6", "fire")
    (second,) = area.more_parts
    assert (second.dice.text(), second.type_key) == ("4d6", "radiant")
    area.typed.setValue(10)
    click(qtbot, area.apply_button)
    assert "every damage part" in area.outcome_label.text()  # one typed, one not
    second.typed.setValue(12)
    click(qtbot, area.apply_button)  # the hero didn't save: 10 fire + 12 radiant
    assert window.document.encounter.creature(HERO).hp == 60 - 22
    assert "Area damage (4d6 fire + 4d6 radiant)" in window.undo_stack.undoText()
    area.close()
    area.open_for_selection()  # by hand: one part again
    assert area.more_parts == []


def test_a_type_the_ruleset_lacks_is_said_not_swapped(qtbot: QtBot, tmp_path: Path) -> None:
    window = _window(qtbot, tmp_path, "final-fantasy-d20")  # blunt, not bludgeoning
    flow = window.combat.actions.monster.flow
    assert flow is not None
    flow.open_save(DRAGON, _wing_attack())
    area = window.combat.area_dialog
    assert "no damage type 'bludgeoning' in this ruleset: choose one" in (area.outcome_label.text())
