"""Map editing commands: each applies, reverts to the exact start, and refuses bad input."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model import (
    CoverDegree,
    Creature,
    Document,
    Encounter,
    Grid,
    Obstacle,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)
from battlemap.model.document import Command
from battlemap.model.map_commands import (
    AddObstacle,
    AddTerrain,
    AddWalls,
    CommandGroup,
    MapEditError,
    RemoveFeature,
    SetGrid,
    SwapDoorWindow,
    ToggleDoor,
    UnknownFeatureError,
    find_feature,
    remove_entities,
)


def square(x: float, y: float, side: float = 1.0) -> list[tuple[float, float]]:
    return [(x, y), (x + side, y), (x + side, y + side), (x, y + side)]


def make_encounter() -> Encounter:
    return Encounter(
        grid=Grid(width=10, height=8),
        creatures=(Creature(id="c-orc", name="Orc", x=1, y=1),),
        walls=(
            Wall(id="w-1", a=(0, 0), b=(3, 0)),
            Wall(id="d-1", a=(3, 0), b=(4, 0), kind=WallKind.DOOR),
        ),
        obstacles=(Obstacle(id="o-1", points=square(5, 5)),),
        terrain=(
            TerrainRegion(id="t-1", points=square(0, 4, 2)),
            TerrainRegion(id="t-2", kind=TerrainKind.WATER, points=square(1, 4, 2)),
        ),
    )


@pytest.fixture
def encounter() -> Encounter:
    return make_encounter()


def round_trip(encounter: Encounter, command: Command) -> Encounter:
    """Apply then revert through a Document; return the applied version."""
    document = Document(encounter)
    document.apply(command)
    applied = document.encounter
    document.revert(command)
    assert document.encounter == encounter
    return applied


def test_add_walls_adds_the_whole_chain_and_reverts(encounter: Encounter) -> None:
    chain = (Wall(a=(0, 2), b=(2, 2)), Wall(a=(2, 2), b=(2, 5)))
    applied = round_trip(encounter, AddWalls(chain))
    assert applied.walls[-2:] == chain
    assert len(applied.walls) == len(encounter.walls) + 2


def test_add_walls_refuses_an_empty_chain_and_repeated_ids(encounter: Encounter) -> None:
    with pytest.raises(MapEditError, match="at least one"):
        AddWalls(())
    wall = Wall(a=(0, 2), b=(2, 2))
    with pytest.raises(MapEditError, match="same id twice"):
        AddWalls((wall, wall))
    with pytest.raises(MapEditError, match="already holds"):
        AddWalls((encounter.walls[0],)).apply(encounter)


def test_add_obstacle_round_trip(encounter: Encounter) -> None:
    table = Obstacle(points=square(2, 2, 2), cover=CoverDegree.THREE_QUARTERS)
    applied = round_trip(encounter, AddObstacle(table))
    assert applied.obstacles[-1] == table


def test_add_terrain_stroke_is_one_command(encounter: Encounter) -> None:
    stroke = tuple(
        TerrainRegion(kind=TerrainKind.IMPASSABLE, points=square(x, 7)) for x in range(3)
    )
    applied = round_trip(encounter, AddTerrain(stroke))
    assert applied.terrain[-3:] == stroke


@pytest.mark.parametrize(
    ("feature_id", "field_name", "index"),
    [("w-1", "walls", 0), ("d-1", "walls", 1), ("o-1", "obstacles", 0), ("t-1", "terrain", 0)],
)
def test_remove_feature_puts_it_back_where_it_was(
    encounter: Encounter, feature_id: str, field_name: str, index: int
) -> None:
    command = RemoveFeature.of(encounter, feature_id)
    assert (command.field_name, command.index) == (field_name, index)
    applied = round_trip(encounter, command)
    assert all(f.id != feature_id for f in getattr(applied, field_name))
    with pytest.raises(UnknownFeatureError):
        find_feature(applied, feature_id)


def test_remove_feature_names_what_it_erases(encounter: Encounter) -> None:
    assert RemoveFeature.of(encounter, "d-1").text == "Erase door"
    assert RemoveFeature.of(encounter, "w-1").text == "Erase wall"
    assert RemoveFeature.of(encounter, "t-2").text == "Erase terrain"


def test_remove_unknown_feature_is_a_typed_error(encounter: Encounter) -> None:
    with pytest.raises(UnknownFeatureError, match="nope"):
        RemoveFeature.of(encounter, "nope")
    command = RemoveFeature.of(encounter, "o-1")
    with pytest.raises(UnknownFeatureError):
        command.apply(command.apply(encounter))  # removing twice


def test_toggle_door_opens_and_undo_closes(encounter: Encounter) -> None:
    applied = round_trip(encounter, ToggleDoor("d-1"))  # type: ignore[arg-type]
    door = find_feature(applied, "d-1")[2]
    assert isinstance(door, Wall) and door.open
    assert not door.blocks_movement


def test_toggle_refuses_plain_walls(encounter: Encounter) -> None:
    with pytest.raises(MapEditError, match="not a door"):
        ToggleDoor("w-1").apply(encounter)  # type: ignore[arg-type]


def test_swap_door_window_makes_an_open_door_a_window_and_undo_reopens_it(
    encounter: Encounter,
) -> None:
    opened = ToggleDoor("d-1").apply(encounter)  # type: ignore[arg-type]
    command = SwapDoorWindow.of(opened, "d-1")  # type: ignore[arg-type]
    assert command.text == "Make door a window"
    window = find_feature(round_trip(opened, command), "d-1")[2]
    assert isinstance(window, Wall) and window.kind is WallKind.WINDOW and not window.open
    assert window.blocks_movement and not window.blocks_sight


def test_swap_door_window_makes_a_window_a_closed_door(encounter: Encounter) -> None:
    as_window = SwapDoorWindow.of(encounter, "d-1").apply(encounter)  # type: ignore[arg-type]
    back = SwapDoorWindow.of(as_window, "d-1")  # type: ignore[arg-type]
    assert back.text == "Make window a door"
    door = find_feature(round_trip(as_window, back), "d-1")[2]
    assert isinstance(door, Wall) and door.kind is WallKind.DOOR and door.blocks_sight


def test_swap_door_window_refuses_plain_walls(encounter: Encounter) -> None:
    with pytest.raises(MapEditError, match="not a door or a window"):
        SwapDoorWindow.of(encounter, "w-1")  # type: ignore[arg-type]


def test_set_grid_round_trip_keeps_features_off_a_shrunk_map(encounter: Encounter) -> None:
    small = Grid(width=3, height=3, cell_feet=10)
    applied = round_trip(encounter, SetGrid(encounter.grid, small))
    assert applied.grid == small
    assert applied.obstacles == encounter.obstacles


def test_remove_entities_deletes_creatures_and_features_in_one_step(
    encounter: Encounter,
) -> None:
    command = remove_entities(encounter, ["t-2", "c-orc", "missing", "w-1", "t-1"])
    assert isinstance(command, CommandGroup)
    assert command.text == "Delete 4 items"
    applied = round_trip(encounter, command)
    assert applied.creatures == () and applied.terrain == ()
    assert [w.id for w in applied.walls] == ["d-1"]


def test_remove_entities_of_nothing_is_none(encounter: Encounter) -> None:
    assert remove_entities(encounter, ["missing"]) is None
    single = remove_entities(encounter, ["o-1"])
    assert isinstance(single, RemoveFeature)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.sampled_from(["add-wall", "add-obstacle", "add-terrain", "toggle", "remove", "grid"]),
        max_size=12,
    ),
    st.randoms(use_true_random=False),
)
def test_undo_of_any_sequence_restores_the_start(steps: list[str], rng: random.Random) -> None:
    encounter = make_encounter()
    document = Document(encounter)
    done: list[Command] = []
    for step in steps:
        current = document.encounter
        command: Command
        if step == "add-wall":
            command = AddWalls((Wall(a=(rng.randint(0, 9), 1), b=(rng.randint(0, 9), 2)),))
        elif step == "add-obstacle":
            command = AddObstacle(Obstacle(points=square(rng.randint(0, 8), 3)))
        elif step == "add-terrain":
            command = AddTerrain((TerrainRegion(points=square(rng.randint(0, 8), 6)),))
        elif step == "toggle":
            command = ToggleDoor("d-1")  # type: ignore[arg-type]
        elif step == "grid":
            command = SetGrid.of(current, Grid(width=rng.randint(1, 30), height=5))
        else:
            ids = [
                f.id
                for features in (current.walls, current.obstacles, current.terrain)
                for f in features
            ]
            if not ids or (chosen := rng.choice(ids)) == "d-1":
                continue
            command = RemoveFeature.of(current, chosen)
        document.apply(command)
        done.append(command)
    for command in reversed(done):
        document.revert(command)
    assert document.encounter == encounter
