"""The targeting card under gms-den says why a target is not flanked when an ally stands
opposite but can't attack it: the room's wall from (6, 0) to (6, 5) runs between the Goblin at
(5, 2) and the Cleric at (6, 2), so the Cleric has total cover and doesn't threaten."""

from __future__ import annotations

from pathlib import Path

from pytestqt.qtbot import QtBot

from battlemap.model.document import MoveCreature
from tests.rules.move_builders import room
from tests.ui.drag_helpers import open_window
from tests.ui.test_targeting import CLERIC, FIGHTER, GOBLIN, card, hover, placed


def test_an_ally_behind_the_wall_does_not_flank_and_the_card_says_why(
    qtbot: QtBot, tmp_path: Path
) -> None:
    encounter = placed(room(), fighter=(4, 2), goblin=(5, 2), cleric=(6, 2))
    window = open_window(qtbot, tmp_path, encounter.model_copy(update={"ruleset": "gms-den"}))
    window.scene.tokens[FIGHTER].setSelected(True)
    hover(window, (5.5, 2.5))
    facts = window.targeting.facts
    assert facts is not None and facts.flank is not None and not facts.flank.flanked
    assert "not flanked: Cleric opposite, total cover" in card(window)
    # Below the wall's end the Cleric reaches the Goblin: flanked.
    window.document.apply(MoveCreature(GOBLIN, (5, 2), (5, 6)))
    window.document.apply(MoveCreature(FIGHTER, (4, 2), (4, 6)))
    window.document.apply(MoveCreature(CLERIC, (6, 2), (6, 6)))
    hover(window, (5.5, 6.5))
    assert "flanked with Cleric" in card(window)
