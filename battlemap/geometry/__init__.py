"""Geometry of the battle map with shapely 2, no Qt: distance, reach and range, cover,
flanking, movement cost and reachable area, opportunity attacks, sight and visibility.

Coordinates are cells as in ``battlemap.model``. Build one ``MapIndex`` per map change and pass
it to every query; creatures enter queries as ``Body`` values (a ``Creature`` plus the combat
flags the caller tracks). Results carry their reasons for the UI to draw and the rules to use.
"""

from battlemap.geometry.body import Body, bodies_from_encounter_creatures
from battlemap.geometry.cover import (
    BlockerKind,
    CoverResult,
    LineTrace,
    cover,
    cover_all_pairs,
    cover_from_point,
    cover_to_many,
)
from battlemap.geometry.errors import (
    GeometryError,
    InvalidPathError,
    OffMapError,
    UnknownDiagonalRuleError,
)
from battlemap.geometry.flanking import (
    FlankReason,
    FlankResult,
    FlankTerms,
    Threat,
    flanking,
    line_flanks,
    threat,
    threatens,
)
from battlemap.geometry.map_index import MapIndex, MapProblem
from battlemap.geometry.metrics import (
    DiagonalRule,
    Space,
    cells_to_feet,
    feet_to_cells,
    grid_steps_to_feet,
    space_distance_feet,
)
from battlemap.geometry.movement import (
    IllegalReason,
    MoveResult,
    OpportunityAttack,
    StepCost,
    StepReason,
    path_cost,
)
from battlemap.geometry.opportunity import (
    HowMoved,
    move_with_opportunity_attacks,
    opportunity_attacks,
)
from battlemap.geometry.reach import (
    InvalidRangeError,
    RangeBand,
    RangeResult,
    ReachResult,
    distance_feet,
    range_band,
    ranged_attack,
    within_reach,
)
from battlemap.geometry.search import ReachableArea, cheapest_path, reachable_area
from battlemap.geometry.sight import (
    SightReason,
    SightResult,
    can_see,
    line_of_sight,
    point_sees_point,
    visibility_polygon,
)

__all__ = [
    "BlockerKind",
    "Body",
    "CoverResult",
    "DiagonalRule",
    "FlankReason",
    "FlankResult",
    "FlankTerms",
    "GeometryError",
    "HowMoved",
    "IllegalReason",
    "InvalidPathError",
    "InvalidRangeError",
    "LineTrace",
    "MapIndex",
    "MapProblem",
    "MoveResult",
    "OffMapError",
    "OpportunityAttack",
    "RangeBand",
    "RangeResult",
    "ReachResult",
    "ReachableArea",
    "SightReason",
    "SightResult",
    "Space",
    "StepCost",
    "StepReason",
    "Threat",
    "UnknownDiagonalRuleError",
    "bodies_from_encounter_creatures",
    "can_see",
    "cells_to_feet",
    "cheapest_path",
    "cover",
    "cover_all_pairs",
    "cover_from_point",
    "cover_to_many",
    "distance_feet",
    "feet_to_cells",
    "flanking",
    "grid_steps_to_feet",
    "line_flanks",
    "line_of_sight",
    "move_with_opportunity_attacks",
    "opportunity_attacks",
    "path_cost",
    "point_sees_point",
    "range_band",
    "ranged_attack",
    "reachable_area",
    "space_distance_feet",
    "threat",
    "threatens",
    "visibility_polygon",
    "within_reach",
]
