"""The targeting overlay: distance, reach or range band, cover lines and blockers, flanking.

``install(window)`` adds it to the main window's scene and a "Keep targeting overlay" (K)
toggle to the View menu (one line in ``_install_features``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from battlemap.ui.drag import window_index, window_ruleset
from battlemap.ui.targeting.overlay import TargetingOverlay

if TYPE_CHECKING:
    from battlemap.ui.feature_window import FeatureWindow

__all__ = ["TargetingOverlay", "install"]


def install(window: FeatureWindow) -> TargetingOverlay:
    index = window_index(window)
    overlay = TargetingOverlay(window.scene, window.view, lambda: window_ruleset(window), index)
    window.view_menu.addAction(overlay.keep_action)
    window.addAction(overlay.keep_action)
    dock = window.creature_dock  # its AC line shows the cover against the hovered creature
    dock.cover_source = overlay.cover_of
    overlay.shown.connect(dock.refresh_cover)
    return overlay
