"""Rounds 2 to 5 of the scripted fight, and the save, close and reopen in the middle of it.

Round 2: Brakka closes on the Ogre and hits it twice (typed, one a natural 20); Sela's death
save is typed on the decision card. Round 3: Brakka stabilises Sela (More > Stabilize), the
DM undoes three steps and redoes them; the Ogre backs away and Brakka's opportunity attack
is taken from its card. Round 4: saved, closed and reopened; Brakka follows and wounds the
Ogre. Round 5: Brakka kills the Ogre with one blow, and the DM ends the combat.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSettings, Qt

from battlemap.model import Encounter
from battlemap.ui.main_window import MainWindow
from battlemap.ui.token_state import Vital
from tests.ui.session import fight_steps, setup_steps
from tests.ui.session.table import Table, screenshot
from tests.ui.test_window_layout import first_start

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def round_of(table: Table) -> int:
    state = table.window.combat.session.state
    assert state is not None
    return state.round


def sela_and_the_ogre(table: Table, ogre_d20: tuple[int, int] | None) -> None:
    """Sela's turn (dying or stable: nothing to do), then Dessa's and Corin's (they hold),
    the dead skipped, the poisoned Ogre attacks Brakka (its two d20s of disadvantage typed,
    or the app rolls: None); N ends its turn."""
    fight_steps.pass_turns(table, "Sela", "Dessa", "Corin")
    assert table.turn_of() == "Ogre 1"
    if ogre_d20 is not None:
        fight_steps.attack(table, "Brakka", d20=ogre_d20, attacker="Ogre 1")
        fight_steps.close_dialog(table)
    fight_steps.next_by_key(table)
    assert table.turn_of() == "Brakka"


def round_two(table: Table) -> None:
    assert round_of(table) == 2 and table.turn_of() == "Brakka"
    card = table.window.combat.card
    assert card.isVisible() and "Sela is dying" in card.death_label.text()
    table.drag("Brakka", (4, 4))
    fight_steps.attack(table, "Ogre 1", d20=17, damage=10, attacker="Brakka")
    line = fight_steps.attack(table, "Ogre 1", d20=20, damage=14)
    assert "critical" in line.lower(), line
    fight_steps.close_dialog(table)
    assert table.hp("Ogre 1") == 59 - 24
    fight_steps.mark_condition(table, "Ogre 1", "poisoned")  # the DM rules the blade was coated
    table.select("Brakka")  # back to the creature whose turn it is
    width = table.window.width()
    screenshot(table, f"session-{1366 if width < 1600 else 1920}")
    since = len(table.log())
    fight_steps.death_save_on_card(table, 6)
    table.logged("Sela", "death save", since=since)
    assert table.vital("Sela") is Vital.DYING
    sela_and_the_ogre(table, ogre_d20=(3, 9))


def round_three(table: Table) -> None:
    assert (round_of(table), table.turn_of()) == (3, "Brakka"), table.log()[-8:]
    fight_steps.stabilize(table, "Sela", d20=15)
    assert not table.window.combat.card.isVisible()  # no death save is due any more
    for _ in range(3):  # undo the check, the turn change and the Ogre's miss
        table.key(Qt.Key.Key_Z, CTRL)
    assert (round_of(table), table.turn_of()) == (2, "Ogre 1")
    assert table.vital("Sela") is Vital.DYING and table.badge("Ogre 1").acting
    for _ in range(3):  # and redo them
        table.key(Qt.Key.Key_Z, CTRL | SHIFT)
    assert (round_of(table), table.turn_of()) == (3, "Brakka")
    assert table.vital("Sela") is Vital.STABLE
    fight_steps.end_turn(table)
    fight_steps.pass_turns(table, "Sela", "Dessa", "Corin")
    assert table.turn_of() == "Ogre 1"
    hp = table.hp("Ogre 1")
    table.drag("Ogre 1", (2, 6))  # out of Brakka's reach: his opportunity attack
    fight_steps.take_opportunity_attack(table, "Ogre 1")
    assert (table.creature("Ogre 1").x, table.creature("Ogre 1").y) == (2, 6)
    assert table.hp("Ogre 1") <= hp
    fight_steps.next_by_key(table)


def save_close_reopen(table: Table, folder: Path, screen: QRect) -> Table:
    """Ctrl+S (the file dialog answered with ``folder``/fight.battlemap), close the window,
    start the app again and open the file from File > Open Recent."""
    window = table.window
    path = folder / "fight.battlemap"
    window.files.ask_save_path = lambda _parent, _suggested: path
    table.key(Qt.Key.Key_S, CTRL)
    assert path.is_file() and not window.isWindowModified()
    before = window.document.encounter
    window.close()
    settings = QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat)
    again: MainWindow = first_start(table.qtbot, Encounter(ruleset="srd-5e"), settings, screen)
    recent = again.files.recent_menu
    recent.aboutToShow.emit()
    table = Table(again, table.qtbot, used=table.used, refusals=table.refusals)
    table.menu_entry(recent, f"1 {path.name}")
    assert again.document.encounter == before
    again.combat.session.seed_source = lambda: 4
    setup_steps.open_players_window(table)
    assert table.turn_of() == "Brakka" and table.vital("Sela") is Vital.STABLE
    assert table.vital("Goblin 1") is Vital.DEAD and table.badge("Brakka").acting
    return table


def round_four(table: Table) -> None:
    assert round_of(table) == 4 and table.turn_of() == "Brakka"
    table.drag("Brakka", (4, 6))
    brakka = table.creature("Brakka")
    assert (brakka.x, brakka.y) == (4, 6), table.window.statusBar().currentMessage()
    hp = table.hp("Ogre 1")
    fight_steps.attack(table, "Ogre 1", d20=12, damage=9, attacker="Brakka")
    fight_steps.attack(table, "Ogre 1", d20=13, damage=9)
    fight_steps.close_dialog(table)
    assert table.hp("Ogre 1") == hp - 18
    fight_steps.end_turn(table)
    sela_and_the_ogre(table, ogre_d20=(11, 4))


def round_five(table: Table) -> None:
    assert round_of(table) == 5 and table.turn_of() == "Brakka"
    assert table.hp("Ogre 1") <= 11  # the opportunity attack's app-rolled damage took the rest
    fight_steps.attack(table, "Ogre 1", d20=15, damage=11, attacker="Brakka")
    fight_steps.close_dialog(table)
    assert table.vital("Ogre 1") is Vital.DEAD
    initiative = table.window.combat.initiative
    table.click(initiative.end_button, "End combat")
    assert table.window.document.encounter.combat is None
    table.logged("Ogre 1")
