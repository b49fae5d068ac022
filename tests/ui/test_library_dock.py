"""The creature library dock: filters, numbered copies, HP modes, drops, loading files."""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QMimeData, QModelIndex, QPointF, QSettings, Qt
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox
from pytestqt.qtbot import QtBot

from battlemap.model import Creature, Encounter, Size
from battlemap.ui.library_dock import (
    CR_COLUMN,
    MIME_TYPE,
    NAME_COLUMN,
    SIZE_COLUMN,
    TYPE_COLUMN,
    LibraryDock,
)
from battlemap.ui.main_window import MainWindow
from battlemap.ui.typed_dice import TOUCH_PX
from tests.ui.helpers import cell_centre_in_view
from tests.ui.test_window_layout import LAPTOP, first_start


def dock_of(window: MainWindow) -> LibraryDock:
    """The dock with the bundled monsters in its list, as it is soon after the first frame."""
    window.library_dock.ensure_filled()
    return window.library_dock


def set_filter(dock: LibraryDock, box_name: str, text: str) -> None:
    box = getattr(dock, box_name)
    index = box.findText(text)
    assert index >= 0, f"{text} not in {box_name}"
    box.setCurrentIndex(index)


def cells_of(creature: Creature, cell_feet: float = 5) -> set[tuple[int, int]]:
    side = max(1, int(creature.space_cells(cell_feet)))
    x, y = int(creature.x), int(creature.y)
    return {(x + dx, y + dy) for dx in range(side) for dy in range(side)}


def test_bundled_srd_monsters_are_listed(window: MainWindow) -> None:
    dock = dock_of(window)
    assert len(dock.visible_names()) == len(dock.monsters) >= 300
    assert "Goblin" in dock.monsters


def test_search_and_filters_narrow_the_list(window: MainWindow) -> None:
    dock = dock_of(window)
    dock.search.setText("goblin")
    assert set(dock.visible_names()) == {"Goblin", "Hobgoblin"}  # a substring match
    dock.search.setText("")
    set_filter(dock, "cr_box", "1/4")
    set_filter(dock, "type_box", "humanoid")
    names = dock.visible_names()
    assert "Goblin" in names and "Acolyte" in names
    assert all(dock.monsters[n].challenge_rating == 0.25 for n in names)
    set_filter(dock, "size_box", "Small")
    assert "Goblin" in dock.visible_names()
    assert all(dock.monsters[n].size is Size.SMALL for n in dock.visible_names())


def test_add_numbered_copies_on_free_cells_as_one_undo_step(window: MainWindow) -> None:
    dock = dock_of(window)
    before = window.document.encounter
    dock.select("Goblin")
    dock.count.setValue(3)
    dock.add_button.click()
    added = window.document.encounter.creatures[len(before.creatures) :]
    assert [c.name for c in added] == ["Goblin 1", "Goblin 2", "Goblin 3"]
    assert all(c.hp == c.max_hp == 7 and c.ac == 15 for c in added)
    occupied: set[tuple[int, int]] = set()
    for creature in window.document.encounter.creatures:
        assert not cells_of(creature) & occupied, f"{creature.name} overlaps another creature"
        occupied |= cells_of(creature)
    assert window.undo_stack.count() == 1
    dock.count.setValue(2)
    dock.add_selected()
    assert [c.name for c in window.document.encounter.creatures[-2:]] == ["Goblin 4", "Goblin 5"]
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.document.encounter == before


def test_rolled_hit_points_come_from_the_hit_dice(window: MainWindow) -> None:
    dock = dock_of(window)
    dock.hit_points.setCurrentIndex(dock.hit_points.findText("Rolled"))
    dock.select("Goblin")
    dock.count.setValue(10)
    dock.add_selected()
    goblins = [c for c in window.document.encounter.creatures if c.name.startswith("Goblin ")]
    assert len(goblins) == 10
    assert all(2 <= c.hp <= 12 and c.hp == c.max_hp for c in goblins)


def list_drag_data(window: MainWindow, name: str) -> QMimeData:
    """What the list hands to a drag that starts on ``name``'s row."""
    dock = dock_of(window)
    (row,) = dock.list.findItems(name, Qt.MatchFlag.MatchExactly, 0)
    return dock.list.mimeData([row])


