"""The DM's main window as the feature installers see it: what ``install(window)`` may use.

``MainWindow`` (ui/main_window.py) derives from ``FeatureWindow`` and fills in every name
declared here, so mypy checks both sides: an installer reaching for a part the window does not
declare is an error, and so is the window building a part of the wrong type. Features name the
window by this class, not ``MainWindow``, so they never import the module that installs them.

A ``typing.Protocol`` cannot do this: features pass the window to Qt as the parent of their
docks, dialogs and actions, which takes a real ``QObject``, and Python has no "QMainWindow and
this Protocol" type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QMainWindow

if TYPE_CHECKING:
    from PySide6.QtCore import QSettings
    from PySide6.QtGui import QAction, QUndoStack
    from PySide6.QtWidgets import QDockWidget, QMenu, QToolBar

    from battlemap.model.document import Document
    from battlemap.ui.combat import CombatUi
    from battlemap.ui.creature_dock import CreatureDock
    from battlemap.ui.import_actions import MapImporter
    from battlemap.ui.library_dock import LibraryDock
    from battlemap.ui.map_scene import MapScene
    from battlemap.ui.map_view import MapView
    from battlemap.ui.players.controller import PlayersController
    from battlemap.ui.ruleset_menu import RulesetMenu
    from battlemap.ui.share.controller import ShareController


class TakeBack(Protocol):
    """Something Undo takes back before the recorded steps (it is not on the undo stack)."""

    def can_take_back(self) -> bool: ...

    def take_back(self) -> None: ...


class FeatureWindow(QMainWindow):
    """Declared here, built by ``MainWindow.__init__`` before any feature is installed."""

    document: Document
    settings: QSettings
    undo_stack: QUndoStack
    scene: MapScene
    view: MapView
    file_menu: QMenu
    edit_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu
    tools_toolbar: QToolBar
    quit_action: QAction
    history_dock: QDockWidget
    take_backs: list[TakeBack]

    # Features that others use, in the order ``MainWindow._install_features`` adds them; a
    # feature may use the ones before it at once, the later ones only once the window is up.
    rulesets: RulesetMenu
    players: PlayersController
    share: ShareController
    creature_dock: CreatureDock
    map_importer: MapImporter
    library_dock: LibraryDock
    combat: CombatUi

    def fit_map(self) -> None:
        """Zoom the DM's view to show the whole map."""
        raise NotImplementedError

    def refresh_undo_action(self) -> None:
        """Name and enable Edit > Undo after a change to ``take_backs`` or the undo stack."""
        raise NotImplementedError
