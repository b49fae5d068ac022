"""Creatures on the map: size, side, position and the numbers the geometry and rules need."""

from __future__ import annotations

import math

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.character import MAX_ACTION_SURGES
from battlemap.model.combat import LastingState
from battlemap.model.ids import EntityId, new_id
from battlemap.model.limits import (
    MAX_AC,
    MAX_CHARACTER_LEVEL,
    MAX_HP,
    MAX_IMAGE_NAME,
    MAX_NAME,
    MAX_POSITION,
    MAX_REACH_FEET,
    MIN_POSITION,
)
from battlemap.model.statblock import AbilityScores, StatBlock
from battlemap.model.statblock_actions import MAX_SPENT_USES, SpentUse
from battlemap.model.traits import HealthShown, Side, Size, Speeds, TokenShape

__all__ = ["CombatStats", "Creature", "Side", "Size", "Speeds", "TokenShape", "snap_position"]


class CombatStats(AbilityScores):
    """The numbers the turn engine reads: ability scores and the checks it rolls.

    ``None`` bonuses fall back to the ability modifier (Stealth: Dex; initiative: the
    ruleset's ability) and passive Perception to 10 + Wis modifier.
    """

    initiative_bonus: int = Field(default=0, ge=-20, le=40, description="Added to the check.")
    stealth: int | None = Field(default=None, ge=-20, le=40, description="Stealth bonus.")
    passive_perception: int | None = Field(default=None, ge=0, le=50)

    def stealth_bonus(self) -> int:
        return self.stealth if self.stealth is not None else self.modifier("dex")

    def passive_perception_score(self) -> int:
        if self.passive_perception is not None:
            return self.passive_perception
        return 10 + self.modifier("wis")


class Creature(BaseModel):
    """A creature placed on the map.

    ``x`` and ``y`` are the top-left corner of its space, in cells. Positions snap to whole
    cells, or to half cells for Tiny creatures.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: EntityId = Field(default_factory=lambda: new_id("creature"))
    name: str = Field(min_length=1, max_length=MAX_NAME)
    size: Size = Size.MEDIUM
    side: Side = Side.HOSTILE
    x: float = Field(default=0.0, ge=MIN_POSITION, le=MAX_POSITION)
    y: float = Field(default=0.0, ge=MIN_POSITION, le=MAX_POSITION)
    speeds: Speeds = Speeds()
    reach: int = Field(default=5, ge=0, le=MAX_REACH_FEET, description="Melee reach in feet.")
    max_hp: int = Field(default=10, ge=0, le=MAX_HP)
    hp: int = Field(default=10, ge=0, le=MAX_HP)
    temp_hp: int = Field(default=0, ge=0, le=MAX_HP)
    ac: int = Field(default=10, ge=0, le=MAX_AC)
    hidden: bool = Field(default=False, description="Hidden from the players' window.")
    stats: CombatStats | None = Field(
        default=None, description="Ability scores and checks; None: all 10s, no bonuses."
    )
    name_shown_to_players: bool = Field(
        default=True, description="False: the players' window shows a generic label instead."
    )
    shown_while_unseen: bool = Field(
        default=False,
        exclude_if=lambda shown: not shown,
        description="True: the players' window draws it while it hides or is invisible (the "
        "DM's choice; a party member is always drawn to its friends). Left out of the saved "
        "data when False, so a file without it reads and writes as before.",
    )
    statblock: StatBlock | None = Field(
        default=None,
        description="The stat block it was made from: attacks, saves, resistances, senses.",
    )
    level: int | None = Field(
        default=None,
        ge=1,
        le=MAX_CHARACTER_LEVEL,
        exclude_if=lambda level: level is None,
        description="Character level (rest dice); None for a monster or not known. Left out "
        "of the saved data when None, so a file without levels reads as before it existed.",
    )
    action_surges_used: int = Field(
        default=0,
        ge=0,
        le=MAX_ACTION_SURGES,
        exclude_if=lambda used: used == 0,
        description="Action Surge uses spent since its last short or long rest. Left out of "
        "the saved data when 0.",
    )
    spent_uses: tuple[SpentUse, ...] = Field(
        default=(),
        max_length=MAX_SPENT_USES,
        exclude_if=lambda spent: not spent,
        description="Uses of its stat block's limited actions spent (1/Day, Recharge, "
        "Legendary Resistance: rules.limited_actions), kept across combats until a rest gives "
        "them back (rules.rest_uses). Left out of the saved data when empty.",
    )
    colour: str | None = Field(
        default=None,
        pattern=r"^#[0-9a-fA-F]{6}$",
        exclude_if=lambda colour: colour is None,
        description="The token's fill as #rrggbb (the DM's choice, both windows); None: its "
        "side's colour. Left out of the saved data when None, so older files read as before.",
    )
    token_image: str | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_IMAGE_NAME,
        exclude_if=lambda image: image is None,
        description="The token's picture: an image stored with the encounter (its content "
        "hash, never the file's name), drawn on both windows; None: the coloured disc. Left "
        "out of the saved data when None.",
    )
    token_shape: TokenShape = Field(
        default=TokenShape.CIRCLE,
        exclude_if=lambda shape: shape is TokenShape.CIRCLE,
        description="How the image is cropped to the footprint. Left out when a circle.",
    )
    health_shown: HealthShown = Field(
        default=HealthShown.STATE,
        exclude_if=lambda shown: shown is HealthShown.STATE,
        description="What the players' window shows of its health. Left out when its state.",
    )
    miniature: bool = Field(
        default=False,
        exclude_if=lambda miniature: not miniature,
        description="True: a physical miniature stands for it on a table's screen, so the "
        "players' window draws no token (it keeps its plate, its place in the initiative "
        "strip and its sight). Left out of the saved data when False.",
    )
    lasting: LastingState | None = Field(
        default=None,
        exclude_if=lambda lasting: lasting is None or lasting.empty,
        description="Exhaustion, conditions, dying/stable/dead, knockout and a reduced HP "
        "maximum kept between combats (set when a combat ends; a joining combatant starts from "
        "it; while it fights, its combatant holds the current state). Left out of the saved "
        "data when None or empty, so a file without it reads and writes as before.",
    )

    @property
    def speed(self) -> int:
        """Walking speed in feet."""
        return self.speeds.walk

    def space_cells(self, cell_feet: float) -> float:
        """Side of the creature's space in cells on a grid of ``cell_feet``."""
        return self.size.space_feet / cell_feet

    def snap_step(self) -> float:
        """The grid step a position snaps to, in cells: half cells for Tiny creatures."""
        return 0.5 if self.size is Size.TINY else 1.0


def snap_position(value: float, step: float) -> float:
    """Round a coordinate in cells to the nearest multiple of ``step`` (halves round up)."""
    return math.floor(value / step + 0.5) * step
