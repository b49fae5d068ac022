"""A ruling shown to the table: the DM's own results, cut to what the players may know.

Plain data in and out (no scene), so "nothing secret reaches the players' screen" is tested
on the data. The DM's targeting overlay (``TargetFacts``: the cover lines traced with what
blocked each, the reach) and the last recorded move (the drag's ``MovePlan`` and
``Evaluated``) go in as the DM saw them; nothing is traced or measured again. What comes out
keeps only:

* cover lines that lie wholly over cells the players know (visible or explored, or any cell
  without fog) and, when blocked, are blocked by something in their ``PlayerView`` (a wall,
  window, door or obstacle they are shown, a creature drawn for them). A line blocked by
  something they don't know (a wall in unexplored rock, a hidden creature) is left out,
  neither drawn blocked (that would show where the secret is) nor clear (that would be
  false). The degree is the DM's ruling and is said as it is; the count of lines is not,
  so a left-out line is not hinted at. The DM is told how many were left out;
* the reach ring (squares, no walls: it tells only distances);
* the moved path from where the players first see it to its end (each square under the
  mover's footprint visible now), with the feet of that part;
* the names the players' window uses (a masked creature stays "Medium creature").

A ruling about a creature the players' window does not draw is refused
(``RulingNotShownError``), as is a move they saw none of. A cover ruling whose every line is
left out still shows its card and the reach ring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from battlemap.geometry.metrics import Cell, PointXY
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.ui.drag.feedback import extra_cost_kinds, feet
from battlemap.ui.players.projection import PlayerView

# The engine and the heavier geometry are imported in the functions that use them, so
# the window is built without them (issue 17; tests/ui/test_start_up_imports.py).
if TYPE_CHECKING:
    from battlemap.geometry.cover import LineTrace
    from battlemap.rules.move_plan import Evaluated, MovePlan
    from battlemap.ui.targeting.facts import TargetFacts

SAMPLE_STEP_CELLS = 0.1
"""Distance between the points at which a line's cells are looked up (a line clipping a
cell's corner for less than this may go unlooked-at: the cells either side are)."""
EDGE = 1e-6


class RulingKind(StrEnum):
    COVER = "cover"
    """Cover corner lines and the attacker's reach ring, with a target picked."""
    PATH = "path"
    """The last recorded move's path and what it cost."""


class Tone(StrEnum):
    """How a caption line reads: plain, or good, a warning, bad for the attacker or mover."""

    PLAIN = "plain"
    GOOD = "good"
    WARN = "warn"
    BAD = "bad"


Caption = tuple[tuple[str, Tone], ...]


class RulingNotShownError(ValueError):
    """The ruling can't be shown to the players; the message says why (for the DM)."""


@dataclass(frozen=True)
class RulingLine:
    start: PointXY
    end: PointXY
    blocked: bool


@dataclass(frozen=True)
class ShownRuling:
    """What the players' window draws for one shown ruling (cells).

    Attributes:
        lines: cover corner lines the players may see (see the module docstring).
        target_square: the target's square the lines go to (x, y, side), or None.
        reach_cells: the attacker's reach ring, squares within its reach.
        path: centres of the mover's footprint along the shown part of the path.
        footprint: the mover's side in cells (for the path's end square).
        caption: the card's lines, the first one its title.
        anchor: where the card sits (cells): beside the target or the path's end.
        focus: the box the card goes beside (x, y, width, height in cells): the target's
            whole space, or the mover's at the path's end.
        left_out: cover lines left out as secret (told to the DM, never drawn).
    """

    kind: RulingKind
    caption: Caption
    anchor: PointXY
    focus: tuple[float, float, float, float]
    lines: tuple[RulingLine, ...] = ()
    target_square: tuple[float, float, float] | None = None
    reach_cells: frozenset[Cell] = frozenset()
    path: tuple[PointXY, ...] = ()
    footprint: float = 1.0
    left_out: int = 0


def known_cells(view: PlayerView) -> frozenset[Cell] | None:
    """Cells whose map the players know (visible or explored); None without fog (all)."""
    return None if view.visible is None else view.visible | view.explored


def _point_known(point: PointXY, known: frozenset[Cell]) -> bool:
    """A point on a cell edge or corner is known when a cell it touches is."""
    x, y = point
    xs = {math.floor(x - EDGE), math.floor(x + EDGE)}
    ys = {math.floor(y - EDGE), math.floor(y + EDGE)}
    return any((cx, cy) in known for cx in xs for cy in ys)


def line_over_known(start: PointXY, end: PointXY, known: frozenset[Cell] | None) -> bool:
    """Whether every point of the line (sampled every ``SAMPLE_STEP_CELLS``) lies in or on a
    known cell."""
    if known is None:
        return True
    length = math.hypot(end[0] - start[0], end[1] - start[1])
    samples = max(1, math.ceil(length / SAMPLE_STEP_CELLS))
    return all(
        _point_known(
            (
                start[0] + (end[0] - start[0]) * i / samples,
                start[1] + (end[1] - start[1]) * i / samples,
            ),
            known,
        )
        for i in range(samples + 1)
    )


