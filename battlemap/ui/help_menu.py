"""The Help menu: Keyboard shortcuts (a searchable list read from the window's actions each
time it opens, so it never goes stale), the Dice roller dock, and a hint shown on the first
start only (remembered in the settings).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QObject, QSettings, QSize, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QPushButton,
    QToolBar,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.ui.dice_roller import DiceRollerDock

FIRST_RUN_HINT_KEY = "help/first_run_hint_shown"
ROLLER_PLACED_KEY = "help/dice_roller_placed"
FIRST_RUN_HINT = (
    "New here? File > Import map… reads a Dungeondraft map; drag monsters from the Creature "
    "library onto it; Start combat in the Initiative dock. Help > Keyboard shortcuts lists "
    "every key, and Help > Dice roller rolls any dice into the Log."
)

ROLLER_SIZE = QSize(320, 300)
"""The floating dice roller's size when it first shows."""


@dataclass(frozen=True)
class ShortcutRow:
    """One line of the shortcuts list: what the action does, its keys, where it lives."""

    action: str
    keys: str
    where: str

    def matches(self, words: str) -> bool:
        """Every word of ``words`` is in the action, the keys or the menu (any case)."""
        haystack = f"{self.action} {self.keys} {self.where}".casefold()
        return all(word in haystack for word in words.casefold().split())


def plain_action_text(text: str) -> str:
    """A menu entry's text as it reads: mnemonics taken out ("&&" is one "&"), without a
    trailing tab and shortcut or an ellipsis."""
    shown = text.split("\t", 1)[0].replace("&&", "\0").replace("&", "").replace("\0", "&")
    return shown.rstrip(".…").strip()


def _menu_path(menu: QMenu) -> str:
    titles = []
    current: QObject | None = menu
    while isinstance(current, QMenu):
        titles.append(plain_action_text(current.title()))
        current = current.parent()
    return " > ".join(reversed([t for t in titles if t]))


def _where(action: QAction) -> str:
    """The menus and toolbars holding ``action``; else the dock it belongs to."""
    places = []
    for owner in action.associatedObjects():
        if isinstance(owner, QMenu) and owner.title():
            places.append(_menu_path(owner))
        elif isinstance(owner, QToolBar):
            places.append(f"{owner.windowTitle()} toolbar")
    parent = action.parent()
    while not places and parent is not None:
        if isinstance(parent, QDockWidget):
            places.append(f"{parent.windowTitle()} dock")
        parent = parent.parent()
    return ", ".join(dict.fromkeys(places))


STEP_NAMED = ("Undo", "Redo")
"""Actions whose text names the step they take back ("Undo Move Goblin"): listed by this
first word."""


def _all_actions(window: QMainWindow) -> list[QAction]:
    """The window's actions: its children's, and those of its menus and toolbars (an action
    may belong to another object), each once."""
    found = dict.fromkeys(window.findChildren(QAction))
    menus = list(window.menuBar().findChildren(QMenu)) + list(window.findChildren(QMenu))
    for holder in [*menus, *window.findChildren(QToolBar)]:
        found.update(dict.fromkeys(holder.actions()))
    return list(found)


def shortcut_rows(window: QMainWindow) -> list[ShortcutRow]:
    """Every action of ``window`` that has a keyboard shortcut, sorted by menu then name."""
    rows = []
    for action in _all_actions(window):
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in action.shortcuts()]
        keys = [k for k in keys if k]
        text = plain_action_text(action.text())
        first_word = text.split(" ", 1)[0]
        text = first_word if first_word in STEP_NAMED else text
        if keys and text:
            rows.append(ShortcutRow(text, ", ".join(keys), _where(action)))
    return sorted(set(rows), key=lambda row: (row.where, row.action.casefold(), row.keys))


