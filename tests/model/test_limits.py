"""The limits in ``battlemap.model.limits``: the model refuses past them by name, and
``over_limit`` catches what a command's unvalidated copy would take past them."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from battlemap.model import Creature, Encounter, Grid, Light
from battlemap.model.encounter import Background, over_limit
from battlemap.model.limits import (
    MAX_CELL_FEET,
    MAX_LIGHTS,
    MAX_NAME,
    MAX_POSITION,
    MIN_CELL_FEET,
    MIN_POSITION,
)


@pytest.mark.parametrize("cell_feet", [1e-300, 0.0001, MIN_CELL_FEET / 2, MAX_CELL_FEET * 1.01])
def test_a_cell_size_no_map_has_is_refused_naming_the_field(cell_feet: float) -> None:
    # Issue 18: a 1e-300 ft cell crashed Qt; a 0.0001 ft one took 30 s and 2 GB.
    with pytest.raises(ValidationError, match="cell_feet"):
        Grid.model_validate({"cell_feet": cell_feet})


@pytest.mark.parametrize("cell_feet", [MIN_CELL_FEET, MAX_CELL_FEET])
def test_the_smallest_and_largest_cells_are_accepted(cell_feet: float) -> None:
    assert Grid.model_validate({"cell_feet": cell_feet}).cell_feet == cell_feet


@pytest.mark.parametrize("x", [MIN_POSITION - 1, MAX_POSITION + 1])
def test_a_creature_far_off_any_map_is_refused(x: float) -> None:
    with pytest.raises(ValidationError, match="x"):
        Creature.model_validate({"name": "Orc", "x": x})


def test_over_limit_is_none_within_the_limits() -> None:
    lights = tuple(Light(position=(1, 1), bright_cells=2, dim_cells=2) for _ in range(MAX_LIGHTS))
    assert over_limit(Encounter(lights=lights)) is None


def test_over_limit_names_the_field_a_copy_overfilled() -> None:
    # model_copy does not validate: this is how 10,001 imported lights once got saved.
    lights = tuple(
        Light(position=(1, 1), bright_cells=2, dim_cells=2) for _ in range(MAX_LIGHTS + 1)
    )
    problem = over_limit(Encounter().model_copy(update={"lights": lights}))
    assert (
        problem == f"lights: {MAX_LIGHTS + 1} items, more than the {MAX_LIGHTS} an encounter keeps"
    )


def test_over_limit_counts_the_characters_of_a_text() -> None:
    problem = over_limit(Encounter().model_copy(update={"name": "x" * 201}))
    assert problem is not None and problem.startswith("name: 201 characters")


def test_a_creature_name_of_the_limit_is_kept_and_one_more_refused() -> None:
    assert len(Creature(name="n" * MAX_NAME).name) == MAX_NAME
    with pytest.raises(ValidationError, match="name"):
        Creature(name="n" * (MAX_NAME + 1))


@pytest.mark.parametrize(
    ("field", "value"),
    [("pixels_per_cell", 1e-300), ("pixels_per_cell", 1e6), ("offset_x", 1e300)],
)
def test_a_background_no_image_has_is_refused_naming_the_field(field: str, value: float) -> None:
    # A 1e-300-pixel cell would scale the image by 6e301 on the map.
    with pytest.raises(ValidationError, match=field):
        Background.model_validate({"image": "map.png", "pixels_per_cell": 70, field: value})
