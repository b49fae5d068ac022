"""The ruleset's movement numbers drive the geometry and the budget (srd-5e "Movement and
Position"), and the drag's movement allowance.

Each field is checked with its shipped value, quoting the rules text, and with a changed value
in a copy of the ruleset, so a ruleset file that changes it changes what the app does.
"""

from __future__ import annotations

import math

import pytest

from battlemap.geometry import Body, IllegalReason, MapIndex, MoveResult, StepReason, path_cost
from battlemap.geometry.movement import MovementCosts
from battlemap.model import EntityId, Grid, Side, Size, Speeds, TerrainKind, TerrainRegion
from battlemap.model.combat import CombatState, SpeedMode
from battlemap.model.encounter import Encounter
from battlemap.rules.economy import take_action
from battlemap.rules.movement import (
    diagonal_rule,
    drop_prone,
    move_allowance,
    movement_budget,
    movement_costs,
    spend_movement,
    spend_split,
)
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.helpers import creature, encounter, fight, state_and_events

Rulesets = dict[str, Ruleset]
HERO = EntityId("hero")


def changed(ruleset: Ruleset, **movement: object) -> Ruleset:
    """A copy of ``ruleset`` with ``movement`` fields replaced."""
    return ruleset.model_copy(update={"movement": ruleset.movement.model_copy(update=movement)})


def walker(x: float, y: float, size: Size = Size.MEDIUM, side: Side = Side.PARTY) -> Body:
    return Body(EntityId(f"{side}-{size}-{x}-{y}"), size, side, x, y)


MUD = MapIndex(
    Grid(width=20, height=20),
    terrain=[
        TerrainRegion(
            id=EntityId("mud"),
            kind=TerrainKind.DIFFICULT,
            points=[(6, 0), (8, 0), (8, 20), (6, 20)],
        )
    ],
)
EAST_3 = [(6.0, 5.0), (7.0, 5.0), (8.0, 5.0)]
EAST_4 = [*EAST_3, (9.0, 5.0)]


def move(
    ruleset: Ruleset,
    others: list[Body],
    index: MapIndex = MUD,
    path: list[tuple[float, float]] = EAST_3,
) -> MoveResult:
    """The hero from (5, 5) along ``path`` (three cells east), with ``ruleset``'s numbers."""
    return path_cost(
        index,
        walker(5, 5),
        path,
        others,
        diagonal_rule(ruleset),
        60,
        costs=movement_costs(ruleset),
    )


def test_srd_difficult_terrain_costs_one_extra_foot_per_foot(rulesets: Rulesets) -> None:
    """srd "Difficult Terrain": "Every foot of movement in difficult terrain cots 1 extra foot"."""
    ruleset = rulesets["srd-5e"]
    assert ruleset.movement.difficult_terrain_extra_cost_per_foot == 1
    assert [s.cost_feet for s in move(ruleset, []).steps] == [10, 10, 5]


def test_a_ruleset_charging_two_extra_feet_makes_difficult_terrain_triple(
    rulesets: Rulesets,
) -> None:
    ruleset = changed(rulesets["srd-5e"], difficult_terrain_extra_cost_per_foot=2)
    result = move(ruleset, [])
    assert [s.cost_feet for s in result.steps] == [15, 15, 5]
    assert [s.terrain_feet for s in result.steps] == [10, 10, 0]
    free = changed(rulesets["srd-5e"], difficult_terrain_extra_cost_per_foot=0)
    assert move(free, []).cost_feet == 15


def test_srd_another_creatures_space_is_difficult_terrain(rulesets: Rulesets) -> None:
    """srd: "The space of another creature, whether hostile or not, also counts as difficult
    terrain"."""
    ruleset = rulesets["srd-5e"]
    assert ruleset.movement.creature_space_is_difficult
    ally = walker(6, 10)  # under the path below, off the mud
    steps = path_cost(
        MapIndex(Grid(width=20, height=20)),
        walker(5, 10),
        [(6.0, 10.0), (7.0, 10.0)],
        [ally],
        diagonal_rule(ruleset),
        60,
        costs=movement_costs(ruleset),
    ).steps
    assert [s.cost_feet for s in steps] == [10, 5]
    assert steps[0].reasons == (StepReason.CREATURE_SPACE,)


def test_a_ruleset_where_creatures_are_not_difficult_terrain_lets_them_be_passed_freely(
    rulesets: Rulesets,
) -> None:
    ruleset = changed(rulesets["srd-5e"], creature_space_is_difficult=False)
    steps = path_cost(
        MapIndex(Grid(width=20, height=20)),
        walker(5, 10),
        [(6.0, 10.0), (7.0, 10.0)],
        [walker(6, 10)],
        diagonal_rule(ruleset),
        60,
        costs=movement_costs(ruleset),
    ).steps
    assert [s.cost_feet for s in steps] == [5, 5]
    assert steps[0].reasons == ()