def send_drag(window: MainWindow, name: str, cell: tuple[float, float]) -> None:
    mime = list_drag_data(window, name)
    pos = QPointF(cell_centre_in_view(window.view, *cell))
    buttons, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    viewport = window.view.viewport()
    enter = QDragEnterEvent(pos.toPoint(), Qt.DropAction.CopyAction, mime, buttons, none)
    QApplication.sendEvent(viewport, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(viewport, QDropEvent(pos, Qt.DropAction.CopyAction, mime, buttons, none))


def test_dragging_a_monster_onto_the_map_places_it_under_the_cursor(window: MainWindow) -> None:
    assert bytes(list_drag_data(window, "Ogre").data(MIME_TYPE).data()) == b"Ogre"
    send_drag(window, "Ogre", (11.0, 1.0))  # a free corner; the 2x2 space centred there
    ogre = window.document.encounter.creatures[-1]
    assert ogre.name == "Ogre 1" and ogre.size is Size.LARGE
    assert (ogre.x, ogre.y) == (10.0, 0.0)
    assert window.undo_stack.count() == 1


def cave_goose(
    name: str = "Cave Goose", kind: str = "beast", attack: str = "Beak"
) -> dict[str, object]:
    """A small monster as a monster file holds it (SRD JSON)."""
    return {
        "name": name,
        "size": "Small",
        "type": kind,
        "armor_class": [{"type": "natural", "value": 12}],
        "hit_points": 9,
        "hit_dice": "2d6",
        "speed": {"walk": "30 ft.", "fly": "40 ft."},
        "strength": 8, "dexterity": 14, "constitution": 12,
        "intelligence": 2, "wisdom": 10, "charisma": 5,
        "senses": {"passive_perception": 12},
        "challenge_rating": 0.125,
        "actions": [{"name": attack, "desc": "Melee Weapon Attack: +4 to hit, reach 5 ft."}],
    }  # fmt: skip


def test_loading_a_monster_file_adds_it_and_a_bad_file_says_why(
    window: MainWindow, tmp_path: Path
) -> None:
    dock = dock_of(window)
    mine = cave_goose()
    good = tmp_path / "goose.json"
    good.write_text(json.dumps([mine]))
    assert dock.load_file(good)
    assert dock.monsters["Cave Goose"].attacks[0].reach == 5
    dock.search.setText("goose")
    assert dock.visible_names() == ["Cave Goose"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps([{**mine, "hit_points": -1}]))
    assert not dock.load_file(bad)
    box = window.findChild(QMessageBox, "import-error")
    assert box is not None and "monster 0 (Cave Goose): hit_points" in box.text()
    box.close()


def rows_in_view(dock: LibraryDock) -> int:
    """The listed monsters whose rows show whole in the list's viewport (filled first, as
    it is soon after the first frame)."""
    dock.ensure_filled()
    QApplication.processEvents()  # the dock column laid out again for the rows' height
    listing = dock.list
    inside = listing.viewport().rect()
    rows = (listing.topLevelItem(i) for i in range(listing.topLevelItemCount()))
    return sum(
        1
        for row in rows
        if row is not None and not row.isHidden() and inside.contains(listing.visualItemRect(row))
    )


def test_on_a_1366_by_768_laptop_the_list_shows_six_rows_without_sideways_scrolling(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, LAPTOP)
    dock = dock_of(window)
    assert dock.isVisible() and not dock.summary.isVisible()  # no blank band under the list
    assert rows_in_view(dock) >= 6
    listing = dock.list
    assert not listing.horizontalScrollBar().isVisible()
    header = listing.header()
    assert header.length() <= listing.viewport().width()
    name = header.sectionSize(NAME_COLUMN)
    assert all(name > header.sectionSize(c) for c in (CR_COLUMN, SIZE_COLUMN, TYPE_COLUMN))
    dragon = listing.findItems("Adult Black Dragon", Qt.MatchFlag.MatchExactly, NAME_COLUMN)[0]
    assert listing.fontMetrics().horizontalAdvance(dragon.text(NAME_COLUMN)) <= name
    assert dragon.text(SIZE_COLUMN) == "H" and dragon.toolTip(SIZE_COLUMN) == "huge"


def test_the_summary_shows_for_a_chosen_monster_only(
    qtbot: QtBot, encounter: Encounter, settings: QSettings
) -> None:
    window = first_start(qtbot, encounter, settings, LAPTOP)
    dock = dock_of(window)
    dock.select("Goblin")
    QApplication.processEvents()
    assert dock.summary.isVisible() and "Goblin" in dock.summary.text()
    assert "Scimitar +4" in dock.summary.text()
    assert rows_in_view(dock) >= 2  # the list gives up rows to it, not all of them
    row = dock.list.findItems("Goblin", Qt.MatchFlag.MatchExactly, NAME_COLUMN)[0]
    assert dock.list.viewport().rect().intersects(dock.list.visualItemRect(row))  # in view
    dock.search.setText("zzz")  # filtered out: nothing chosen
    dock.list.setCurrentIndex(QModelIndex())  # no current row
    QApplication.processEvents()
    assert not dock.summary.isVisible()


def test_copies_takes_a_finger_tap_on_its_plus(qtbot: QtBot, window: MainWindow) -> None:
    """Copies has finger-sized - and + buttons (the small arrows were hard to hit on a
    touch screen laid on the table): a tap on + adds a copy."""
    dock = dock_of(window)
    assert dock.count.plus.width() >= TOUCH_PX and dock.count.height() >= TOUCH_PX
    qtbot.mouseClick(dock.count.plus, Qt.MouseButton.LeftButton)
    assert dock.count.value() == 2


def test_a_loaded_monsters_markup_shows_as_text_in_the_summary(
    window: MainWindow, tmp_path: Path
) -> None:
    """A monster file is untrusted: a name, type or attack with < and > shows those
    characters in the summary instead of being read as rich text (an <img> tag, say)."""
    mine = cave_goose("Goose <i>Lord</i>", "beast<br>", "<b>Beak</b>")
    path = tmp_path / "goose.json"
    path.write_text(json.dumps([mine]))
    dock = dock_of(window)
    assert dock.load_file(path)
    dock.select("Goose <i>Lord</i>")
    text = dock.summary.text()
    assert "Goose &lt;i&gt;Lord&lt;/i&gt;" in text and "beast&lt;br&gt;" in text
    assert "&lt;b&gt;Beak&lt;/b&gt; +4" in text
