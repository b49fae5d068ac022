"""The six abilities, shared by stat blocks and character sheets."""

from __future__ import annotations

from enum import StrEnum


class Ability(StrEnum):
    STR = "strength"
    DEX = "dexterity"
    CON = "constitution"
    INT = "intelligence"
    WIS = "wisdom"
    CHA = "charisma"
