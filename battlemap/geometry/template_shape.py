"""The kinds of area of effect (``templates``), apart from the shapes' geometry so the
template tool's menus can list them at start without importing sight (issue 17)."""

from __future__ import annotations

from enum import StrEnum


class TemplateShape(StrEnum):
    """The kinds of area; each value's meaning is in ``templates``' docstring."""

    CIRCLE = "circle"
    CONE = "cone"
    LINE = "line"
    CUBE = "cube"

    @property
    def size_label(self) -> str:
        """What ``size_feet`` means for this shape, for forms and hints."""
        return {
            TemplateShape.CIRCLE: "radius",
            TemplateShape.CONE: "length",
            TemplateShape.LINE: "length",
            TemplateShape.CUBE: "side",
        }[self]
