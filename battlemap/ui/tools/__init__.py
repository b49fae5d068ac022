"""Map editing tools: select, measure, walls, doors, obstacles, terrain, eraser, map settings.

``install(window)`` adds them to a main window; see ``controller.ToolController``.
"""

from battlemap.ui.tools.controller import ToolController, install

__all__ = ["ToolController", "install"]
