"""Live drag feedback for tokens (the path, its cost, reach, difficult terrain, opportunity
attacks, illegal moves) and the drop that spends movement and resolves opportunity attacks
(asked in a non-modal prompt docked in the map view).

``install(window)`` hooks it into the main window's scene (one line in ``_install_features``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battlemap.rules.schema import Ruleset
from battlemap.ui.drag.controller import DragFeedback, registry_ruleset
from battlemap.ui.map_index_cache import IndexCache, window_index

if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow

__all__ = ["DragFeedback", "IndexCache", "install", "window_index", "window_ruleset"]


def window_ruleset(window: FeatureWindow) -> Ruleset | None:
    """The encounter's ruleset from the window's rulesets (the Rules menu's: shipped plus the
    DM's own), or None when it can't be loaded."""
    return registry_ruleset(window, lambda: window.rulesets.registry)


def install(window: FeatureWindow) -> DragFeedback:
    """Hook drag feedback into ``window``'s scene and view."""
    index = window_index(window)
    feedback = DragFeedback(
        window.scene,
        window.view,
        lambda: window_ruleset(window),
        index,
        library_of=lambda: window.library_dock.monsters,
    )
    window.take_backs.append(feedback)
    feedback.waiting_changed.connect(window.refresh_undo_action)
    return feedback
