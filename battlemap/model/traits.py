"""Traits shared by creatures and stat blocks: size, side and speeds."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.limits import MAX_SPEED_FEET


class Size(StrEnum):
    """Size categories, in order; ``space_feet`` is the side of the square a creature controls."""

    TINY = "tiny"
    SMALL = "small"
    MEDIUM = "medium"
    LARGE = "large"
    HUGE = "huge"
    GARGANTUAN = "gargantuan"

    @property
    def space_feet(self) -> float:
        return _SPACE_FEET[self]

    @property
    def rank(self) -> int:
        """0 for Tiny up to 5 for Gargantuan: "two sizes larger" means a rank difference of 2."""
        return list(Size).index(self)


_SPACE_FEET: dict[Size, float] = {
    Size.TINY: 2.5,
    Size.SMALL: 5.0,
    Size.MEDIUM: 5.0,
    Size.LARGE: 10.0,
    Size.HUGE: 15.0,
    Size.GARGANTUAN: 20.0,
}


class Side(StrEnum):
    """Whose side a creature is on: party and hostile creatures are each other's enemies."""

    PARTY = "party"
    HOSTILE = "hostile"
    NEUTRAL = "neutral"

    def is_hostile_to(self, other: Side) -> bool:
        return {self, other} == {Side.PARTY, Side.HOSTILE}


class TokenShape(StrEnum):
    """How a token's image is cropped to its footprint."""

    CIRCLE = "circle"
    """A disc inside the space, as tokens without an image."""
    SQUARE = "square"
    """The whole square of the space."""


class HealthShown(StrEnum):
    """What the players' window shows of a creature's health (the DM's choice, per creature)."""

    NONE = "none"
    """Nothing: no bloodied ring (down and dead still show: the table sees it fall)."""
    STATE = "state"
    """Its state: bloodied, down or dead."""
    RING = "ring"
    """Its state and a ring of the hit points left, in eighths: no numbers."""


class Speeds(BaseModel):
    """Speeds in feet per round; 0 means the creature lacks that mode of movement."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    walk: int = Field(default=30, ge=0, le=MAX_SPEED_FEET)
    fly: int = Field(default=0, ge=0, le=MAX_SPEED_FEET)
    swim: int = Field(default=0, ge=0, le=MAX_SPEED_FEET)
    climb: int = Field(default=0, ge=0, le=MAX_SPEED_FEET)
    burrow: int = Field(default=0, ge=0, le=MAX_SPEED_FEET)
    hover: bool = False
