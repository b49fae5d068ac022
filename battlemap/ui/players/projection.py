"""The players' projection of an encounter: only what the party may know.

Pure Python (no Qt), so the rule "nothing secret reaches the players' screen" is tested on
plain data. The players' scene is built from a ``PlayerView`` alone and never sees the
``Encounter``: a hidden creature, a monster's HP, a DM note or a secret trap cannot leak
into it because they are not in the projection.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum

from shapely.geometry.base import BaseGeometry

from battlemap.model.combat import Combatant
from battlemap.model.creature import Creature, Side, Size, TokenShape
from battlemap.model.encounter import Background, Encounter
from battlemap.model.features import Obstacle, Point, TerrainRegion, Wall
from battlemap.model.fog import Cell, FogMode
from battlemap.model.grid import Grid
from battlemap.model.ids import EntityId
from battlemap.model.traits import HealthShown
from battlemap.rules.schema import Ruleset
from battlemap.rules.schema_roles import ConditionRoles
from battlemap.rules.vitals import looks_bloodied
from battlemap.ui.players.wall_cells import KnownCells, walls_touching


class HealthState(StrEnum):
    """What players may know of a creature's health, instead of numbers."""

    UNHURT = "unhurt"
    """More than half its hit points."""
    BLOODIED = "bloodied"
    """Half its hit points or fewer, but above 0."""
    DOWN = "down"
    """At 0 hit points and not dead."""
    DEAD = "dead"


def health_state(
    creature: Creature,
    dead: bool = False,
    ruleset: Ruleset | None = None,
    combatant: Combatant | None = None,
) -> HealthState:
    """Bloodied as the engine says (``looks_bloodied``: the ruleset's threshold of the
    effective maximum, the same reading as the DM's token; never without a bloodied state)."""
    if dead:
        return HealthState.DEAD
    if creature.hp <= 0:
        return HealthState.DOWN
    if looks_bloodied(ruleset, creature, combatant):
        return HealthState.BLOODIED
    return HealthState.UNHURT


def shown_health(creature: Creature, state: HealthState) -> HealthState:
    """``state`` as the DM lets the players see it: without bloodied under ``NONE``."""
    if creature.health_shown is HealthShown.NONE and state is HealthState.BLOODIED:
        return HealthState.UNHURT
    return state


def health_left(creature: Creature) -> float | None:
    """The share of hit points left rounded to eighths (never 0 while above 0 HP, never
    whole while hurt), for ``HealthShown.RING``; None otherwise."""
    if creature.health_shown is not HealthShown.RING or creature.max_hp <= 0:
        return None
    share = max(0.0, min(1.0, creature.hp / creature.max_hp))
    eighths = round(share * 8)
    if creature.hp > 0:
        eighths = max(1, eighths)
    if creature.hp < creature.max_hp:
        eighths = min(7, eighths)
    return eighths / 8


@dataclass(frozen=True)
class PlayerToken:
    """A creature as the players see it: a label, a place and a health state; no numbers."""

    key: EntityId
    label: str
    side: Side
    size: Size
    x: float
    y: float
    space_cells: float
    health: HealthState
    conditions: tuple[str, ...] = ()
    acting_now: bool = False
    unseen: bool = False
    """Hiding or invisible, drawn only because it is the party's own or the DM shows it."""
    colour: str | None = None
    """The token's colour the DM chose (``Creature.colour``); None: its side's."""
    exhaustion: int = 0
    """Its exhaustion level, shown as an icon with the count (as on the DM's map)."""
    image: str | None = None
    """Its token's picture (``Creature.token_image``: a content hash, not a file name)."""
    health_left: float | None = None
    """The share of its hit points left, in eighths (``HealthShown.RING``), else None."""
    shape: TokenShape = TokenShape.CIRCLE
    miniature: bool = False
    """A physical miniature stands there (``Creature.miniature``): no token is drawn."""


@dataclass(frozen=True)
class TurnInfo:
    """What the banner and the initiative strip say.

    On the turn of a creature the players cannot see, it says what it said on the last turn
    they could see (the round and who): nothing new. ``round`` is None when no such turn came
    yet this combat (an unseen creature acts first)."""

    round: int | None
    acting_label: str | None
    order: tuple[str, ...]
    """Labels of the visible combatants in initiative order."""


