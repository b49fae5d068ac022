"""The creature library dock: find SRD (or your own) monsters and put them on the map.

Search by name and filter by challenge rating, size and type; drag a monster onto the map,
or add N numbered copies (Goblin 1..N, continuing after any already there) placed on free
cells around the middle of the view. Hit points are the average or rolled. Each drop or
"Add" is one undo step.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QMimeData, QObject, QPointF, QSize, Qt, QTimer
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDockWidget,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.io.errors import FileFormatError
from battlemap.io.hit_points import HitPoints
from battlemap.model.creature import Creature, Side, Size
from battlemap.model.document import AddCreature, Command, Document
from battlemap.model.encounter import Encounter
from battlemap.model.limits import MAX_CREATURES, MAX_NAME
from battlemap.model.map_commands import CommandGroup
from battlemap.model.statblock import StatBlock, format_cr
from battlemap.resources import asset_path
from battlemap.ui.import_actions import show_error
from battlemap.ui.map_resettle import setup_spaces
from battlemap.ui.monster_library import FILL_AFTER_MS, LazyMonsters
from battlemap.ui.plain_text import plain_tooltip
from battlemap.ui.style import scene_to_cell
from battlemap.ui.token_pictures import like_its_copies
from battlemap.ui.typed_dice import TouchSpinBox
from battlemap.ui.undo import push

if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow

NOTE_MS = 8000
"""How long a note on the status bar stays (why a button did nothing)."""
MIME_TYPE = "application/x-battlemap-statblock"
"""Drag payload: the monster's name (UTF-8)."""
ANY = "Any"
MAX_COPIES = 50
NUMBER_ROOM = len(" 99999")
"""Letters kept free after a monster's name for the copy's number ("Goblin 12")."""
FILTER_MIN_LETTERS = 3
"""The CR, Size and Type filters show this many letters at least: "Any", "1/4"."""
NAME_COLUMN, CR_COLUMN, SIZE_COLUMN, TYPE_COLUMN = range(4)
WIDEST_TYPE = "monstrosity"
"""The type column is no wider than this word ("swarm of Tiny beasts" is elided)."""
MIN_ROWS, MIN_ROWS_WITH_NOTE, MIN_ROWS_IN_COMBAT = 6, 3, 2
"""The list shows at least this many monsters, even on a 1366 x 768 screen; fewer while the
chosen monster's summary shows under it, so the dock grows less (the Creature dock under it
gives up the height); fewest while a combat runs (``combat_room``): enough to pick a searched
reinforcement."""


def size_letter(size: Size) -> str:
    """The size's initial as stat blocks abbreviate it (T, S, M, L, H, G): the list's Size
    column stays narrow, and sorts the letters in the same order as the words."""
    return size.value[0].upper()


def creatures_full(encounter: Encounter) -> str | None:
    """Why no creature can be added (the encounter holds the most it keeps), or None."""
    if len(encounter.creatures) < MAX_CREATURES:
        return None
    return f"The encounter holds {MAX_CREATURES} creatures, the most it can keep."


def add_creatures_command(creatures: Iterable[Creature], text: str) -> Command:
    """One undo step adding every creature."""
    return CommandGroup(tuple(AddCreature(creature) for creature in creatures), text=text)


