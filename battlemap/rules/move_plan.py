"""What a token drag means, without Qt: the mover's budget, the path it takes, what it costs.

A ``MovePlan`` is made once when a drag starts. It takes the geometry's bodies with the combat
flags, the mover's movement budget (in combat: what the engine says is left; outside combat:
no limit, but the reachable area still shows its speed), and the reachable area (computed once
here, never per mouse move). ``evaluate`` answers each mouse move from a cache keyed by the
cells involved, so moving inside one cell costs nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from battlemap.geometry import (
    IllegalReason,
    MapIndex,
    MoveResult,
    ReachableArea,
    cheapest_path,
    move_with_opportunity_attacks,
    reachable_area,
)
from battlemap.geometry.errors import GeometryError
from battlemap.geometry.metrics import Cell
from battlemap.geometry.movement import TERRAIN_REASONS, expand_waypoints
from battlemap.model.combat import SpeedMode
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.attack_situation import combat_bodies
from battlemap.rules.movement import diagonal_rule, move_allowance, movement_costs
from battlemap.rules.opportunity import sight_of_mover
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import is_dead

EXTRA_COST_REASONS = TERRAIN_REASONS
"""Step reasons that mean "this cell counts as difficult terrain" (marked along the path)."""


def reason_text(result: MoveResult, names: dict[EntityId, str]) -> str:
    """A short, readable reason for an illegal move ("" when legal)."""
    reason = result.reason
    who = names.get(result.blocker_id, "a creature") if result.blocker_id else "a creature"
    texts = {
        IllegalReason.WALL: "blocked by a wall",
        IllegalReason.IMPASSABLE: "impassable terrain",
        IllegalReason.OFF_MAP: "off the map",
        IllegalReason.HOSTILE_SPACE: f"can't pass through {who}'s space",
        IllegalReason.ENDS_IN_CREATURE: f"can't end in {who}'s space",
        IllegalReason.TOO_FAR: "beyond its movement",
        IllegalReason.NO_PATH: "no path there",
    }
    return texts.get(reason, "") if reason is not None else ""


@dataclass(frozen=True)
class Evaluated:
    """One evaluated drag: the geometry's answer, the cells the DM asked for, the reason.

    ``intended`` runs from the start through every waypoint to the cursor in single steps;
    ``result.cells`` is the part of it that could be walked.
    """

    result: MoveResult
    intended: tuple[Cell, ...]
    reason: str


class MovePlan:
    """The geometry of one drag of one creature, made when the drag starts.

    Args:
        encounter: the encounter as the drag starts.
        ruleset: its ruleset (diagonal rule, conditions).
        index: ``MapIndex.build(encounter)``, built once per map change by the caller.
        mover_id: the creature being dragged.
    """

    def __init__(
        self, encounter: Encounter, ruleset: Ruleset, index: MapIndex, mover_id: EntityId
    ) -> None:
        self.encounter = encounter
        self.ruleset = ruleset
        self.index = index
        self.mover_id = mover_id
        self.rule = diagonal_rule(ruleset)
        self.costs = movement_costs(ruleset)
        bodies = combat_bodies(encounter, ruleset)
        mover = next(b for b in bodies if b.id == mover_id)
        combat = encounter.combat
        flying = combat is not None and combat.has(mover_id)
        if flying and combat.combatant(mover_id).turn.speed_mode is SpeedMode.FLY:  # type: ignore[union-attr]
            mover = replace(mover, flying=True)
        self.mover = mover
        # A corpse is an object, not a creature: it neither blocks the way nor threatens
        # (the scripted session's fighter was refused "can't pass through Goblin 2's space").
        self.others = [
            b for b in bodies if b.id != mover_id and not is_dead(encounter, EntityId(b.id))
        ]
        self.others_by_id = {b.id: b for b in self.others}
        self.snap_step = encounter.creature(mover_id).snap_step()
        """The grid step a drop snaps the mover to (half cells for Tiny), read per mouse move."""
        self.names = {c.id: c.name for c in encounter.creatures}
        self.budget = move_allowance(encounter, ruleset, mover_id)
        self.start: Cell = (math.floor(mover.x), math.floor(mover.y))
        self.offset = (mover.x - self.start[0], mover.y - self.start[1])
        self.area: ReachableArea | None
        try:
            self.area = reachable_area(
                index, mover, self.others, self.rule, self.budget.shade_feet, costs=self.costs
            )
        except GeometryError:
            self.area = None  # a creature placed off the map: nothing to shade
        self._cache: dict[tuple[tuple[Cell, ...], Cell, bool], Evaluated] = {}

    def evaluate(self, waypoints: tuple[Cell, ...], cursor: Cell, cheapest: bool) -> Evaluated:
        """The move through ``waypoints`` to ``cursor`` (top-left cells), with its OAs.

        ``cheapest`` routes from the last waypoint (or the start) to the cursor by the
        cheapest path instead of a straight line. Results are cached per cells.
        """
        key = (waypoints, cursor, cheapest)
        found = self._cache.get(key)
        if found is None:
            found = self._evaluate(waypoints, cursor, cheapest)
            if len(self._cache) > 512:
                self._cache.clear()
            self._cache[key] = found
        return found

    def _evaluate(self, waypoints: tuple[Cell, ...], cursor: Cell, cheapest: bool) -> Evaluated:
        cells: list[tuple[float, float]] = list(waypoints)
        if cheapest:
            cells.extend(self._cheapest_leg(waypoints[-1] if waypoints else self.start, cursor))
        else:
            cells.append(cursor)
        intended = expand_waypoints(self.start, cells)
        try:
            result = move_with_opportunity_attacks(
                self.index,
                self.mover,
                cells,
                self.others,
                self.rule,
                self.budget.left,
                costs=self.costs,
            )
        except GeometryError:
            result = MoveResult(0.0, self.budget.left, False, IllegalReason.OFF_MAP)
        if result.opportunity_attacks and self.encounter.combat is not None:
            # Only those who see the mover in the light where it leaves (as the move's
            # resolution offers them: rules.opportunity.offers_from_move).
            seen = sight_of_mover(
                self.encounter,
                self.ruleset,
                self.mover_id,
                result.opportunity_attacks,
                self.index,
            )
            kept = tuple(
                oa for oa, v in zip(result.opportunity_attacks, seen, strict=True) if v.sees
            )
            result = replace(result, opportunity_attacks=kept)
        return Evaluated(result, tuple(intended), reason_text(result, self.names))

    def _cheapest_leg(self, origin: Cell, cursor: Cell) -> list[Cell]:
        """Single-step cells from ``origin`` (exclusive) to ``cursor`` along the cheapest path;
        just the cursor when there is none (the straight leg then shows why)."""
        if origin == self.start and self.area is not None and cursor in self.area.cost_feet:
            return self.area.path_to(cursor)[1:]
        mover = self.mover.moved_to(origin[0] + self.offset[0], origin[1] + self.offset[1])
        try:
            found = cheapest_path(
                self.index, mover, cursor, self.others, self.rule, costs=self.costs
            )
        except GeometryError:
            return [cursor]
        return list(found.cells) if found.steps else [cursor]

    def footprint_side(self) -> float:
        return self.mover.side_cells
