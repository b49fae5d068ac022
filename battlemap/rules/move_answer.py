"""The DM's answer to an opportunity attack, apart from the engine (``move_resolution``) so
the drag's prompt can be built at start without importing it (issue 17)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Choice(StrEnum):
    """The DM's answer to an opportunity attack."""

    TAKE = "take"
    SKIP = "skip"
    CANCEL = "cancel"
    """Call the whole move off: nothing changes."""


@dataclass(frozen=True)
class Answer:
    """The DM's answer with the dice typed from the table (None: the app rolls them).

    ``d20``: one face, or two at advantage or disadvantage. ``damage_rolls``: one total per
    damage part, critical dice included. Both are ignored unless ``choice`` is TAKE.
    """

    choice: Choice
    d20: tuple[int, ...] | None = None
    damage_rolls: tuple[int, ...] | None = None
