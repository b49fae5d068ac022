"""Going on where the last session stopped, after the window's first frame.

Reopening the last encounter took ~0.4-0.7 s (decoding its map picture, building the scene)
before the window had drawn anything: a blank window. Now the window draws first, with
"Opening <file>…" on its status bar, and the reopen follows once its map view has painted
(or after ``LATEST_MS`` if it never does, e.g. minimised).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer

if TYPE_CHECKING:
    from battlemap.ui.main_window import MainWindow

LATEST_MS = 1000
"""The reopen starts by then even if no frame was painted."""


class Resume(QObject):
    """Runs ``steps`` once after the window's first frame; ``done`` then turns True."""

    def __init__(self, window: MainWindow, steps: Callable[[], None]) -> None:
        super().__init__(window)
        self.window = window
        self.steps = steps
        self.done = False
        self._started = False
        window.view.viewport().installEventFilter(self)
        QTimer.singleShot(LATEST_MS, self._start)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and not self._started:
            QTimer.singleShot(0, self._start)  # after the frame, not inside its paint
        return False

    def _start(self) -> None:
        if self._started:
            return
        self._started = True
        self.window.view.viewport().removeEventFilter(self)
        self.steps()
        self.done = True


def resume_after_first_frame(window: MainWindow, steps: Callable[[], None]) -> Resume:
    """Say on the status bar what is about to open, then run ``steps`` after the first
    frame (see the module docstring)."""
    files = window.files
    recent = files.recent.paths()
    if files.path is None and recent and files.recent.reopens_at_start():
        window.statusBar().showMessage(f"Opening {recent[0].name}…")
    return Resume(window, steps)
