import pytest
from pydantic import ValidationError

from battlemap.model import Creature, Encounter, Grid, Side, Size, snap_position


@pytest.mark.parametrize(
    ("size", "feet"),
    [
        (Size.TINY, 2.5),
        (Size.SMALL, 5),
        (Size.MEDIUM, 5),
        (Size.LARGE, 10),
        (Size.HUGE, 15),
        (Size.GARGANTUAN, 20),
    ],
)
def test_space_by_size(size: Size, feet: float) -> None:
    creature = Creature(name="c", size=size)
    assert size.space_feet == feet
    assert creature.space_cells(5) == feet / 5


def test_sizes_are_ranked_so_two_sizes_apart_is_a_difference_of_two() -> None:
    assert Size.LARGE.rank - Size.MEDIUM.rank == 1
    assert Size.HUGE.rank - Size.MEDIUM.rank == 2
    assert Size.SMALL.rank - Size.TINY.rank == 1


def test_tiny_creatures_snap_to_half_cells_others_to_whole_cells() -> None:
    assert Creature(name="owl", size=Size.TINY).snap_step() == 0.5
    assert Creature(name="orc", size=Size.MEDIUM).snap_step() == 1.0
    assert snap_position(3.26, 0.5) == 3.5
    assert snap_position(3.24, 0.5) == 3.0
    assert snap_position(3.5, 1.0) == 4.0
    assert snap_position(-0.4, 1.0) == 0.0


def test_hostility_is_between_party_and_hostile_only() -> None:
    assert Side.PARTY.is_hostile_to(Side.HOSTILE)
    assert Side.HOSTILE.is_hostile_to(Side.PARTY)
    assert not Side.PARTY.is_hostile_to(Side.PARTY)
    assert not Side.NEUTRAL.is_hostile_to(Side.HOSTILE)


def test_grid_contains_rect_allows_touching_the_border() -> None:
    grid = Grid(width=10, height=8)
    assert grid.contains_rect(8, 6, 2, 2)
    assert not grid.contains_rect(9, 6, 2, 2)
    assert not grid.contains_rect(-0.5, 0, 0.5, 0.5)


def test_unknown_fields_and_bad_values_are_rejected() -> None:
    with pytest.raises(ValidationError, match="size"):
        Creature.model_validate({"name": "x", "size": "colossal"})
    with pytest.raises(ValidationError, match="colour"):
        Creature.model_validate({"name": "x", "colour": "red"})
    with pytest.raises(ValidationError, match="name"):
        Creature.model_validate({"name": ""})


def test_encounter_finds_and_replaces_creatures_by_id() -> None:
    a, b = Creature(name="a"), Creature(name="b")
    encounter = Encounter(creatures=(a, b))
    moved = encounter.replace_creature(b.model_copy(update={"x": 4.0}))
    assert moved.creature(b.id).x == 4.0
    assert moved.creature(a.id) is a
    with pytest.raises(KeyError):
        encounter.creature("creature-missing")  # type: ignore[arg-type]