@dataclass(frozen=True)
class PlayerView:
    """Everything the players' window may draw."""

    grid: Grid
    background: Background | None
    walls: tuple[Wall, ...]
    obstacles: tuple[Obstacle, ...]
    terrain: tuple[TerrainRegion, ...]
    tokens: tuple[PlayerToken, ...]
    visible: frozenset[Cell] | None
    """Cells shown clearly; None when there is no fog."""
    explored: frozenset[Cell]
    """Cells shown dimmed, without creatures."""
    turn: TurnInfo | None = None
    background_clip: tuple[int, int, int, int] | None = None
    """The part of the map image the players may see, in cells (x, y, width, height): the
    grid under fog (outside it nothing is ever seen); None without fog (all of it)."""
    sight_areas: tuple[BaseGeometry, ...] | None = None
    """The party's visibility polygons (cells): inside ``sight_cells`` the fog is drawn
    along them, not along cell edges (a diagonal wall's straight shadow). None: cell edges."""
    sight_cells: frozenset[Cell] = frozenset()
    """The visible cells seen by sight alone (not revealed by the DM): only these are drawn
    along ``sight_areas``; a cell outside ``visible`` is never drawn clear."""
    dim_light: BaseGeometry | None = None
    """Where the party sees only dim light (cells, inside ``sight_areas``): drawn darker.
    None on a map bright everywhere or baked, or without sight."""


@dataclass(frozen=True)
class CombatFacts:
    """What the combat engine knows that the projection needs, by creature id."""

    round: int = 0
    order: tuple[EntityId, ...] = ()
    acting: EntityId | None = None
    conditions: dict[EntityId, tuple[str, ...]] | None = None
    dead: frozenset[EntityId] = frozenset()
    unseen: frozenset[EntityId] = frozenset()
    """Combatants hiding (took the Hide action) or invisible."""
    invisible: str = ConditionRoles().invisible
    """The ruleset's invisible condition (``roles.conditions.invisible``), for the lasting
    conditions of creatures outside the combat."""
    exhaustion: dict[EntityId, int] | None = None
    """Exhaustion levels above 0."""
    strip_shows_dead: bool = False
    """Keep dead creatures outside the party in the initiative strip (the DM's setting);
    by default they leave it as their turns are skipped."""


def unseen(creature: Creature, combat: CombatFacts) -> bool:
    """Hiding or invisible: as its combatant is in a combat, else by its lasting conditions."""
    if creature.id in combat.unseen:
        return True
    if creature.id in (combat.conditions or {}) or creature.lasting is None:
        return False
    return any(condition.name == combat.invisible for condition in creature.lasting.conditions)


def drawn_while_unseen(creature: Creature) -> bool:
    """A party member is drawn to its friends while hiding; any other only if the DM says."""
    return creature.side is Side.PARTY or creature.shown_while_unseen


def hidden_from_players(creature: Creature, combat: CombatFacts) -> bool:
    """Never drawn on the players' window, wherever the party looks: hidden by the DM, or
    hiding or invisible and not ``drawn_while_unseen``."""
    return creature.hidden or (unseen(creature, combat) and not drawn_while_unseen(creature))


def generic_label(creature: Creature) -> str:
    return f"{creature.size.value.capitalize()} creature"


def creature_cells(creature: Creature, cell_feet: float) -> frozenset[Cell]:
    """Every grid cell the creature's space overlaps (a Tiny creature overlaps one)."""
    side = creature.space_cells(cell_feet)
    cols = range(math.floor(creature.x), math.ceil(creature.x + side - 1e-9))
    rows = range(math.floor(creature.y), math.ceil(creature.y + side - 1e-9))
    return frozenset((c, r) for c in cols for r in rows)