class ShortcutsDialog(QDialog):
    """The searchable list of shortcuts; the rows are read again each time it opens."""

    def __init__(self, window: QMainWindow) -> None:
        super().__init__(window)
        self.window_ = window
        self.setWindowTitle("Keyboard shortcuts")
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search: an action, a key or a menu")
        self.search.setClearButtonEnabled(True)
        self.table = QTreeWidget()
        self.table.setHeaderLabels(["Action", "Keys", "Menu"])
        self.table.setRootIsDecorated(False)
        self.table.setAlternatingRowColors(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addWidget(self.table)
        layout.addWidget(buttons)
        self.search.textChanged.connect(self._filter)
        self.resize(560, 520)

    def open_list(self) -> None:
        """Fill the list from the window's actions as they are now, and show it."""
        self.table.clear()
        for row in shortcut_rows(self.window_):
            item = QTreeWidgetItem([row.action, row.keys, row.where])
            item.setData(0, Qt.ItemDataRole.UserRole, row)
            self.table.addTopLevelItem(item)
        for column in range(3):
            self.table.resizeColumnToContents(column)
        self._filter(self.search.text())
        self.show()
        self.search.setFocus()

    def _items(self) -> list[QTreeWidgetItem]:
        items = (self.table.topLevelItem(i) for i in range(self.table.topLevelItemCount()))
        return [item for item in items if item is not None]

    def shown_rows(self) -> list[ShortcutRow]:
        return [i.data(0, Qt.ItemDataRole.UserRole) for i in self._items() if not i.isHidden()]

    def _filter(self, words: str) -> None:
        for item in self._items():
            row: ShortcutRow = item.data(0, Qt.ItemDataRole.UserRole)
            item.setHidden(not row.matches(words))


class FirstRunHint(QFrame):
    """A card at the top of the map with the first steps; "Got it" closes it. It takes no
    keyboard focus, so the map keeps its keys."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.host = parent
        self.setObjectName("first-run-hint")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.text = QLabel(FIRST_RUN_HINT)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.PlainText)
        self.close_button = QPushButton("Got it")
        self.close_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.close_button.clicked.connect(lambda _=False: self.hide())
        row = QHBoxLayout(self)
        row.addWidget(self.text, 1)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignVCenter)
        parent.installEventFilter(self)  # follows the map's size

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.host and event.type() == QEvent.Type.Resize:
            self.place()
        return False

    def place(self) -> None:
        """At the top of the parent, centred, at most 640 px wide."""
        width = min(640, self.host.width() - 24)
        self.setFixedWidth(max(width, 200))
        self.adjustSize()
        self.move((self.host.width() - self.width()) // 2, 12)


class HelpMenu(QObject):
    """The Help menu's entries and what they open.

    Attributes:
        shortcuts: the shortcuts dialog (made on first use).
        dice_roller: the dice roller dock (a tab beside the History, hidden until asked for).
        hint: the first-run card, once shown.
    """

    def __init__(self, window: QMainWindow, settings: QSettings) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.shortcuts: ShortcutsDialog | None = None
        self.hint: FirstRunHint | None = None
        self.dice_roller = DiceRollerDock(
            window.document,  # type: ignore[attr-defined]
            window.undo_stack,  # type: ignore[attr-defined]
            window,
        )
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dice_roller)
        self.dice_roller.hide()
        menu: QMenu = window.help_menu  # type: ignore[attr-defined]
        about = menu.actions()[0]  # the window's About entry stays last
        self.shortcuts_action = QAction("&Keyboard shortcuts…", window)
        self.shortcuts_action.setShortcut(QKeySequence(QKeySequence.StandardKey.HelpContents))
        self.shortcuts_action.triggered.connect(self.show_shortcuts)
        self.roller_action = QAction("&Dice roller", window)
        self.roller_action.setShortcut(QKeySequence("Ctrl+D"))
        self.roller_action.triggered.connect(self.show_dice_roller)
        menu.insertActions(about, [self.shortcuts_action, self.roller_action])
        menu.insertSeparator(about)
        window.view_menu.addAction(self.dice_roller.toggleViewAction())  # type: ignore[attr-defined]

    def show_shortcuts(self) -> None:
        if self.shortcuts is None:
            self.shortcuts = ShortcutsDialog(self.window)
        self.shortcuts.open_list()

    def show_dice_roller(self) -> None:
        """Show the dock, with the typing in its expression box. The first time ever it floats
        at the bottom right corner of the map (a fifth tab on the right would cut every tab's
        name at 1366 px); where the DM then puts it is kept with the window's layout."""
        dock = self.dice_roller
        if not self.settings.value(ROLLER_PLACED_KEY, False, type=bool):
            self.settings.setValue(ROLLER_PLACED_KEY, True)
            dock.setFloating(True)
            view: QWidget = self.window.view  # type: ignore[attr-defined]
            corner = view.mapToGlobal(view.rect().bottomRight())
            dock.resize(ROLLER_SIZE)
            dock.move(corner.x() - ROLLER_SIZE.width() - 8, corner.y() - ROLLER_SIZE.height() - 8)
        dock.show()
        if dock.isFloating():
            dock.activateWindow()
        else:
            dock.raise_()  # in front of the tabs it shares
        dock.expression.setFocus()
        dock.expression.selectAll()

    def show_first_run_hint(self) -> bool:
        """Show the hint over the map unless it was shown at an earlier start; returns
        whether it was shown now. It is remembered as shown at once (not on "Got it"): a
        DM who quits without closing it does not see it again."""
        if self.settings.value(FIRST_RUN_HINT_KEY, False, type=bool):
            return False
        self.settings.setValue(FIRST_RUN_HINT_KEY, True)
        view: QWidget = self.window.view  # type: ignore[attr-defined]
        self.hint = FirstRunHint(view)
        self.hint.place()
        self.hint.show()
        self.hint.raise_()
        return True


def install(window: QMainWindow) -> HelpMenu:
    return HelpMenu(window, window.settings)  # type: ignore[attr-defined]
