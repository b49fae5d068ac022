"""Issue 15 #4 under bloodied-brink, at 1366 x 768: the same table (4 player characters, 6
monsters, the Dungeondraft map), the ruleset chosen from the Rules menu, and a player
character on the Brink of Death choosing on the decision card, everything the fight waits on
shown without scrolling. bloodied-brink's rules (../shared/rules-sources/bloodied-brink.txt):
a natural 1 on a death save puts the character on the Brink at once; Sentence is a DC 13
Wisdom save; at or below half its hit points a creature is Bloodied."""

from __future__ import annotations

from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from battlemap.rules.enums import BrinkOption
from battlemap.ui.token_state import Vital
from tests.ui.session import fight_steps, setup_steps
from tests.ui.session.table import Table
from tests.ui.session.test_whole_fight import SCREENS, TYPED_INITIATIVE
from tests.ui.session_helpers import user_folders  # noqa: F401 (autouse fixture)
from tests.ui.test_turn_controls_fold import unfolded

pytestmark = pytest.mark.qt_log_ignore("This plugin does not support", extend=True)
BRINK_TITLE = "Bloodied & Brink (bloodied-brink)"


def choose_ruleset(table: Table, title: str) -> None:
    """Rules > the ruleset's entry (its "&" shown as typed); the summary box closed."""
    rules = table.window.rulesets
    rules.menu.aboutToShow.emit()
    entry = next(a for a in rules.menu.actions() if a.text().replace("&&", "&") == title)
    assert entry.isEnabled()
    table.used.append(f"Rules: {title}")
    entry.trigger()
    summary = rules.summary
    assert summary is not None and "What changes" in summary.text()
    summary.close()


def pass_until(table: Table, name: str) -> None:
    """End each turn until it is ``name``'s (at most once round the order)."""
    for _ in range(len(table.window.document.encounter.creatures)):
        if table.turn_of() == name:
            return
        fight_steps.end_turn(table)
    assert table.turn_of() == name


def test_a_character_on_the_brink_of_death_chooses_on_its_card(
    qtbot: QtBot, tmp_path: Path
) -> None:
    table = setup_steps.set_up_the_table(qtbot, tmp_path, SCREENS["laptop"])
    window = table.window
    choose_ruleset(table, BRINK_TITLE)
    assert window.document.encounter.ruleset == "bloodied-brink"
    setup_steps.roll_initiative(table, TYPED_INITIATIVE)
    pass_until(table, "Brakka")
    table.drag("Brakka", (5, 4))
    fight_steps.attack(table, "Goblin 1", d20=15, damage=4, attacker="Brakka")
    assert table.hp("Goblin 1") == 3 and table.badge("Goblin 1").bloodied  # 3 of 7
    fight_steps.attack(table, "Goblin 1", d20=16, damage=5)
    fight_steps.close_dialog(table)
    assert table.vital("Goblin 1") is Vital.DEAD
    pass_until(table, "Ogre 1")
    table.drag("Ogre 1", (2, 4))
    fight_steps.attack(table, "Sela", d20=14, damage=13, attacker="Ogre 1")
    fight_steps.close_dialog(table)
    assert table.hp("Sela") == 0 and table.vital("Sela") is Vital.DYING
    card = window.combat.card
    pass_until(table, "Brakka")  # round 2: Sela's death save is due as Brakka's turn ends
    assert card.isVisible() and "Sela is dying" in card.death_label.text()
    table.type_into(card.death_d20.spins[0], "1", "death save d20 (card)")
    table.click(card.next_button, "Next turn (card)")
    table.logged("Sela", "Brink")
    state = window.combat.session.state
    assert state is not None and state.combatant(table.creature("Sela").id).death.brink
    brink = card.brink
    assert card.isVisible() and brink.isVisible()  # the fight waits on Sela's choice
    controls = {f"Brink: {o.value}": b for o, b in brink.buttons.items() if b.isVisible()}
    assert not [name for name, widget in controls.items() if not unfolded(widget)], controls
    since = len(table.log())
    table.type_into(brink.d20, "15", "Sentence d20 (card)")
    table.click(brink.buttons[BrinkOption.SENTENCE], "Brink: Sentence")
    line = table.logged("Sela", "15", since=since)
    assert "Sentence" in line or "Wisdom" in line, line
    state = window.combat.session.state
    assert state is not None and not state.combatant(table.creature("Sela").id).death.brink
    assert not card.brink.isVisible()
    fight_steps.next_by_key(table)  # nothing waits any more: the turn goes on
    assert table.turn_of() != "Sela"
    assert not table.refusals, table.refusals
    assert not table.stalls, table.stalls