def _box_touches(points: list[Point], known: KnownCells | None) -> bool:
    """True when a cell under a polygon's bounding box is known: generous, so a feature is
    never cut off (a polygon thousands of cells across costs one slice of the table)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    left, right = math.floor(min(xs)), math.ceil(max(xs))
    top, bottom = math.floor(min(ys)), math.ceil(max(ys))
    return known is not None and known.any_in(left, top, right, bottom)


def project(
    encounter: Encounter,
    visible_now: frozenset[Cell] | None,
    combat: CombatFacts | None = None,
    ruleset: Ruleset | None = None,
    sight_areas: tuple[BaseGeometry, ...] | None = None,
    dim_light: BaseGeometry | None = None,
) -> PlayerView:
    """The players' view of ``encounter``.

    Args:
        visible_now: cells the party sees now (from the geometry's sight), or None when the
            fog mode does not use sight. Ignored when the fog is off.
        combat: turn order and conditions, when a combat is running.
        ruleset: the encounter's ruleset (its bloodied threshold), None when unknown.
        sight_areas: the party's visibility polygons, for the fog's drawing (used with
            ``visible_now`` under a fog that uses sight).
        dim_light: where the party sees only dim light (``PartyFog.seen_light``), kept
            with the sight areas.

    A creature is shown only when it is not hidden by the DM, not hiding or invisible (unless
    ``drawn_while_unseen``) and, under fog, when one of its cells is visible now (explored
    cells show the map but never creatures). Map features are kept only where they touch a
    visible or explored cell; secret terrain never. Under fog the map image is cut to the
    grid (``background_clip``).
    """
    fog = encounter.fog
    known: frozenset[Cell] | None
    if fog.mode is FogMode.OFF:
        visible, explored, known = None, frozenset[Cell](), None
    else:
        visible = (fog.revealed if fog.mode.uses_reveals else frozenset()) | (
            visible_now or frozenset() if fog.mode.uses_sight else frozenset()
        )
        explored = (fog.explored - visible) if fog.mode.uses_sight else frozenset()
        known = visible | explored

    known_table = None if known is None else KnownCells.of(known)

    def on_known_box(points: list[Point]) -> bool:
        return known is None or _box_touches(points, known_table)

    combat = combat or CombatFacts()
    conditions = combat.conditions or {}
    cell_feet = encounter.grid.cell_feet

    def shown(creature: Creature) -> bool:
        if hidden_from_players(creature, combat):
            return False
        return visible is None or not visible.isdisjoint(creature_cells(creature, cell_feet))

    seen = [creature for creature in encounter.creatures if shown(creature)]
    labels = {
        creature.id: creature.name if creature.name_shown_to_players else generic_label(creature)
        for creature in seen
    }
    slain = {c.id for c in seen if c.id in combat.dead and c.side is not Side.PARTY}
    in_strip = {cid: label for cid, label in labels.items() if cid not in slain}
    turn, announced = _turn_info(combat, labels, labels if combat.strip_shows_dead else in_strip)
    running = encounter.combat
    fighting = {c.creature_id: c for c in running.combatants} if running is not None else {}
    tokens = tuple(
        PlayerToken(
            key=creature.id,
            label=labels[creature.id],
            side=creature.side,
            size=creature.size,
            x=creature.x,
            y=creature.y,
            space_cells=creature.space_cells(cell_feet),
            health=shown_health(
                creature,
                health_state(
                    creature, creature.id in combat.dead, ruleset, fighting.get(creature.id)
                ),
            ),
            health_left=health_left(creature),
            conditions=conditions.get(creature.id, ()),
            acting_now=creature.id == announced,
            unseen=unseen(creature, combat),
            colour=creature.colour,
            exhaustion=(combat.exhaustion or {}).get(creature.id, 0),
            image=creature.token_image,
            shape=creature.token_shape,
            miniature=creature.miniature,
        )
        for creature in seen
    )
    grid = encounter.grid
    drawn_areas, drawn_cells = _drawn_sight(fog.mode, fog.revealed, visible_now, sight_areas)
    return PlayerView(
        grid=grid,
        background=encounter.background,
        walls=encounter.walls if known is None else walls_touching(encounter.walls, known_table),
        obstacles=tuple(o for o in encounter.obstacles if on_known_box(o.points)),
        terrain=tuple(t for t in encounter.terrain if not t.secret and on_known_box(t.points)),
        tokens=tokens,
        visible=visible,
        explored=explored,
        turn=turn,
        background_clip=None if visible is None else (0, 0, grid.width, grid.height),
        sight_areas=drawn_areas,
        sight_cells=drawn_cells,
        dim_light=None if drawn_areas is None else dim_light,
    )


def _drawn_sight(
    mode: FogMode,
    revealed: frozenset[Cell],
    visible_now: frozenset[Cell] | None,
    areas: tuple[BaseGeometry, ...] | None,
) -> tuple[tuple[BaseGeometry, ...] | None, frozenset[Cell]]:
    """``sight_areas`` and ``sight_cells`` of the view: none without sight or polygons."""
    if not mode.uses_sight or visible_now is None or areas is None:
        return None, frozenset()
    return areas, visible_now - revealed if mode.uses_reveals else visible_now


def _turn_info(
    combat: CombatFacts, labels: dict[EntityId, str], in_strip: dict[EntityId, str]
) -> tuple[TurnInfo | None, EntityId | None]:
    """The turn the players are told of, and whose it is (see ``TurnInfo``): the acting
    creature's when they see it, else the last shown one's before it in the order (back into
    the previous round), else none. The strip's order has the labels of ``in_strip``."""
    if combat.round <= 0:
        return None, None
    order = tuple(in_strip[cid] for cid in combat.order if cid in in_strip)
    if combat.acting is None or combat.acting in labels:
        label = labels.get(combat.acting) if combat.acting is not None else None
        return TurnInfo(round=combat.round, acting_label=label, order=order), combat.acting
    turns = list(combat.order)
    at = turns.index(combat.acting) if combat.acting in turns else 0
    earlier = [(combat.round, cid) for cid in reversed(turns[:at])]
    if combat.round > 1:
        earlier += [(combat.round - 1, cid) for cid in reversed(turns[at + 1 :])]
    for round_, cid in earlier:
        if cid in labels:
            return TurnInfo(round=round_, acting_label=labels[cid], order=order), cid
    return TurnInfo(round=None, acting_label=None, order=order), None
