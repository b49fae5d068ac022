"""Ruleset section for light: what dim light and darkness do to sight, and darkvision.

The map says how lit a place is (``geometry.illumination``); this section says what the
rules document makes of it, read by ``rules.vision``.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from battlemap.rules.enums import LightEffect
from battlemap.rules.schema_base import Section

HIDING_RANK = {
    LightEffect.NONE: 0,
    LightEffect.LIGHTLY_OBSCURED: 1,
    LightEffect.UNSEEN: 2,
    LightEffect.HEAVILY_OBSCURED: 2,
}
"""How much each effect hides: darkness may not hide less than dim light."""


class LightRules(Section):
    dim: LightEffect = Field(
        default=LightEffect.NONE,
        description="What dim light does to one looking at something in it.",
    )
    dark: LightEffect = Field(
        default=LightEffect.UNSEEN,
        description="What darkness does to one looking at something in it.",
    )
    darkvision_one_level_brighter: bool = Field(
        default=True,
        description="Within its darkvision's range a creature sees darkness as dim light and"
        " dim light as bright; false: darkvision changes nothing.",
    )

    @model_validator(mode="after")
    def _darkness_hides_at_least_dim(self) -> LightRules:
        if HIDING_RANK[self.dark] < HIDING_RANK[self.dim]:
            raise ValueError(
                f"dark '{self.dark.value}' hides less than dim '{self.dim.value}';"
                " darkness can't hide less than dim light"
            )
        return self
