"""What every ruleset section shares: unknown keys are errors, values are immutable."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

Name = str
Fraction = float
"""Fractions (``0.5``) multiply a value and then round as ``damage.rounding`` says."""


class Section(BaseModel):
    """Base of every ruleset section: unknown keys are errors, values are immutable."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class Described(Section):
    """An entry with a display name and a description."""

    name: str = Field(min_length=1, max_length=80, description="Name shown to the DM.")
    description: str = Field(
        default="", max_length=4000, description="What it means at the table, shown to the DM."
    )