class MonsterList(QTreeWidget):
    """The filtered monsters; dragging a row carries the monster's name."""

    def __init__(self) -> None:
        super().__init__()
        self.setHeaderLabels(["Name", "CR", "Size", "Type"])
        self.setRootIsDecorated(False)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setSortingEnabled(True)
        self.sortByColumn(NAME_COLUMN, Qt.SortOrder.AscendingOrder)
        # The name takes the room the CR, size and type leave (sized to their contents in
        # ``fit_columns``): no sideways scrolling in a 330 px wide dock.
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(NAME_COLUMN, QHeaderView.ResizeMode.Stretch)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.min_rows = MIN_ROWS

    def fit_columns(self) -> None:
        """Size the CR, size and type columns to their widest entry, the type at most as
        wide as ``WIDEST_TYPE`` (longer ones are elided, whole in their tooltip); the name
        stretches over the rest."""
        for column in (CR_COLUMN, SIZE_COLUMN, TYPE_COLUMN):
            self.resizeColumnToContents(column)
        padding = 2 * self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 8
        widest = self.fontMetrics().horizontalAdvance(WIDEST_TYPE) + padding
        if self.columnWidth(TYPE_COLUMN) > widest:
            self.setColumnWidth(TYPE_COLUMN, widest)

    def set_min_rows(self, rows: int) -> None:
        """Keep at least ``rows`` rows in view (see ``minimumSizeHint``)."""
        if rows != self.min_rows:
            self.min_rows = rows
            self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        """``min_rows`` rows under the header: on a short screen the dock column's split
        then leaves the list that much (the Creature dock below takes the rest)."""
        hint = super().minimumSizeHint()
        row = self.sizeHintForRow(0) if self.topLevelItemCount() else 0
        row = max(row, self.fontMetrics().height())
        height = self.header().sizeHint().height() + self.min_rows * row + 2 * self.frameWidth()
        return QSize(hint.width(), height)  # not Qt's taller default: a combat's two rows

    def mimeTypes(self) -> list[str]:
        return [MIME_TYPE]

    def mimeData(self, items: list[QTreeWidgetItem]) -> QMimeData:  # type: ignore[override]
        mime = QMimeData()
        if items:
            mime.setData(MIME_TYPE, QByteArray(items[0].text(NAME_COLUMN).encode("utf-8")))
        return mime


