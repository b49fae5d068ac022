"""Geometry of the battle map with shapely 2, no Qt: distance, reach and range, cover,
flanking, movement cost and reachable area, opportunity attacks, sight and visibility.

Coordinates are cells as in ``battlemap.model``. Build one ``MapIndex`` per map change and pass
it to every query; creatures enter queries as ``Body`` values (a ``Creature`` plus the combat
flags the caller tracks). Results carry their reasons for the UI to draw and the rules to use.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from battlemap.geometry.body import Body, bodies_from_encounter_creatures
    from battlemap.geometry.cover import (
        BlockerKind,
        CoverResult,
        LineTrace,
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

# Each name's module. A name is imported from it on first use (PEP 562), so a module that
# needs only ``geometry.body`` or ``geometry.metrics`` no longer pulls cover, sight and search
# at start-up (issue 17). The functions ``cover`` and ``flanking`` are not here: once their
# module is imported, Python binds its name on the package; import them from their modules.
_HOMES = {
    "Body": "body",
    "bodies_from_encounter_creatures": "body",
    "BlockerKind": "cover",
    "CoverResult": "cover",
    "LineTrace": "cover",
    "cover_all_pairs": "cover",
    "cover_from_point": "cover",
    "cover_to_many": "cover",
    "GeometryError": "errors",
    "InvalidPathError": "errors",
    "OffMapError": "errors",
    "UnknownDiagonalRuleError": "errors",
    "FlankReason": "flanking",
    "FlankResult": "flanking",
    "FlankTerms": "flanking",
    "Threat": "flanking",
    "line_flanks": "flanking",
    "threat": "flanking",
    "threatens": "flanking",
    "MapIndex": "map_index",
    "MapProblem": "map_index",
    "DiagonalRule": "metrics",
    "Space": "metrics",
    "cells_to_feet": "metrics",
    "feet_to_cells": "metrics",
    "grid_steps_to_feet": "metrics",
    "space_distance_feet": "metrics",
    "IllegalReason": "movement",
    "MoveResult": "movement",
    "OpportunityAttack": "movement",
    "StepCost": "movement",
    "StepReason": "movement",
    "path_cost": "movement",
    "HowMoved": "opportunity",
    "move_with_opportunity_attacks": "opportunity",
    "opportunity_attacks": "opportunity",
    "InvalidRangeError": "reach",
    "RangeBand": "reach",
    "RangeResult": "reach",
    "ReachResult": "reach",
    "distance_feet": "reach",
    "range_band": "reach",
    "ranged_attack": "reach",
    "within_reach": "reach",
    "ReachableArea": "search",
    "cheapest_path": "search",
    "reachable_area": "search",
    "SightReason": "sight",
    "SightResult": "sight",
    "can_see": "sight",
    "line_of_sight": "sight",
    "point_sees_point": "sight",
    "visibility_polygon": "sight",
}

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
    "cover_all_pairs",
    "cover_from_point",
    "cover_to_many",
    "distance_feet",
    "feet_to_cells",
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


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # the next look-up finds it without this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