def _blocker_shown(line: LineTrace, view: PlayerView) -> bool:
    from battlemap.geometry.cover import BlockerKind

    kind, blocker = line.blocker_kind, line.blocker_id
    if blocker is None:
        return False
    if kind is BlockerKind.CREATURE:
        return any(token.key == blocker for token in view.tokens)
    if kind is BlockerKind.OBSTACLE:
        return any(obstacle.id == blocker for obstacle in view.obstacles)
    return any(wall.id == blocker for wall in view.walls)  # walls, doors, windows


def shown_lines(lines: tuple[LineTrace, ...], view: PlayerView) -> tuple[RulingLine, ...]:
    """The cover lines the players may see (see the module docstring)."""
    known = known_cells(view)
    return tuple(
        RulingLine(line.start, line.end, line.blocked)
        for line in lines
        if line_over_known(line.start, line.end, known)
        and (not line.blocked or _blocker_shown(line, view))
    )


def _label(view: PlayerView, creature_id: EntityId, role: str) -> str:
    for token in view.tokens:
        if token.key == creature_id:
            return token.label
    raise RulingNotShownError(f"the {role} is not on the players' window")


def cover_ruling(
    facts: TargetFacts,
    view: PlayerView,
    bonus: int | None,
    reach_cells: frozenset[Cell],
) -> ShownRuling:
    """The cover lines and the reach ring of ``facts`` as the players may see them.

    Args:
        facts: the targeting overlay's facts (what the DM sees).
        view: the players' projection now.
        bonus: the ruleset's AC bonus for the degree (None: total cover).
        reach_cells: the attacker's reach ring (``geometry.reach.cells_within_reach``).

    Raises:
        RulingNotShownError: the attacker or the target is not drawn for the players.
    """
    attacker = _label(view, facts.attacker.id, "attacker")
    target = _label(view, facts.target.id, "target")
    cover = facts.cover
    lines = shown_lines(cover.lines, view)
    degree = cover.degree
    if degree is CoverDegree.NONE:
        verdict = ("no cover", Tone.GOOD)
    elif bonus is None or degree is CoverDegree.TOTAL:
        verdict = ("total cover: can't be targeted", Tone.BAD)
    else:
        verdict = (f"{degree.value} cover: +{bonus} AC", Tone.WARN)
    reach = facts.reach
    if reach.reach_feet <= 0:
        reach_line = ("no melee reach", Tone.PLAIN)
    elif reach.within:
        reach_line = (f"within reach ({reach.reach_feet:g} ft)", Tone.GOOD)
    else:
        reach_line = (f"out of reach ({reach.reach_feet:g} ft)", Tone.BAD)
    square = cover.target_square
    space = facts.target.space
    return ShownRuling(
        kind=RulingKind.COVER,
        caption=(
            (f"{attacker} → {target} · {facts.distance_feet:g} ft", Tone.PLAIN),
            verdict,
            reach_line,
        ),
        anchor=(space.x1, space.y),
        focus=(space.x, space.y, space.w, space.h),
        lines=lines,
        target_square=(square.x, square.y, square.w),
        reach_cells=reach_cells,
        left_out=len(cover.lines) - len(lines),
    )


def path_ruling(plan: MovePlan, evaluated: Evaluated, view: PlayerView) -> ShownRuling:
    """The recorded move's path from where the players first see the mover to its end, and
    the feet of that part (``MoveResult``'s steps, as the DM's cost card adds them).

    Raises:
        RulingNotShownError: the mover is not drawn for the players, or they saw none of
            its path's end.
    """
    mover = _label(view, plan.mover_id, "creature that moved")
    result = evaluated.result
    side = plan.footprint_side()
    ox, oy = plan.offset
    walked = [plan.start, *result.cells]
    whole = max(1, math.ceil(side - 1e-9))

    def seen(cell: Cell) -> bool:
        if view.visible is None:
            return True
        return all(
            (cell[0] + dx, cell[1] + dy) in view.visible
            for dx in range(whole)
            for dy in range(whole)
        )

    first = len(walked)
    while first > 0 and seen(walked[first - 1]):
        first -= 1
    shown = walked[first:]
    if len(shown) < 2:
        raise RulingNotShownError("the players saw none of that move")
    steps = result.steps[first:]
    spent = sum(step.cost_feet for step in steps)
    extra = sum(step.terrain_feet for step in steps)
    caption = [(f"{mover} moved {feet(spent)} ft", Tone.PLAIN)]
    if extra > 0:
        caption.append((f"+{feet(extra)} ft: {extra_cost_kinds(steps)}", Tone.WARN))
    if first > 0:
        caption.append(("(the part you saw)", Tone.PLAIN))
    end = shown[-1]
    return ShownRuling(
        kind=RulingKind.PATH,
        caption=tuple(caption),
        anchor=(end[0] + ox + side, end[1] + oy),
        focus=(end[0] + ox, end[1] + oy, side, side),
        path=tuple((c[0] + ox + side / 2, c[1] + oy + side / 2) for c in shown),
        footprint=side,
    )
