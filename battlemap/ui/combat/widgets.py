"""Small helpers shared by the combat docks and dialogs: tree rows, colours for light and dark
themes, and the frame of a combat dialog."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.rules.enums import ActionKind
from battlemap.ui.plain_text import plain_tooltip

if TYPE_CHECKING:
    from battlemap.ui.combat.session import CombatSession
    from battlemap.ui.map_scene import MapScene

# Each colour is (on a light theme, on a dark theme): the dark ones are lighter so they keep
# their contrast on a dark base.
GOOD = ("#1b7f3b", "#6fd08c")
BAD = ("#b3261e", "#ff8a80")
MUTED = ("#8a8a8a", "#8c8c92")
WARNING = ("#c0561b", "#f0a060")
ATTACK = ("#1f4e9c", "#8cb4ff")
REASONS = ("#5a6b85", "#a3b1c6")
DEATH = ("#6b2c91", "#d0a0f0")
CURRENT_BACKGROUND = ("#ffe9a8", "#5c4a14")
CURRENT_TEXT = ("#1d1d1d", "#fff4d0")


def rows(tree: QTreeWidget) -> list[QTreeWidgetItem]:
    """The top-level rows of a tree, in order."""
    found = (tree.topLevelItem(i) for i in range(tree.topLevelItemCount()))
    return [item for item in found if item is not None]


def dark_theme() -> bool:
    """Whether the application's palette is dark (its base colour is darker than mid-grey)."""
    palette = QApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def tone(pair: tuple[str, str]) -> str:
    """The colour of ``pair`` for the current theme, as ``#rrggbb``."""
    return pair[1] if dark_theme() else pair[0]


def colour(pair: tuple[str, str]) -> QColor:
    return QColor(tone(pair))


def add_outcome_and_close(dialog: QDialog, layout: QVBoxLayout) -> QLabel:
    """The foot of a combat dialog: a selectable rich-text outcome line and a Close button."""
    outcome = QLabel()
    outcome.setWordWrap(True)
    outcome.setTextFormat(Qt.TextFormat.RichText)
    outcome.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    layout.addWidget(outcome)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
    buttons.rejected.connect(dialog.close)
    layout.addWidget(buttons)
    return outcome


CONTEST_KINDS = frozenset(
    {
        ActionKind.GRAPPLE,
        ActionKind.SHOVE,
        ActionKind.ESCAPE,
        ActionKind.DISARM,
        ActionKind.GRAPPLE_MOVE,
        ActionKind.STABILIZE,
    }
)
"""Actions the contest dialog resolves (the Actions dock sends them there)."""
RULESET_DURATION = "Ruleset's duration"
"""The duration a condition takes when the DM picks none: the ruleset's."""
DEFAULT_DAMAGE_TYPE = "slashing"
"""The damage type a custom damage roll starts with (attack, area and HP entry)."""


class CombatDialog(QDialog):
    """A non-modal combat dialog working on one ``session`` and the map ``scene``."""

    def __init__(
        self,
        session: CombatSession,
        scene: MapScene,
        object_name: str,
        title: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName(object_name)
        self.setWindowTitle(title)
        self.setModal(False)
        self.session = session
        self.scene = scene

    def present(self, activate: bool = False) -> None:
        """Show the dialog and bring it to the front (``activate``: give it the focus too);
        the offscreen platform used by the tests can't raise windows, so it only shows."""
        self.show()
        if QGuiApplication.platformName() != "offscreen":
            self.raise_()
            if activate:
                self.activateWindow()


class ElidedLabel(QLabel):
    """One line of plain text cut with "…" to the label's width (the whole text as its
    tooltip): a long creature name never wraps a dock's heading onto a second line."""

    def __init__(self) -> None:
        super().__init__()
        self.setTextFormat(Qt.TextFormat.PlainText)  # a creature's name
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.full_text = ""

    def set_full_text(self, text: str) -> None:
        self.full_text = text
        self.setToolTip(plain_tooltip(text))  # a name with markup is not read as rich text
        self._elide()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        metrics = self.fontMetrics()
        self.setText(metrics.elidedText(self.full_text, Qt.TextElideMode.ElideRight, self.width()))