def test_srd_a_hostile_space_can_be_passed_only_two_sizes_apart(rulesets: Rulesets) -> None:
    """srd "Moving Around Other Creatures": "you can move through a hostile creature's space
    only if it is at least two sizes larger or smaller than you"."""
    ruleset = rulesets["srd-5e"]
    assert ruleset.movement.hostile_pass_through_size_difference == 2
    open_map = MapIndex(Grid(width=20, height=20))
    ogre = walker(6, 4, Size.LARGE, Side.HOSTILE)  # one size larger, across the path
    blocked = move(ruleset, [ogre], open_map)
    assert blocked.reason is IllegalReason.HOSTILE_SPACE and blocked.blocked_step == 0
    giant = walker(6, 3, Size.HUGE, Side.HOSTILE)  # two sizes larger: cells 6..8 x 3..5
    assert move(ruleset, [giant], open_map, EAST_4).legal


def test_a_ruleset_needing_one_size_lets_a_medium_creature_through_an_ogre(
    rulesets: Rulesets,
) -> None:
    open_map = MapIndex(Grid(width=20, height=20))
    ogre = walker(6, 4, Size.LARGE, Side.HOSTILE)
    lenient = changed(rulesets["srd-5e"], hostile_pass_through_size_difference=1)
    assert move(lenient, [ogre], open_map).legal
    strict = changed(rulesets["srd-5e"], hostile_pass_through_size_difference=3)
    giant = walker(6, 3, Size.HUGE, Side.HOSTILE)
    blocked = move(strict, [giant], open_map, EAST_4)
    assert blocked.reason is IllegalReason.HOSTILE_SPACE


LAKE = MapIndex(
    Grid(width=20, height=20),
    terrain=[
        TerrainRegion(
            id=EntityId("lake"),
            kind=TerrainKind.WATER,
            points=[(6, 0), (20, 0), (20, 20), (6, 20)],
        )
    ],
)


def swim(ruleset: Ruleset, swimmer: Body | None = None) -> list[float]:
    """Step costs of two cells east into the lake, with ``ruleset``'s numbers."""
    mover = swimmer or walker(5, 5)
    steps = path_cost(
        LAKE,
        mover,
        [(6.0, 5.0), (7.0, 5.0)],
        [],
        diagonal_rule(ruleset),
        60,
        costs=movement_costs(ruleset),
    ).steps
    return [s.cost_feet for s in steps]


def test_srd_water_costs_one_extra_foot_per_foot_without_a_swim_speed(
    rulesets: Rulesets,
) -> None:
    """srd-5e.txt only mentions swimming ("Your move can include jumping, climbing, and
    swimming"), so its ruleset keeps 1 extra foot per foot (see the comment in srd-5e.yaml);
    gms-den "Climb/Swim/Crawl": without a swimming speed, "Half speed" - the same cost."""
    for ruleset_id in ("srd-5e", "gms-den"):
        ruleset = rulesets[ruleset_id]
        assert ruleset.movement.swim_extra_cost_per_foot == 1
        assert swim(ruleset) == [10, 10]
    fish = Body(EntityId("fish"), Size.MEDIUM, Side.PARTY, 5, 5, speeds=Speeds(walk=30, swim=30))
    assert swim(rulesets["srd-5e"], fish) == [5, 5]


def test_a_ruleset_changing_the_swim_surcharge_changes_what_water_costs(
    rulesets: Rulesets,
) -> None:
    assert swim(changed(rulesets["srd-5e"], swim_extra_cost_per_foot=2)) == [15, 15]
    assert swim(changed(rulesets["srd-5e"], swim_extra_cost_per_foot=0)) == [5, 5]


def end_on_ally(ruleset: Ruleset) -> MoveResult:
    """The hero two cells east onto an ally's space, on an open map."""
    return path_cost(
        MapIndex(Grid(width=20, height=20)),
        walker(5, 10),
        [(6.0, 10.0), (7.0, 10.0)],
        [walker(7, 10)],
        diagonal_rule(ruleset),
        60,
        costs=movement_costs(ruleset),
    )


def test_srd_a_move_can_not_end_in_another_creatures_space(rulesets: Rulesets) -> None:
    """srd "Moving Around Other Creatures": "Whether a creature is a friend or an enemy, you
    can't willingly end your move in its space"."""
    ruleset = rulesets["srd-5e"]
    assert not ruleset.movement.may_end_in_occupied_space
    result = end_on_ally(ruleset)
    assert not result.legal and result.reason is IllegalReason.ENDS_IN_CREATURE


