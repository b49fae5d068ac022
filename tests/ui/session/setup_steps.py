"""Setting up the evening's fight through the window: a real Dungeondraft map dropped on the
map, four goblins, an ogre and a wolf from the bundled library, four player characters typed
into the Party dock's form (one a level-5 fighter with Extra Attack), the players' window,
initiative with the players' rolls typed as a table does (click the box, type the digits,
Enter)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QRect, QSettings, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QPushButton
from pytestqt.qtbot import QtBot

from battlemap.model import Encounter
from battlemap.model.statblock import Ability
from battlemap.ui.character_form import PlayerCharacterDialog
from battlemap.ui.combat.widgets import rows
from battlemap.ui.library_dock import NAME_COLUMN
from tests.shared_data import shared_file
from tests.ui.session.table import Table
from tests.ui.test_file_actions import drag_and_drop
from tests.ui.test_window_layout import first_start

MAP = "vtt-maps_red-tower-base.dd2vtt"


def import_map(table: Table) -> None:
    window = table.window
    assert drag_and_drop(window.view.viewport(), shared_file(MAP))  # the file dropped on the map
    grid = window.document.encounter.grid
    assert (grid.width, grid.height) == (10, 12) and window.document.encounter.walls
    assert "red-tower-base" in window.map_importer.last_message


MONSTERS = (("Goblin", 4), ("Ogre", 1), ("Wolf", 1))
"""Six monsters from the bundled library: copies typed into Copies."""


def add_monsters(table: Table) -> None:
    library = table.window.library_dock
    library.raise_()
    for name, copies in MONSTERS:
        table.retype(library.search, name, "library search")
        row = library.list.findItems(name, Qt.MatchFlag.MatchExactly, NAME_COLUMN)[0]
        table.click_row(library.list, library.list.indexFromItem(row), f"library: {name}")
        assert library.selected() is not None and library.selected().name == name  # type: ignore[union-attr]
        table.retype(library.count, str(copies), "Copies")
        assert library.count.value() == copies
        table.click(library.add_button, "Add to map")
    table.retype(library.search, "", "library search")
    assert len(library.visible_names()) > len(MONSTERS)  # the whole library again
    names = [c.name for c in table.window.document.encounter.creatures]
    assert names == [*(f"Goblin {n}" for n in range(1, 5)), "Ogre 1", "Wolf 1"], names


def character_form(table: Table) -> PlayerCharacterDialog:
    party = table.window.party_dock
    party.raise_()
    table.click(party.buttons["New…"], "Party: New…")
    dialog = next(d for d in table.window.findChildren(PlayerCharacterDialog) if d.isVisible())
    return dialog


PARTY = (
    # name, HP, AC, (ability, score), attacks per action, attack row as typed in the form
    ("Brakka", 44, 18, (Ability.STR, 16), 2, ("Longsword", "+6", "5", "", "", "1d8+3", "slashing")),
    ("Sela", 9, 12, (Ability.DEX, 14), 1, ("Fire Bolt", "+6", "", "120", "", "2d10", "fire")),
    ("Corin", 38, 18, (Ability.WIS, 16), 1, ("Mace", "+5", "5", "", "", "1d6+3", "bludgeoning")),
    (
        "Dessa",
        33,
        15,
        (Ability.DEX, 18),
        1,
        ("Shortbow", "+7", "", "80", "320", "1d6+4", "piercing"),
    ),
)
"""Four level-5 characters: Brakka a fighter with Extra Attack (two attacks per action)."""


def add_party(table: Table) -> None:
    """Each character typed into the Party dock's form, key by key, and saved."""
    for name, hp, ac, (ability, score), attacks, attack_row in PARTY:
        dialog = character_form(table)
        table.type_into(dialog.name, name, "character name")
        for box, value, label in (
            (dialog.level, 5, "Level"),
            (dialog.hp, hp, "Hit points"),
            (dialog.ac, ac, "Armour class"),
            (dialog.scores[ability], score, ability.value),
            (dialog.attacks_per_action, attacks, "Attacks per action"),
        ):
            table.retype(box, str(value), label)
            assert box.value() == value, (label, box.value())
        add_row = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Add attack")
        table.click(add_row, "Add attack")
        for column, text in enumerate(attack_row):
            table.type_cell(dialog.attacks, dialog.attacks.rowCount() - 1, column, text)
        buttons = dialog.findChild(QDialogButtonBox)
        assert buttons is not None
        table.click(buttons.button(QDialogButtonBox.StandardButton.Save), "Save (character)")
        assert not dialog.isVisible(), dialog.error.text()
    party = table.window.party_dock
    for row in range(len(PARTY)):
        index = party.list.model().index(row, 0)
        table.click_row(party.list, index, f"Party: {PARTY[row][0]}")
        table.click(party.buttons["Place on map"], "Place on map")
    placed = {c.name: c for c in table.window.document.encounter.creatures}
    assert placed["Brakka"].level == 5 and placed["Brakka"].hp == 44
    assert placed["Dessa"].hp == 33 and placed["Corin"].ac == 18


PLACES = {
    "Goblin 1": (5, 5),
    "Goblin 2": (4, 5),
    "Goblin 3": (5, 6),
    "Goblin 4": (6, 6),
    "Ogre 1": (3, 6),
    "Wolf 1": (6, 5),
    "Brakka": (5, 3),
    "Sela": (4, 3),
    "Corin": (6, 2),
    "Dessa": (7, 3),
}
"""Where the DM drags each token before the fight (out of combat: free placement). Placed
tokens land near the middle of the view, which differs between screens."""


def arrange(table: Table) -> None:
    for name, cell in PLACES.items():
        found = table.creature(name)
        if (found.x, found.y) != cell:
            table.drag(name, cell)
    placed = {c.name: (c.x, c.y) for c in table.window.document.encounter.creatures}
    assert placed == PLACES


def open_players_window(table: Table) -> None:
    players = table.window.players
    table.trigger(players.toggle_action, "Players' window (F10)")
    table.qtbot.waitUntil(players.window.isVisible)


def roll_initiative(table: Table, typed: dict[str, int]) -> None:
    """Start, roll for the monsters, type each player's roll into the Initiative box."""
    initiative = table.window.combat.initiative
    table.click(initiative.start_button, "Start combat")
    table.click(initiative.roll_monsters, "Roll for monsters")
    for name, value in typed.items():
        row = next(r for r in rows(initiative.tree) if name in r.text(1))
        initiative.tree.scrollToItem(row)
        rect = initiative.tree.visualItemRect(row)
        table.qtbot.mouseClick(
            initiative.tree.viewport(), Qt.MouseButton.LeftButton, pos=rect.center()
        )
        spin = initiative.value
        box = spin.lineEdit() if hasattr(spin, "lineEdit") else spin
        table.type_into(box, str(value), f"Initiative box ({name})", enter=True)
        combat = table.window.document.encounter.combat
        assert combat is not None
        cid = table.creature(name).id
        assert combat.combatant(cid).initiative == value, (name, table.refusals)
    table.click(initiative.begin_button, "Begin round 1")
    QApplication.processEvents()


def set_up_the_table(qtbot: QtBot, folder: Path, screen: QRect) -> Table:
    """A first start on ``screen`` (srd-5e, the dice of seed 2), then the evening's set-up:
    the map, the monsters, the party, each token dragged to its place."""
    settings = QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat)
    window = first_start(qtbot, Encounter(ruleset="srd-5e"), settings, screen)
    table = Table(window, qtbot)
    window.combat.session.seed_source = lambda: 2
    import_map(table)
    add_monsters(table)
    add_party(table)
    arrange(table)
    return table
