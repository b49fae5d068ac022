"""How a creature made from a stat block gets its hit points, apart from the monster library
(``io.monsters``) so the Creature library's box is built at start without importing it."""

from __future__ import annotations

from enum import StrEnum


class HitPoints(StrEnum):
    AVERAGE = "average"
    ROLLED = "rolled"