def test_a_ruleset_letting_moves_end_in_occupied_spaces_allows_it(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], may_end_in_occupied_space=True)
    result = end_on_ally(ruleset)
    assert result.legal and result.cost_feet == 15  # the ally's space is still difficult


def solo(ruleset: Ruleset) -> tuple[CombatState, Encounter]:
    enc = encounter(creature("Hero", Side.PARTY, walk=30, fly=60))
    return fight(ruleset, enc), enc


def test_srd_switching_speeds_subtracts_what_was_already_moved(rulesets: Rulesets) -> None:
    """srd: "Whenever you switch, subtract the distance you've already moved from the new
    speed": walk 30 / fly 60, fly 20 then walk 10 leaves 0 walking and 30 flying."""
    ruleset = rulesets["srd-5e"]
    assert ruleset.movement.switching_speeds_subtracts_moved
    state, enc = solo(ruleset)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 20, mode=SpeedMode.FLY)
    )
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 10, mode=SpeedMode.WALK)
    )
    assert movement_budget(state, ruleset, enc, HERO, SpeedMode.WALK).remaining == 0
    assert movement_budget(state, ruleset, enc, HERO, SpeedMode.FLY).remaining == 30


def test_a_ruleset_where_switching_does_not_subtract_keeps_a_budget_per_speed(
    rulesets: Rulesets,
) -> None:
    ruleset = changed(rulesets["srd-5e"], switching_speeds_subtracts_moved=False)
    state, enc = solo(ruleset)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 20, mode=SpeedMode.FLY)
    )
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 10, mode=SpeedMode.WALK)
    )
    walk = movement_budget(state, ruleset, enc, HERO, SpeedMode.WALK)
    fly = movement_budget(state, ruleset, enc, HERO, SpeedMode.FLY)
    assert (walk.used, walk.remaining) == (10, 20)
    assert (fly.used, fly.remaining) == (20, 40)
    assert any("20 ft moved with other speeds not subtracted" in r for r in walk.reasons)
    turn = state.combatant(HERO).turn
    assert turn.movement_used == 30  # the total still counts every foot
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, 40, mode=SpeedMode.FLY)
    )
    assert movement_budget(state, ruleset, enc, HERO, SpeedMode.FLY).remaining == 0


def crawl_two_cells(ruleset: Ruleset) -> tuple[float, float]:
    """(what the geometry charges, what the engine spends) for the prone hero crawling two
    cells east on an open map, on its turn."""
    state, enc = solo(ruleset)
    state, _ = state_and_events(drop_prone(with_combat(enc, state), ruleset, HERO))
    hero = Body(HERO, Size.MEDIUM, Side.PARTY, 5, 5, prone=True)
    costs = movement_costs(ruleset)
    move = path_cost(
        MapIndex(Grid(width=20, height=20)),
        hero,
        [(6.0, 5.0), (7.0, 5.0)],
        [],
        diagonal_rule(ruleset),
        60,
        costs=costs,
    )
    feet, distance = spend_split(move)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), ruleset, HERO, feet, distance_feet=distance)
    )
    return move.cost_feet, state.combatant(HERO).turn.movement_used


def test_srd_crawling_costs_one_extra_foot_and_the_drag_agrees_with_the_engine(
    rulesets: Rulesets,
) -> None:
    """srd "Being Prone": "Every foot of movement while crawling costs 1 extra foot"."""
    assert crawl_two_cells(rulesets["srd-5e"]) == (20, 20)


def test_a_ruleset_charging_two_extra_feet_to_crawl_costs_the_drag_and_the_engine_alike(
    rulesets: Rulesets,
) -> None:
    ruleset = changed(rulesets["srd-5e"], crawl_extra_cost_per_foot=2)
    assert crawl_two_cells(ruleset) == (30, 30)


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_every_shipped_ruleset_keeps_the_srd_movement_numbers(
    rulesets: Rulesets, ruleset_id: str
) -> None:
    """No document changes these: legends-of-hyrule and gms-den repeat the SRD's text for
    creatures' spaces, passing hostiles, crawling ("Every foot of movement while crawling costs
    1 extra foot") and switching speeds ("If the result is 0 or less, you can't use the new
    speed"); gms-den's "movement speed is halved" in difficult terrain costs
    the same as an extra foot per foot ("difficult terrain (double movement cost)");
    final-fantasy-d20 and bloodied-brink keep the base rules. All squeeze by the hyrule rule
    (test_movement_squeezing.py), pay 1 extra foot per foot in water without a swim speed and
    may not end a move in another creature's space (srd, hyrule and gms-den: "you can't
    willingly end your move in its space")."""
    ruleset = rulesets[ruleset_id]
    assert movement_costs(ruleset) == MovementCosts(
        difficult_extra=1,
        creature_space_is_difficult=True,
        hostile_pass_size_difference=2,
        crawl_extra=1,
        squeeze_extra=1,
        water_extra=1,
        may_end_in_creature_space=False,
    )
    assert ruleset.movement.switching_speeds_subtracts_moved


