"""File > Open Recent: the last encounters opened or saved, and whether the app reopens the
last one at start.

Stored in the app's ``QSettings`` (tests pass an ini file in a temporary folder). A listed
file that is gone or no longer opens is dropped from the list by ``FileActions.open_recent``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QSettings
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from battlemap.ui.plain_text import literal_mnemonics, plain_tooltip

RECENT_KEY = "files/recent"
REOPEN_KEY = "files/reopen_last_at_start"
MAX_RECENT = 8
REOPEN_TEXT = "Reopen the &last encounter at start"


class RecentFiles(QObject):
    """The list of recent files (newest first, at most ``MAX_RECENT``) and its menu.

    Args:
        settings: where the list and the start-up choice are kept.
        parent: the window that owns the menu.
        open_recent: opens a listed file (called with its path by the menu's entries).
    """

    def __init__(
        self, settings: QSettings, parent: QWidget, open_recent: Callable[[Path], object]
    ) -> None:
        super().__init__(parent)
        self.settings = settings
        self._open_recent = open_recent
        self.menu = QMenu("Open &Recent", parent)
        self.menu.aboutToShow.connect(self.fill_menu)
        self.reopen_action = QAction(REOPEN_TEXT, self, checkable=True)
        self.reopen_action.setStatusTip(
            "At start, open the encounter you last opened or saved instead of the demo"
        )
        self.reopen_action.setChecked(self.reopens_at_start())
        self.reopen_action.toggled.connect(lambda on: self.settings.setValue(REOPEN_KEY, on))
        self.fill_menu()

    def paths(self) -> list[Path]:
        stored = self.settings.value(RECENT_KEY, [], type=list)
        return [Path(str(item)) for item in stored if item] if isinstance(stored, list) else []

    def reopens_at_start(self) -> bool:
        """The DM's choice, on until switched off (a live session goes on where it stopped)."""
        return str(self.settings.value(REOPEN_KEY, "true")).lower() == "true"

    def remember(self, path: Path) -> None:
        path = path.resolve()
        self._store([path, *(p for p in self.paths() if p != path)])

    def forget(self, path: Path) -> bool:
        """Drop ``path`` from the list; True if it was listed."""
        kept = [p for p in self.paths() if p != path.resolve()]
        listed = len(kept) < len(self.paths())
        self._store(kept)
        return listed

    def clear(self) -> None:
        self._store([])

    def _store(self, paths: list[Path]) -> None:
        self.settings.setValue(RECENT_KEY, [str(p) for p in paths[:MAX_RECENT]])
        self.fill_menu()

    def fill_menu(self) -> None:
        """Entries ``&1 name`` to ``&8 name`` (Alt+F, R, then the digit), the full path in the
        tooltip and status bar; then Clear and the start-up choice."""
        self.menu.clear()
        recent = self.paths()
        for number, path in enumerate(recent, start=1):
            entry = self.menu.addAction(f"&{number} {literal_mnemonics(path.name)}")
            entry.setToolTip(plain_tooltip(str(path)))
            entry.setStatusTip(str(path))
            entry.triggered.connect(lambda _checked=False, p=path: self._open_recent(p))
        if recent:
            self.menu.addSeparator()
        clear = self.menu.addAction("&Clear recent files")
        clear.setEnabled(bool(recent))
        clear.triggered.connect(self.clear)
        self.menu.addSeparator()
        self.menu.addAction(self.reopen_action)
        self.menu.setEnabled(True)
