"""Movement (rules 5 and 6): the cost and legality of a dragged path, the cheapest path to a
cell, and every cell a creature can reach.

Positions are the top-left cell of the mover's space (``Creature.x/y``), whole cells; a Tiny
mover keeps its offset inside its square and moves square to square. Spaces that are not a
whole number of cells (Huge on a 10-ft grid) move as the next whole number of cells.

Costs (SRD "Movement and Position", Legends of Hyrule "Squeezing into a Smaller Space"):

* each step costs one cell of feet; a diagonal per the diagonal rule (``5-10-5``: every second
  diagonal of the whole move costs double; the search keeps that parity in its state);
* entering difficult terrain or another creature's space adds ``MovementCosts.difficult_extra``
  times the step's base cost (SRD: 1, "every foot of movement in difficult terrain costs 1
  extra foot"; a creature's space counts only with ``creature_space_is_difficult``); both
  together still add it once ("even if multiple things in a space count as difficult
  terrain"); crawling while prone adds ``MovementCosts.crawl_extra`` times it (SRD: 1),
  entering water without a swim speed ``MovementCosts.water_extra`` times it, squeezing
  ``MovementCosts.squeeze_extra`` times it (Legends of Hyrule: 1); so crawling through
  difficult terrain costs 3 ft per foot;
  a flying mover ignores difficult terrain and water, not creatures;
* a step is blocked when the segment between the two squares' centres touches or crosses a
  movement-blocking wall (walls, closed doors, windows) or obstacle: no slipping diagonally
  past a wall's end; a space of more than one cell needs every one of its cells' segments clear
  and room where it lands (no impassable cell, no wall inside it), or else squeezes: it may pass
  where a space one size smaller fits (only when ``MovementCosts.squeeze_extra`` is not None);
* the mover may pass through a non-hostile creature's space, through a hostile one only if that
  creature is at least ``MovementCosts.hostile_pass_size_difference`` sizes larger or smaller
  (SRD: two), and may never end in another creature's space unless
  ``MovementCosts.may_end_in_creature_space`` (spaces that only touch are fine; Tiny creatures
  may share a square if their spaces do not overlap).
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from battlemap.geometry.body import Body
from battlemap.geometry.creature_grids import space_grids
from battlemap.geometry.errors import InvalidPathError, OffMapError
from battlemap.geometry.map_index import DIRECTIONS, BoolGrid, MapIndex
from battlemap.geometry.metrics import Cell, DiagonalRule, Space, occupied_cell_range
from battlemap.model import EntityId, Side, Size

_SMALLER = {
    Size.SMALL: Size.TINY,
    Size.MEDIUM: Size.SMALL,
    Size.LARGE: Size.MEDIUM,
    Size.HUGE: Size.LARGE,
    Size.GARGANTUAN: Size.HUGE,
}


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


_RANK = {size: rank for rank, size in enumerate(Size)}
"""``Size.rank`` as a table (the property builds a list on every call)."""

LARGEST_SPACE_FEET = max(size.space_feet for size in Size)


def body_cells(body: Body) -> tuple[int, int, int, int]:
    """``body.space.cell_range()`` without building the ``Space`` (``occupied_cell_range``)."""
    return _cells_at(body.x, body.y, body.size, body.cell_feet)


@lru_cache(maxsize=4096)
def _cells_at(x: float, y: float, size: Size, cell_feet: float) -> tuple[int, int, int, int]:
    # Cached: every move query asks it of every creature, and they mostly stand still.
    side = size.space_feet / cell_feet
    return occupied_cell_range(x, y, side, side)


def bodies_near(
    others: Sequence[Body], area: tuple[int, int, int, int]
) -> list[tuple[Body, tuple[int, int, int, int]]]:
    """The bodies with a square inside the cell range ``area`` (inclusive ``x0, y0, x1, y1``),
    each with its cell range (``body_cells``).

    A cheap test on the raw position rejects most bodies before their range is worked out.
    """
    lo_x, lo_y, hi_x, hi_y = area
    found = []
    for other in others:
        x, y = other.x, other.y
        # The space spans [x, x + side]: no square of it can reach the range when x lies
        # past its far end, or more than the largest side before its near end.
        slack = LARGEST_SPACE_FEET / other.cell_feet + 1
        if x > hi_x + 1 or y > hi_y + 1 or x < lo_x - slack or y < lo_y - slack:
            continue
        cells = body_cells(other)
        if cells[0] > hi_x or cells[2] < lo_x or cells[1] > hi_y or cells[3] < lo_y:
            continue
        found.append((other, cells))
    return found


FULL = -1
"""Core index meaning "the whole space carries the mover" (not squeezing)."""
FULL_SPACE = frozenset({FULL})


def footprint_cells(body: Body) -> int:
    """Side, in whole cells, of the square a mover occupies on the grid (Tiny: 1)."""
    return max(1, math.ceil(body.side_cells - 1e-9))


def _squeeze_cells(body: Body) -> int | None:
    smaller = _SMALLER.get(body.size)
    if smaller is None:
        return None
    k_small = max(1, math.ceil(smaller.space_feet / body.cell_feet - 1e-9))
    return k_small if k_small < footprint_cells(body) else None


def is_squeezing(index: MapIndex, body: Body) -> bool:
    """Whether ``body`` stands squeezed where it is (Legends of Hyrule "Squeezing into a
    Smaller Space": "while it's in the smaller space").

    True when its whole space has no room there (an impassable cell, or a movement-blocking
    wall or obstacle between two of its cells) but a space one size smaller fits inside it.
    False for a space of one cell (Medium and smaller: there is nothing smaller to squeeze
    into on the grid), for a body that isn't wholly on the map, and for one that doesn't fit
    even squeezed (placed in a wall by the DM).
    """
    k_small = _squeeze_cells(body)
    if k_small is None:
        return False
    space = body.space
    if not index.on_map(space.x, space.y, space.w, space.h):
        return False
    x, y = math.floor(body.x + 1e-9), math.floor(body.y + 1e-9)
    k = footprint_cells(body)
    if x + k > index.width or y + k > index.height or index.room(k)[y, x]:
        return False
    return any(room[y, x] for room in index.squeeze_cores(k, k_small).rooms)


class MoveContext:
    """Everything a move query needs about the mover and the other creatures, built per query.

    Arrays are full-map grids indexed ``[y, x]`` by the mover's top-left cell. The creature
    grids (``creature_space``, ``hostile_block``) are built on first use: walking a path asks
    about its own cells only, through ``cells_of``.

    Args:
        costs: the ruleset's movement numbers (SRD by default).
        near: when given (inclusive cell range ``x0, y0, x1, y1`` of top-left cells), only the
            creatures whose squares meet the mover's space at some position in that range are
            kept; queries about positions outside it would miss creatures. ``path_cost`` passes
            the range of the path it walks, so the other creatures on the map cost nothing.
    """

    def __init__(
        self,
        index: MapIndex,
        mover: Body,
        others: Sequence[Body],
        rule: DiagonalRule,
        *,
        near: tuple[int, int, int, int] | None = None,
        costs: MovementCosts = SRD_COSTS,
    ) -> None:
        self.index = index
        self.mover = mover
        self.rule = rule
        self.costs = costs
        self.k = footprint_cells(mover)
        self.k_small = _squeeze_cells(mover) if costs.squeeze_extra is not None else None
        self.offset = (mover.x - math.floor(mover.x), mover.y - math.floor(mover.y))
        self.free = index.step_free(self.k)
        self.room = index.room(self.k)
        # Squeezing: the mover's body is carried by a smaller "core" square at offset
        # ``core_offsets[c]`` inside its space; core_steps[c][d] says that core may step.
        # They depend on the map only, so the index keeps them.
        self.core_offsets: list[Cell] = []
        self.core_steps: list[list[BoolGrid]] = []
        self.core_room: list[BoolGrid] = []
        if self.k_small is not None:
            cores = index.squeeze_cores(self.k, self.k_small)
            self.core_offsets, self.core_room, self.core_steps = (
                cores.offsets,
                cores.rooms,
                cores.steps,
            )
        difficult, water = index.terrain_under(self.k)
        if mover.flying:
            difficult = np.zeros_like(difficult)
            water = np.zeros_like(water)
        elif mover.speeds.swim > 0:
            water = np.zeros_like(water)
        self.difficult = difficult
        self.water = water
        if near is None:
            ranged = [(o, body_cells(o)) for o in others]
        else:
            # Positions in ``near`` cover cells up to k - 1 further right and down.
            x0, y0, x1, y1 = near
            ranged = bodies_near(others, (x0, y0, x1 + self.k - 1, y1 + self.k - 1))
        self._ranges = [(o, cells) for o, cells in ranged if o.id != mover.id]
        self.others = [o for o, _ in self._ranges]
        by_kind: dict[tuple[Side, Size], bool] = {}  # a few sides and sizes among many
        self.blocks_passage: dict[EntityId, bool] = {}
        for other in self.others:
            kind = (other.side, other.size)
            blocks = by_kind.get(kind)
            if blocks is None:
                blocks = by_kind[kind] = self._blocks_passage(other)
            self.blocks_passage[other.id] = blocks
        """Per other creature: the mover may not pass through its space."""
        self._cells_of: dict[Cell, list[Body]] | None = None
        self._creature_grids: tuple[BoolGrid, BoolGrid] | None = None
        self._last_window_grids: tuple[tuple[int, int, int, int], tuple[BoolGrid, BoolGrid]] | None
        self._last_window_grids = None

    @property
    def cells_of(self) -> dict[Cell, list[Body]]:
        """The other creatures by the squares they cover (made on first use)."""
        if self._cells_of is None:
            self._cells_of = {}
            for other, (cx0, cy0, cx1, cy1) in self._ranges:
                for cy in range(cy0, cy1 + 1):
                    for cx in range(cx0, cx1 + 1):
                        self._cells_of.setdefault((cx, cy), []).append(other)
        return self._cells_of

    @property
    def creature_space(self) -> BoolGrid:
        """``[y, x]``: the mover's space at top-left (x, y) overlaps another creature's squares."""
        return self._grids()[0]

    @property
    def hostile_block(self) -> BoolGrid:
        """``[y, x]``: ... overlaps the squares of a creature it may not pass through."""
        return self._grids()[1]

    def _grids(self) -> tuple[BoolGrid, BoolGrid]:
        if self._creature_grids is None:
            index = self.index
            self._creature_grids = self.creature_grids_in(0, 0, index.width, index.height)
        return self._creature_grids

    def creature_grids_in(self, x0: int, y0: int, w: int, h: int) -> tuple[BoolGrid, BoolGrid]:
        """(``creature_space``, ``hostile_block``) of the w x h top-left cells from (x0, y0)."""
        if self._creature_grids is not None:
            occupied, hostile = self._creature_grids
            return occupied[y0 : y0 + h, x0 : x0 + w], hostile[y0 : y0 + h, x0 : x0 + w]
        window = (x0, y0, w, h)
        last = self._last_window_grids
        if last is not None and _inside(window, last[0]):  # a part of the last: a view of it
            (lx, ly, _, _), (occupied, hostile) = last
            ys, xs = slice(y0 - ly, y0 - ly + h), slice(x0 - lx, x0 - lx + w)
            return occupied[ys, xs], hostile[ys, xs]
        ranges = [cells for _, cells in self._ranges]
        blocks = [self.blocks_passage[o.id] for o, _ in self._ranges]
        size = (self.index.width, self.index.height)
        grids = space_grids(size, ranges, blocks, self.k, window)
        self._last_window_grids = (window, grids)
        return grids

    def _blocks_passage(self, other: Body) -> bool:
        """SRD: through a hostile creature's space only if it is 2+ sizes larger or smaller
        (``costs.hostile_pass_size_difference``)."""
        return (
            other.is_hostile_to(self.mover)
            and abs(_RANK[other.size] - _RANK[self.mover.size])
            < self.costs.hostile_pass_size_difference
        )

    def start_cell(self) -> Cell:
        return (math.floor(self.mover.x), math.floor(self.mover.y))

    def space_at(self, cell: Cell) -> Space:
        side = self.mover.side_cells
        return Space(cell[0] + self.offset[0], cell[1] + self.offset[1], side, side)

    def footprint_bodies(self, cell: Cell) -> list[Body]:
        """The other creatures with a square under the mover's space at top-left ``cell``."""
        if self.k == 1:
            return list(self.cells_of.get(cell, ()))
        found: dict[str, Body] = {}
        for cy in range(cell[1], cell[1] + self.k):
            for cx in range(cell[0], cell[0] + self.k):
                for body in self.cells_of.get((cx, cy), ()):
                    found[body.id] = body
        return list(found.values())

    def end_blocker(self, cell: Cell) -> Body | None:
        """The creature whose space the mover would end in at ``cell``, if any."""
        space = self.space_at(cell)
        x0, y0 = cell
        x1, y1 = x0 + self.k - 1, y0 + self.k - 1
        # footprint_bodies' order without its cells_of: by the first square under the space
        # (row by row), then as listed.
        under = [
            ((max(cy0, y0), max(cx0, x0)), body)
            for body, (cx0, cy0, cx1, cy1) in self._ranges
            if cx0 <= x1 and x0 <= cx1 and cy0 <= y1 and y0 <= cy1
        ]
        under.sort(key=lambda found: found[0])
        for _, body in under:
            if body.space.overlaps(space):
                return body
        return None

    def base_cost(self, dx: int, dy: int, parity: int) -> tuple[float, int, bool]:
        """(base feet, new diagonal parity, doubled) of a step in direction (dx, dy)."""
        feet = self.mover.cell_feet
        if dx == 0 or dy == 0:
            return feet, parity, False
        if self.rule is DiagonalRule.FIVE_FIVE_FIVE:
            return feet, parity, False
        if self.rule is DiagonalRule.FIVE_TEN_FIVE:
            return (2 * feet, 0, True) if parity else (feet, 1, False)
        return feet * math.sqrt(2), parity, False

    def start_cores(self, cell: Cell) -> frozenset[int]:
        """Which cores may carry the mover at ``cell``: ``FULL`` when its whole space fits,
        else every core square that fits there (``FULL`` if none does, so a creature placed
        in a tight spot can still try to move)."""
        x, y = cell
        if self.room[y, x] or not self.core_offsets:
            return FULL_SPACE
        fitting = frozenset(c for c, room in enumerate(self.core_room) if room[y, x])
        return fitting or FULL_SPACE

    def next_cores(self, cell: Cell, d: int, cores: frozenset[int]) -> frozenset[int]:
        """Cores that can carry the mover after stepping from ``cell`` in direction ``d``.

        The whole space may step when every cell's segment is clear and it fits where it
        lands; a core may step on its own (squeezing) if it already carried the mover or the
        whole space did. Landing where the whole space fits makes it whole again.
        """
        x, y = cell
        dx, dy = DIRECTIONS[d]
        if self.free[d][y, x]:
            return FULL_SPACE
        moved = frozenset(
            c
            for c, steps in enumerate(self.core_steps)
            if (c in cores or FULL in cores) and steps[d][y, x]
        )
        if moved and self.room[y + dy, x + dx]:
            return FULL_SPACE
        return moved

    def step(
        self, cell: Cell, d: int, parity: int, cores: frozenset[int] = frozenset({-1})
    ) -> tuple[StepCost | None, IllegalReason | None, int, frozenset[int]]:
        """Cost of stepping from ``cell`` in direction ``d``, or why it is not allowed.

        Returns the step (or None), the reason when None, the new diagonal parity and the
        cores that carry the mover afterwards.
        """
        dx, dy = DIRECTIONS[d]
        x, y = cell
        nx, ny = x + dx, y + dy
        index = self.index
        if not (0 <= nx <= index.width - self.k and 0 <= ny <= index.height - self.k):
            return None, IllegalReason.OFF_MAP, parity, cores
        new_cores = self.next_cores(cell, d, cores)
        if not new_cores:
            if self._lands_impassable(nx, ny):
                return None, IllegalReason.IMPASSABLE, parity, cores
            return None, IllegalReason.WALL, parity, cores
        entered = self.footprint_bodies((nx, ny))
        if any(self.blocks_passage[b.id] for b in entered):
            return None, IllegalReason.HOSTILE_SPACE, parity, cores
        base, new_parity, doubled = self.base_cost(dx, dy, parity)
        parts = self.step_parts(
            base, doubled, bool(self.difficult[ny, nx]), bool(entered), bool(self.water[ny, nx]),
            not self.room[ny, nx],
        )  # fmt: skip
        return StepCost(cell, (nx, ny), *parts), None, new_parity, new_cores

    def step_parts(
        self,
        base: float,
        doubled: bool,
        difficult_ground: bool,
        entered_creature: bool,
        water: bool,
        squeezing: bool,
    ) -> StepParts:
        """What a step of ``base`` feet costs and why, from what it lands on: ``StepCost``'s
        fields after start and end (the one place these rules are written)."""
        reasons: list[StepReason] = []
        if doubled:
            reasons.append(StepReason.DIAGONAL_DOUBLE)
        costs = self.costs
        difficult_extra = costs.difficult_extra
        if difficult_extra and difficult_ground:
            reasons.append(StepReason.DIFFICULT_TERRAIN)
        if difficult_extra and entered_creature and costs.creature_space_is_difficult:
            reasons.append(StepReason.CREATURE_SPACE)
        difficult = StepReason.DIFFICULT_TERRAIN in reasons or StepReason.CREATURE_SPACE in reasons
        extra = difficult_extra if difficult else 0
        if costs.water_extra and water:
            reasons.append(StepReason.WATER)
            extra += costs.water_extra
        terrain_feet = base * extra
        crawl_feet = 0.0
        if self.mover.prone and costs.crawl_extra:
            reasons.append(StepReason.PRONE_CRAWL)
            extra += costs.crawl_extra
            crawl_feet = base * costs.crawl_extra
        if squeezing:
            # Only reached when squeezing is allowed: else ``next_cores`` needs room to land.
            reasons.append(StepReason.SQUEEZE)
            extra += costs.squeeze_extra or 0
        return base * (1 + extra), base, tuple(reasons), terrain_feet, crawl_feet

    def _lands_impassable(self, nx: int, ny: int) -> bool:
        k = self.k
        return bool(self.index.impassable[ny : ny + k, nx : nx + k].any())

    def blocker_in(self, cell: Cell) -> EntityId | None:
        for body in self.footprint_bodies(cell):
            if self.blocks_passage[body.id]:
                return body.id
        return None


_END = operator.attrgetter("end")


def _inside(window: tuple[int, int, int, int], outer: tuple[int, int, int, int]) -> bool:
    x0, y0, w, h = window
    ox, oy, ow, oh = outer
    return ox <= x0 and oy <= y0 and x0 + w <= ox + ow and y0 + h <= oy + oh


def _direction(dx: int, dy: int) -> int:
    return DIRECTIONS.index((dx, dy))


def expand_waypoints(start: Cell, waypoints: Sequence[tuple[float, float]]) -> list[Cell]:
    """Cells visited from ``start`` through ``waypoints`` in single king steps.

    Waypoints are top-left cells; a first waypoint equal to ``start`` is skipped, repeated
    waypoints are ignored, and two waypoints that are not neighbours are joined by diagonal
    steps first, then straight ones.

    Raises:
        InvalidPathError: when a waypoint is not a finite number.
    """
    cells = [start]
    for wx, wy in waypoints:
        if not (math.isfinite(wx) and math.isfinite(wy)):
            raise InvalidPathError(f"waypoint ({wx}, {wy}) is not a finite position in cells")
        target = (math.floor(wx + 1e-9), math.floor(wy + 1e-9))
        x, y = cells[-1]
        while (x, y) != target:
            x += (target[0] > x) - (target[0] < x)
            y += (target[1] > y) - (target[1] < y)
            cells.append((x, y))
    return cells


def check_on_map(ctx: MoveContext) -> None:
    """Raise ``OffMapError`` unless the mover stands wholly on the map."""
    check_body_on_map(ctx.index, ctx.mover)


def check_body_on_map(index: MapIndex, mover: Body) -> None:
    """Raise ``OffMapError`` unless ``mover`` stands wholly on ``index``'s map."""
    space = mover.space
    if not index.on_map(space.x, space.y, space.w, space.h):
        raise OffMapError(
            f"creature {mover.id} at ({mover.x}, {mover.y}) is not wholly on the "
            f"{index.width}x{index.height} map"
        )


def path_cost(
    index: MapIndex,
    mover: Body,
    waypoints: Sequence[tuple[float, float]],
    others: Sequence[Body],
    rule: DiagonalRule,
    movement_left: float,
    *,
    costs: MovementCosts = SRD_COSTS,
) -> MoveResult:
    """Cost and legality of moving ``mover`` along ``waypoints`` (rule 5).

    Walks the steps in order and stops at the first one that cannot be taken (wall, off map,
    impassable, hostile space). A walked path is still illegal when it costs more than
    ``movement_left`` or ends in another creature's space (unless
    ``costs.may_end_in_creature_space``). An empty path is legal and free.
    ``costs`` are the ruleset's movement numbers (SRD by default).

    Raises:
        OffMapError: when the mover does not start wholly on the map.
        InvalidPathError: for a non-finite waypoint.
    """
    check_body_on_map(index, mover)
    cells = expand_waypoints((math.floor(mover.x), math.floor(mover.y)), waypoints)
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    near = (min(xs), min(ys), max(xs), max(ys))
    ctx = MoveContext(index, mover, others, rule, near=near, costs=costs)
    return walk(ctx, cells, movement_left)


def walk(ctx: MoveContext, cells: Sequence[Cell], movement_left: float) -> MoveResult:
    """Evaluate the single-step path ``cells`` (first = start) in ``ctx``.

    A path of plain steps (the whole space may take each, none into a space it may not pass)
    is costed over arrays (``walking.plain_steps``); any other is walked step by step.
    """
    from battlemap.geometry.walking import plain_steps  # it imports this module

    plain = plain_steps(ctx, cells)
    if plain is None:
        return walk_step_by_step(ctx, cells, movement_left)
    return _finish(ctx, *plain, movement_left)


def walk_step_by_step(ctx: MoveContext, cells: Sequence[Cell], movement_left: float) -> MoveResult:
    """``walk``, one ``MoveContext.step`` at a time (any path: blocked steps, squeezing)."""
    steps: list[StepCost] = []
    parity = 0
    total = 0.0
    cores = ctx.start_cores(cells[0]) if cells else FULL_SPACE
    for i in range(len(cells) - 1):
        (x, y), (nx, ny) = cells[i], cells[i + 1]
        if max(abs(nx - x), abs(ny - y)) != 1:
            raise InvalidPathError(f"cells {cells[i]} and {cells[i + 1]} are not neighbours")
        step, illegal, parity, cores = ctx.step((x, y), _direction(nx - x, ny - y), parity, cores)
        if step is None:
            blocker = ctx.blocker_in((nx, ny)) if illegal is IllegalReason.HOSTILE_SPACE else None
            return MoveResult(
                total,
                movement_left - total,
                False,
                illegal,
                blocker,
                i,
                tuple(s.end for s in steps),
                tuple(steps),
            )
        steps.append(step)
        total += step.cost_feet
    return _finish(ctx, steps, total, movement_left)


def _finish(
    ctx: MoveContext, steps: list[StepCost], total: float, movement_left: float
) -> MoveResult:
    """The result of a path whose every step could be taken: legal unless it ends in another
    creature's space or costs more than ``movement_left``."""
    entered = tuple(map(_END, steps))
    if steps and not ctx.costs.may_end_in_creature_space:
        ender = ctx.end_blocker(steps[-1].end)
        if ender is not None:
            return MoveResult(
                total,
                movement_left - total,
                False,
                IllegalReason.ENDS_IN_CREATURE,
                ender.id,
                None,
                entered,
                tuple(steps),
            )
    if total > movement_left + 1e-9:
        return MoveResult(
            total,
            movement_left - total,
            False,
            IllegalReason.TOO_FAR,
            None,
            None,
            entered,
            tuple(steps),
        )
    return MoveResult(total, movement_left - total, True, None, None, None, entered, tuple(steps))