# --- the drag's allowance ---------------------------------------------------------------------


def test_outside_combat_a_move_is_free_but_shows_the_walking_speed(rulesets: Rulesets) -> None:
    enc = encounter(creature("Hero", Side.PARTY, walk=35))
    allowance = move_allowance(enc, rulesets["srd-5e"], HERO)
    assert math.isinf(allowance.left) and allowance.total is None
    assert allowance.shade_feet == 35 and allowance.note == "no combat: free move"


def test_on_its_turn_the_allowance_is_the_engines_remaining_movement(rulesets: Rulesets) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("Hero", Side.PARTY))
    state = fight(ruleset, enc)
    state, _ = state_and_events(take_action(with_combat(enc, state), ruleset, HERO, "dash"))
    state, _ = state_and_events(spend_movement(with_combat(enc, state), ruleset, HERO, 25))
    allowance = move_allowance(enc.model_copy(update={"combat": state}), ruleset, HERO)
    assert (allowance.left, allowance.total, allowance.shade_feet) == (35, 60, 35)
    assert allowance.note == ""


def test_off_its_turn_a_move_is_unlimited_unless_a_readied_move_was_released(
    rulesets: Rulesets,
) -> None:
    ruleset = rulesets["srd-5e"]
    enc = encounter(creature("Hero", Side.PARTY, dex=20), creature("Orc", walk=40))
    state = fight(ruleset, enc)
    assert state.current is not None
    waiting = EntityId("orc") if state.current.creature_id == HERO else HERO
    name = "Orc" if waiting == "orc" else "Hero"
    with_combat = enc.model_copy(update={"combat": state})
    allowance = move_allowance(with_combat, ruleset, waiting)
    assert math.isinf(allowance.left) and allowance.note == f"not {name}'s turn"
    readied = state.combatant(waiting).model_copy(update={"reaction_move_left": 15.0})
    released = enc.model_copy(update={"combat": state.with_combatant(readied)})
    allowance = move_allowance(released, ruleset, waiting)
    assert (allowance.left, allowance.total, allowance.note) == (15, 15, "readied move")


@pytest.mark.parametrize("mode", [None, SpeedMode.SWIM])
def test_gms_den_water_costs_exactly_double_once_in_the_drag_and_the_budget(
    rulesets: Rulesets, mode: SpeedMode | None
) -> None:
    """gms-den-homebrew.txt "Climb/Swim/Crawl": swimming without a swimming speed is "Half
    speed", i.e. every foot of water costs two. The geometry charges it (the inherited
    ``swim_extra_cost_per_foot`` 1, the water cells known), so the engine, told the move is a
    swim, takes those feet from the walking budget without halving the speed again."""
    gms = rulesets["gms-den"]
    assert gms.movement.climb_swim_without_speed is not None  # the rule that could charge again
    state, enc = solo(gms)
    assert enc.creature(HERO).speeds.swim == 0
    lake_move = path_cost(
        LAKE,
        walker(5, 5),
        [(6.0, 5.0), (7.0, 5.0)],
        [],
        diagonal_rule(gms),
        60,
        costs=movement_costs(gms),
    )
    assert lake_move.cost_feet == 20  # 10 ft of water, paid twice
    feet, distance = spend_split(lake_move)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), gms, HERO, feet, mode=mode, distance_feet=distance)
    )
    assert state.combatant(HERO).turn.movement_used == 20
    assert movement_budget(state, gms, enc, HERO, SpeedMode.WALK).remaining == 10


def test_srd_a_swim_without_a_swim_speed_is_taken_from_the_walking_speed(
    rulesets: Rulesets,
) -> None:
    """srd-5e.txt: "Your move can include ... swimming"; its ruleset charges water 1 extra
    foot per foot (srd-5e.yaml) in the move's feet, so a swim without a swim speed spends the
    walking speed as it is, instead of failing on a swim speed of 0."""
    srd = rulesets["srd-5e"]
    state, enc = solo(srd)
    state, _ = state_and_events(
        spend_movement(with_combat(enc, state), srd, HERO, 20, mode=SpeedMode.SWIM)
    )
    assert movement_budget(state, srd, enc, HERO, SpeedMode.WALK).remaining == 10
