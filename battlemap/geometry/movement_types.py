"""The values of movement (rules 5 and 6): the ruleset's numbers the geometry takes, and what
a move costs and why (``movement`` computes them; kept apart so that module stays small)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from battlemap.geometry.metrics import Cell
from battlemap.model import EntityId


class StepReason(StrEnum):
    """Why a step cost what it did (beyond one plain step)."""

    DIAGONAL_DOUBLE = "diagonal-double"
    """5-10-5: this is an even-numbered diagonal of the move, so its base cost is doubled."""
    DIFFICULT_TERRAIN = "difficult-terrain"
    """The space entered lies (partly) in difficult terrain: + ``difficult_extra`` base costs
    (listed only when that is above 0)."""
    CREATURE_SPACE = "creature-space"
    """The space entered overlaps another creature's, which counts as difficult terrain
    (listed only when the ruleset says so and difficult terrain costs extra)."""
    WATER = "water"
    """Water without a swim speed: + ``water_extra`` base costs (listed only when above 0)."""
    PRONE_CRAWL = "prone-crawl"
    """Crawling while prone: + ``crawl_extra`` base costs (listed only when above 0)."""
    SQUEEZE = "squeeze"
    """Squeezing through a space one size smaller: + ``squeeze_extra`` base costs (listed even
    when that is 0: a squeezing creature fights worse)."""


class IllegalReason(StrEnum):
    """Why a move is not allowed."""

    WALL = "wall"
    """A step's centre-to-centre segment touches or crosses a wall or blocking obstacle, or a
    large mover has no room even when squeezing."""
    IMPASSABLE = "impassable"
    """A step enters impassable terrain."""
    OFF_MAP = "off-map"
    """A step leaves the map."""
    HOSTILE_SPACE = "hostile-space"
    """A step enters the space of a hostile creature closer in size than
    ``MovementCosts.hostile_pass_size_difference`` (SRD: less than two sizes apart)."""
    ENDS_IN_CREATURE = "ends-in-creature"
    """The move ends in another creature's space."""
    TOO_FAR = "too-far"
    """The move costs more than the movement left."""
    NO_PATH = "no-path"
    """No path reaches the destination."""


@dataclass(frozen=True, slots=True)
class MovementCosts:
    """The ruleset's movement numbers, as plain values (the geometry never reads a ruleset;
    ``battlemap.rules.movement.movement_costs`` makes one from the ruleset's ``movement``).

    The defaults are the srd-5e ruleset's ("Difficult Terrain", "Moving Around Other
    Creatures", and the Legends of Hyrule squeezing rule it takes).

    Attributes:
        difficult_extra: extra feet per foot moved into difficult terrain (a step into it costs
            ``1 + difficult_extra`` base costs); 0 makes difficult terrain cost nothing extra.
        creature_space_is_difficult: another creature's space counts as difficult terrain.
        hostile_pass_size_difference: a hostile creature's space may be passed through only
            when the sizes differ by at least this many steps (0: always).
        crawl_extra: extra feet per foot crawled while prone (a prone mover's step costs
            ``crawl_extra`` more base costs).
        squeeze_extra: extra feet per foot moved while squeezing (a Large or bigger mover
            passing where only a space one size smaller fits); None: movers can't squeeze and
            need room for their whole space everywhere.
        water_extra: extra feet per foot moved into water without a swim speed (flying or
            swimming movers pay nothing extra); added to difficult terrain's.
        may_end_in_creature_space: a move may end in another creature's space (it must still
            be allowed to enter it); False: it may not.

    Raises:
        ValueError: for a negative number.
    """

    difficult_extra: int = 1
    creature_space_is_difficult: bool = True
    hostile_pass_size_difference: int = 2
    crawl_extra: int = 1
    squeeze_extra: int | None = 1
    water_extra: int = 1
    may_end_in_creature_space: bool = False

    def __post_init__(self) -> None:
        numbers = (
            self.difficult_extra,
            self.hostile_pass_size_difference,
            self.crawl_extra,
            self.squeeze_extra or 0,
            self.water_extra,
        )
        if min(numbers) < 0:
            raise ValueError(f"movement costs can't be negative: {self}")


SRD_COSTS = MovementCosts()
"""The srd-5e ruleset's movement numbers: what queries use when given none."""


class StepCost(NamedTuple):
    """One step of a move: where from and to (top-left cells), its cost and why.

    ``terrain_feet`` is the part of ``cost_feet`` the ground entered added: difficult terrain
    and another creature's space (once for both) and water without a swim speed; the steps
    with any of ``TERRAIN_REASONS`` and only those have it above 0. ``crawl_feet`` is the part
    crawling while prone added.

    A named tuple (immutable, like the other results): a found path makes a hundred and more
    of them per query, three times faster than a frozen dataclass.
    """

    start: Cell
    end: Cell
    cost_feet: float
    base_feet: float
    reasons: tuple[StepReason, ...] = ()
    terrain_feet: float = 0.0
    crawl_feet: float = 0.0


StepParts = tuple[float, float, tuple[StepReason, ...], float, float]
"""``StepCost``'s cost_feet, base_feet, reasons, terrain_feet and crawl_feet."""

TERRAIN_REASONS = frozenset(
    {StepReason.DIFFICULT_TERRAIN, StepReason.CREATURE_SPACE, StepReason.WATER}
)
"""Step reasons that mean "the ground entered costs extra" (marked along a dragged path)."""


@dataclass(frozen=True, slots=True)
class OpportunityAttack:
    """A hostile creature's opportunity attack, triggered as the mover leaves its reach.

    ``step_index`` is the index in ``MoveResult.steps`` of the step that leaves the reach; the
    attack happens right before it, with the mover at ``steps[step_index].start``.
    """

    attacker_id: EntityId
    step_index: int
    position: Cell


@dataclass(frozen=True, slots=True)
class MoveResult:
    """Cost and legality of a move.

    Attributes:
        cost_feet: feet spent on the steps taken (up to the first blocked step).
        remaining_feet: movement left afterwards (negative when the move is too long).
        legal: True when the whole path can be walked and ended where it ends.
        reason: why not, when illegal.
        blocker_id: the creature that blocks or is ended in, when that is the reason.
        blocked_step: index of the first step that cannot be taken, if any.
        cells: top-left cell after each step taken (the cells it enters).
        steps: every step taken with its cost and reasons.
        opportunity_attacks: filled by ``opportunity.move_with_opportunity_attacks``.
    """

    cost_feet: float
    remaining_feet: float
    legal: bool
    reason: IllegalReason | None = None
    blocker_id: EntityId | None = None
    blocked_step: int | None = None
    cells: tuple[Cell, ...] = ()
    steps: tuple[StepCost, ...] = ()
    opportunity_attacks: tuple[OpportunityAttack, ...] = field(default=())
