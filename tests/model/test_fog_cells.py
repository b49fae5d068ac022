"""The fog remembers its cells as text in a file (format 3): the same cells come back, old
lists still load, and text that is not cells is refused by field."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from battlemap.model.fog import FogOfWar, cells_text
from battlemap.model.limits import MAX_FOG_CELLS, MAX_MAP_CELLS

coordinate = st.integers(min_value=-(2**15 - 1), max_value=2**15 - 1)
cells = st.frozensets(st.tuples(coordinate, coordinate), max_size=200)
checked: list[int] = []


@settings(max_examples=200)
@given(revealed=cells, explored=cells)
def test_any_cells_come_back_from_their_text(
    revealed: frozenset[tuple[int, int]], explored: frozenset[tuple[int, int]]
) -> None:
    fog = FogOfWar(revealed=revealed, explored=explored)
    dumped = fog.model_dump(mode="json")
    assert isinstance(dumped["revealed"], str) and isinstance(dumped["explored"], str)
    assert FogOfWar.model_validate(dumped) == fog
    assert FogOfWar.model_validate_json(fog.model_dump_json()) == fog
    checked.append(len(revealed) + len(explored))


def test_the_round_trip_checked_many_cases_with_cells() -> None:
    # Runs after the property above (pytest keeps file order): it really saw cells.
    assert len(checked) == 200 and sum(1 for n in checked if n > 0) > 150


def test_the_text_is_the_same_for_the_same_cells_in_any_order() -> None:
    # Saving is deterministic: the same encounter gives identical bytes.
    forward = frozenset((x, y) for x in range(30) for y in range(20))
    assert cells_text(forward) == cells_text(frozenset(sorted(forward, reverse=True)))


def test_a_fully_explored_largest_map_is_a_small_text() -> None:
    every = frozenset((x, y) for x in range(MAX_MAP_CELLS) for y in range(MAX_MAP_CELLS))
    text = cells_text(every)
    assert len(text) == 4 * -(-len(every) * 4 // 3)  # 4 bytes a cell, in base64
    assert "," not in text  # no JSON values to count (MAX_ENCOUNTER_JSON_VALUES)
    assert FogOfWar.model_validate({"explored": text}).explored == every


def test_lists_of_pairs_still_load() -> None:
    assert FogOfWar.model_validate({"revealed": [[2, 3], [-1, 0]]}).revealed == {(2, 3), (-1, 0)}


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("not base64!", "not base64-encoded cells"),
        ("AQID", "3 bytes of cells, not a whole number of 4-byte cells"),
        ("A" * (4 * (MAX_FOG_CELLS * 4 + 2) // 3 + 4), f"more than the {MAX_FOG_CELLS} cells"),
    ],
)
def test_text_that_is_not_cells_is_refused_naming_the_field(text: str, problem: str) -> None:
    with pytest.raises(ValidationError) as caught:
        FogOfWar.model_validate({"explored": text})
    (error,) = caught.value.errors()
    assert error["loc"] == ("explored",) and problem in error["msg"]


def test_a_cell_past_16_bits_is_refused() -> None:
    with pytest.raises(ValidationError, match="less than or equal to 32767"):
        FogOfWar(revealed=frozenset({(2**15, 0)}))
