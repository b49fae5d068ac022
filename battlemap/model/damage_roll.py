"""A damage roll as a stat block writes it (``2d6+4 slashing``), shared by attacks and
saving-throw actions."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

DICE_PATTERN = r"^(\d{1,3}d\d{1,3}([+-]\d{1,4})?|\d{1,4})$"
"""``2d6``, ``1d8+3``, ``3d6-1`` or a flat number such as ``1``."""
Dice = Annotated[str, Field(pattern=DICE_PATTERN, max_length=16)]
ShortText = Annotated[str, Field(max_length=200)]


class Damage(BaseModel):
    """One damage roll of a hit. Rolls with the same ``choice`` number are alternatives."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dice: Dice
    type: ShortText = Field(min_length=1, description="slashing, fire, ...")
    choice: int | None = Field(
        default=None, ge=0, le=100, description="Alternatives share a number; None: always."
    )
    note: ShortText = ""