class LibraryDock(QDockWidget):
    """Search, filter and place monsters (see the module docstring)."""

    def __init__(self, window: FeatureWindow, monsters: Iterable[StatBlock]) -> None:
        super().__init__("Creature library", window)
        self.setObjectName("library-dock")
        self.window_ = window
        self.document: Document = window.document
        self.monsters: MutableMapping[str, StatBlock] = {}
        self.drop_target: MonsterDropTarget | None = None
        self._fill_timed = False
        self.in_combat = False
        """A combat runs: the list gives its height to the Creature dock (``combat_room``)."""
        body = QWidget()
        layout = QVBoxLayout(body)
        # Tight: on a 1366 x 768 screen the dock shares its column with the Creature dock,
        # and every pixel saved here is a row more of the list.
        layout.setContentsMargins(6, 4, 6, 4)
        layout.setSpacing(4)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search by name")
        self.search.setClearButtonEnabled(True)
        layout.addWidget(self.search)
        filters = QHBoxLayout()
        self.cr_box, self.size_box, self.type_box = QComboBox(), QComboBox(), QComboBox()
        for label, box in (("CR", self.cr_box), ("Size", self.size_box), ("Type", self.type_box)):
            # As narrow as a few letters (the list opens as wide as its entries): sized to
            # "monstrosity" and "gargantuan", the row made the right column 355 px wide.
            box.setSizeAdjustPolicy(
                QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            )
            box.setMinimumContentsLength(FILTER_MIN_LETTERS)
            filters.addWidget(QLabel(label))
            filters.addWidget(box, 1)
        layout.addLayout(filters)
        self.list = MonsterList()
        layout.addWidget(self.list, 1)
        self.summary = QLabel()
        self.summary.setTextFormat(Qt.TextFormat.RichText)  # show_note escapes file text
        self.summary.setWordWrap(True)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.hide()  # shown with a text only: empty, it left a blank band
        layout.addWidget(self.summary)
        copies = QHBoxLayout()  # one row, not a form's two: a list row more on a short screen
        self.count = TouchSpinBox()
        self.count.setRange(1, MAX_COPIES)
        self.hit_points = QComboBox()
        self.hit_points.addItem("Average", HitPoints.AVERAGE)
        self.hit_points.addItem("Rolled", HitPoints.ROLLED)
        for label, field in (("Copies", self.count), ("Hit points", self.hit_points)):
            copies.addWidget(QLabel(label))
            copies.addWidget(field, 1)
        layout.addLayout(copies)
        buttons = QHBoxLayout()
        self.add_button = QPushButton("Add to map")
        self.load_button = QPushButton("Load monsters…")
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.load_button)
        layout.addLayout(buttons)
        self.setWidget(body)

        self.add_monsters(monsters)
        self.search.textChanged.connect(self.refilter)
        for box in (self.cr_box, self.size_box, self.type_box):
            box.currentIndexChanged.connect(self.refilter)
        self.list.currentItemChanged.connect(self._show_summary)
        self.list.itemDoubleClicked.connect(lambda *_: self.add_selected())
        self.add_button.clicked.connect(self.add_selected)
        self.load_button.clicked.connect(self.choose_and_load)

    def ensure_filled(self) -> None:
        """Read the bundled monsters into the list now if they are not in yet."""
        if isinstance(self.monsters, LazyMonsters):
            self.monsters.load()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if isinstance(self.monsters, LazyMonsters) and not self._fill_timed:
            self._fill_timed = True  # read once the first frame is on screen
            QTimer.singleShot(FILL_AFTER_MS, self, self.monsters.load)

    # --- the list ---------------------------------------------------------------------

    def add_monsters(self, monsters: Iterable[StatBlock]) -> None:
        """Add (or replace, by name) monsters and rebuild the filters and the list."""
        for block in monsters:
            self.monsters[block.name] = block
        crs = sorted({b.challenge_rating for b in self.monsters.values()})
        types = sorted({b.type for b in self.monsters.values()})
        for box, values in (
            (self.cr_box, [(format_cr(cr), cr) for cr in crs]),
            (self.size_box, [(size.value.capitalize(), size) for size in Size]),
            (self.type_box, [(kind, kind) for kind in types]),
        ):
            box.blockSignals(True)
            box.clear()
            box.addItem(ANY, None)
            for text, data in values:
                box.addItem(text, data)
            box.blockSignals(False)
        self.list.clear()
        rows = []
        for block in self.monsters.values():
            row = QTreeWidgetItem([block.name, block.cr_text, size_letter(block.size), block.type])
            row.setToolTip(SIZE_COLUMN, block.size.value)
            row.setToolTip(NAME_COLUMN, plain_tooltip(block.name))  # whole when elided
            row.setToolTip(TYPE_COLUMN, plain_tooltip(block.type))
            row.setData(CR_COLUMN, Qt.ItemDataRole.UserRole, block.challenge_rating)
            rows.append(row)
        # In one call, sorting off: a sorted list re-sorted itself after each of 334 rows.
        self.list.setSortingEnabled(False)
        self.list.addTopLevelItems(rows)
        self.list.setSortingEnabled(True)
        self.list.fit_columns()
        self.list.updateGeometry()  # its least height counts rows of the height they have
        self.refilter()

    def matches(self, block: StatBlock) -> bool:
        """True when the monster passes the search text and the CR, size and type filters."""
        text = self.search.text().strip().lower()
        cr, size, kind = (box.currentData() for box in (self.cr_box, self.size_box, self.type_box))
        return (
            (not text or text in block.name.lower())
            and (cr is None or block.challenge_rating == cr)
            and (size is None or block.size == size)  # Qt hands enums back as str
            and (kind is None or block.type == kind)
        )

    def _rows(self) -> list[QTreeWidgetItem]:
        self.ensure_filled()
        rows = (self.list.topLevelItem(i) for i in range(self.list.topLevelItemCount()))
        return [row for row in rows if row is not None]

    def refilter(self) -> None:
        for row in self._rows():
            row.setHidden(not self.matches(self.monsters[row.text(NAME_COLUMN)]))

    def visible_names(self) -> list[str]:
        """Names of the monsters the filters let through, in list order."""
        return [row.text(NAME_COLUMN) for row in self._rows() if not row.isHidden()]

    def select(self, name: str) -> None:
        self.ensure_filled()
        found = self.list.findItems(name, Qt.MatchFlag.MatchExactly, NAME_COLUMN)
        if found:
            self.list.setCurrentItem(found[0])
            self.list.scrollToItem(found[0])

    def selected(self) -> StatBlock | None:
        self.ensure_filled()
        row = self.list.currentItem()
        return self.monsters.get(row.text(NAME_COLUMN)) if row and not row.isHidden() else None

    def show_note(self, text: str) -> None:
        """Show ``text`` under the list (rich text); an empty text hides the label."""
        self.summary.setText(text)
        self.summary.setVisible(bool(text))
        self._keep_rows()

    def set_in_combat(self, running: bool) -> None:
        self.in_combat = running
        self._keep_rows()

    def _keep_rows(self) -> None:
        rows = MIN_ROWS_WITH_NOTE if self.summary.text() else MIN_ROWS
        self.list.set_min_rows(MIN_ROWS_IN_COMBAT if self.in_combat else rows)

    def _show_summary(self) -> None:
        block = self.selected()
        if block is None:
            self.show_note("")
            return
        speeds = ", ".join(
            f"{mode} {feet}"
            for mode in ("walk", "fly", "swim", "climb", "burrow")
            if (feet := getattr(block.speeds, mode))
        )
        attacks = "; ".join(
            f"{html.escape(a.name)} {a.to_hit:+d}"
            + (f" reach {a.reach}" if a.reach is not None else "")
            + (f" range {a.range_normal}" if a.range_normal is not None else "")
            + (f"/{a.range_long}" if a.range_long is not None else "")
            for a in block.attacks
        )
        self.show_note(
            # One flowing paragraph and the attacks (lines broken after each fact left
            # half-empty lines: on a short screen each line is a list row less).
            # Names and types come from monster files (untrusted): shown as text.
            f"<b>{html.escape(block.name)}</b> ({block.size.value} {html.escape(block.type)},"
            f" CR {block.cr_text}): "
            f"AC {block.armor_class}, HP {block.hit_points} ({html.escape(block.hit_dice)}), "
            f"{speeds} ft, "
            f"passive Perception {block.senses.passive_perception}<br>{attacks}"
        )

    # --- adding creatures ---------------------------------------------------------------

    def _hit_point_mode(self) -> HitPoints:
        return HitPoints(self.hit_points.currentData())

    def add_copies(
        self, block: StatBlock, count: int, near: tuple[float, float] | None = None
    ) -> list[Creature]:
        """Add ``count`` numbered copies on free spaces nearest ``near`` (default: the middle
        of the view, apart from the party) as one undo step; returns them (fewer when the map
        is full)."""
        from battlemap.io.monsters import creature_from_statblock, numbered_names

        encounter = self.document.encounter
        apart = near is None  # a drop on the map goes where the DM put it
        if near is None:
            centre = self.window_.view.mapToScene(self.window_.view.viewport().rect().center())
            near = (scene_to_cell(centre.x()), scene_to_cell(centre.y()))
        if (full := creatures_full(encounter)) is not None:
            self.window_.statusBar().showMessage(full)
            return []
        room = MAX_CREATURES - len(encounter.creatures)
        spaces = setup_spaces(encounter, block.size, min(count, room), near, Side.HOSTILE, apart)
        base = block.name[: MAX_NAME - NUMBER_ROOM].rstrip()  # "base 12" within MAX_NAME
        names = numbered_names(base, len(spaces), (c.name for c in encounter.creatures))
        creatures = [
            like_its_copies(  # pictured as the copies already there
                encounter,
                creature_from_statblock(
                    block, name=name, hit_points=self._hit_point_mode(), position=space
                ),
            )
            for name, space in zip(names, spaces, strict=True)
        ]
        if not creatures:
            self.window_.statusBar().showMessage(f"No free space on the map for {block.name}.")
            return []
        text = f"Add {block.name}" if count == 1 else f"Add {len(creatures)} × {block.name}"
        push(self.window_.undo_stack, self.document, add_creatures_command(creatures, text))
        if len(creatures) < count:
            where = "in the encounter" if len(creatures) == room else "on the map"
            self.window_.statusBar().showMessage(
                f"Only {len(creatures)} of {count} {block.name} fit {where}."
            )
        return creatures

    def add_selected(self) -> None:
        """Add the selected monster, or say why nothing is added."""
        block = self.selected()
        if block is not None:
            self.add_copies(block, self.count.value())
            return
        row = self.list.currentItem()
        why = (
            f"{row.text(NAME_COLUMN)} is hidden by the search: clear it or pick a shown monster"
            if row is not None and row.isHidden()
            else "Select a monster in the list first"
        )
        self.window_.statusBar().showMessage(f"Add to map: {why}.", NOTE_MS)

    def choose_and_load(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, "Load monsters (5e-database JSON)", "", "JSON (*.json)"
        )
        if path:
            self.load_file(Path(path))

    def load_file(self, path: Path) -> bool:
        """Add the monsters of a 5e-database JSON file; on failure show the message."""
        from battlemap.io.monsters import import_5e_monsters

        try:
            monsters = import_5e_monsters(path)
        except FileFormatError as error:
            show_error(self.window_, "Cannot load monsters", str(error))
            return False
        self.add_monsters(monsters)
        self.window_.statusBar().showMessage(f"Loaded {len(monsters)} monsters from {path.name}")
        return True


