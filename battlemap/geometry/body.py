"""Bodies: the immutable view of a creature that geometry queries take.

A ``Body`` joins a ``Creature``'s size, side, position, reach and speeds with the per-combat
flags the combat engine tracks (prone, incapacitated, ...). The geometry never imports the
combat engine; the caller passes the flags.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from battlemap.geometry.metrics import Space
from battlemap.model import Creature, EntityId, Grid, Side, Size, Speeds


@dataclass(frozen=True, slots=True)
class Body:
    """A creature as the geometry sees it.

    Attributes:
        id: the creature's id; results name blockers and attackers by it.
        size: size category (space side = ``size.space_feet / cell_feet``).
        side: party, hostile or neutral (``Side.is_hostile_to``).
        x, y: top-left corner of the space, in cells.
        cell_feet: feet per cell of the grid the body stands on.
        reach_feet: melee reach; 0 means it cannot make melee attacks (nor flank).
        speeds: walking, flying, swimming, ... speeds in feet.
        prone, incapacitated, invisible, blinded: conditions that change geometry answers.
        reaction_spent: it cannot make an opportunity attack.
        disengaged: its movement provokes no opportunity attacks this turn.
        flying: it moves through the air (ignores difficult terrain and water, not walls).
    """

    id: EntityId
    size: Size
    side: Side
    x: float
    y: float
    cell_feet: float = 5.0
    reach_feet: float = 5.0
    speeds: Speeds = field(default_factory=Speeds)
    prone: bool = False
    incapacitated: bool = False
    invisible: bool = False
    blinded: bool = False
    reaction_spent: bool = False
    disengaged: bool = False
    flying: bool = False

    @classmethod
    def from_creature(
        cls,
        creature: Creature,
        grid: Grid,
        *,
        prone: bool = False,
        incapacitated: bool = False,
        invisible: bool = False,
        blinded: bool = False,
        reaction_spent: bool = False,
        disengaged: bool = False,
        flying: bool = False,
    ) -> Body:
        """The body of ``creature`` on ``grid`` with the given combat flags."""
        return cls(
            id=creature.id,
            size=creature.size,
            side=creature.side,
            x=creature.x,
            y=creature.y,
            cell_feet=grid.cell_feet,
            reach_feet=float(creature.reach),
            speeds=creature.speeds,
            prone=prone,
            incapacitated=incapacitated,
            invisible=invisible,
            blinded=blinded,
            reaction_spent=reaction_spent,
            disengaged=disengaged,
            flying=flying,
        )

    @property
    def side_cells(self) -> float:
        """Side of the space in cells (0.5 for Tiny on a 5-ft grid)."""
        return self.size.space_feet / self.cell_feet

    @property
    def space(self) -> Space:
        """The square the body controls, in cells."""
        side = self.side_cells
        return Space(self.x, self.y, side, side)

    def moved_to(self, x: float, y: float) -> Body:
        """The same body with its top-left corner at ``(x, y)``."""
        return replace(self, x=x, y=y)

    def is_hostile_to(self, other: Body) -> bool:
        return self.side.is_hostile_to(other.side)

    def is_ally_of(self, other: Body) -> bool:
        """Same side and a different creature."""
        return self.side == other.side and self.id != other.id


def bodies_from_encounter_creatures(
    creatures: tuple[Creature, ...] | list[Creature], grid: Grid
) -> list[Body]:
    """Bodies with no combat flags for every creature (handy for the UI and tests)."""
    return [Body.from_creature(c, grid) for c in creatures]