class MonsterDropTarget(QObject):
    """Accepts monsters dragged from the library onto the map view."""

    def __init__(self, dock: LibraryDock) -> None:
        super().__init__(dock)
        self.dock = dock
        viewport = dock.window_.view.viewport()
        viewport.setAcceptDrops(True)
        viewport.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        assert isinstance(event, QDragEnterEvent | QDropEvent)
        if not event.mimeData().hasFormat(MIME_TYPE):
            return False
        name = bytes(event.mimeData().data(MIME_TYPE).data()).decode("utf-8", "replace")
        block = self.dock.monsters.get(name)
        if block is None:
            event.ignore()
            return True
        event.acceptProposedAction()
        if kind == QEvent.Type.Drop:
            self.drop(block, event.position())
        return True

    def drop(self, block: StatBlock, viewport_pos: QPointF) -> None:
        scene_pos = self.dock.window_.view.mapToScene(viewport_pos.toPoint())
        near = (scene_to_cell(scene_pos.x()), scene_to_cell(scene_pos.y()))
        self.dock.add_copies(block, 1, near=near)


def install(window: FeatureWindow) -> LibraryDock:
    """Add the dock (a tab beside the History) with the bundled SRD monsters, read after the
    first frame (``ui/monster_library.py``)."""
    dock = LibraryDock(window, ())

    def read_bundled() -> tuple[StatBlock, ...]:
        from battlemap.io.monsters import load_library

        try:
            return load_library(asset_path("srd-monsters.json")).monsters
        except (FileFormatError, FileNotFoundError):
            return ()  # the app still runs; the dock says why it is empty

    def fill_list() -> None:
        dock.add_monsters(())
        if not dock.monsters:
            dock.show_note("The bundled monster library could not be read.")

    dock.monsters = LazyMonsters(read_bundled, fill_list)
    dock.drop_target = MonsterDropTarget(dock)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    # A tab beside the History: a third dock stacked on the right leaves each too short.
    window.tabifyDockWidget(window.history_dock, dock)
    dock.raise_()
    window.view_menu.addAction(dock.toggleViewAction())
    return dock
