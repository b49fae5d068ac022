import json
import zipfile
from pathlib import Path

import pytest
from pydantic import ValidationError

from battlemap.io.encounter_file import save_battlemap
from battlemap.io.loader import load_encounter
from battlemap.model import Creature, Encounter, Grid, Side, Size, snap_position
from battlemap.model.statblock import StatBlock


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


def test_level_is_optional_and_bounded() -> None:
    assert Creature(name="Goblin").level is None  # a monster: no level
    assert Creature(name="Ana", level=30).level == 30
    for bad in (0, 31):
        with pytest.raises(ValidationError, match="level"):
            Creature(name="Ana", level=bad)
    assert StatBlock(name="Ana").level is None
    with pytest.raises(ValidationError, match="level"):
        StatBlock(name="Ana", level=0)


def test_level_round_trips_through_a_saved_file(tmp_path: Path) -> None:
    ana = StatBlock(name="Ana", type="player character", level=5)
    encounter = Encounter(
        creatures=(Creature(name="Ana", side=Side.PARTY, level=7), Creature(name="Goblin")),
        party=(ana,),
    )
    path = tmp_path / "levels.battlemap"
    save_battlemap(path, encounter, {})
    loaded = load_encounter(path)
    assert loaded == encounter
    assert [c.level for c in loaded.creatures] == [7, None]
    assert loaded.party[0].level == 5


def test_a_file_written_before_levels_opens_without_them(tmp_path: Path) -> None:
    """A creature and a party stat block as an older Battlemap wrote them (format 1 in a
    .battlemap zip, format 0 as plain JSON): no "level" key; they open with none."""
    encounter = {
        "name": "Old",
        "creatures": [{"id": "c-ana", "name": "Ana", "side": "party"}],
        "party": [{"name": "Ana", "type": "player character"}],
    }
    zipped = tmp_path / "old.battlemap"
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr(
            "encounter.json", json.dumps({"format_version": 1, "encounter": encounter})
        )
    plain = tmp_path / "old.json"
    plain.write_text(json.dumps(encounter))
    for path in (zipped, plain):
        loaded = load_encounter(path)
        assert loaded.creatures[0].level is None and loaded.party[0].level is None


def test_no_level_is_left_out_of_the_saved_data() -> None:
    """Without levels an encounter saves as before they existed (an older Battlemap opens it)."""
    encounter = Encounter(creatures=(Creature(name="Goblin"),), party=(StatBlock(name="Ana"),))
    assert '"level"' not in encounter.model_dump_json()
    leveled = Encounter(creatures=(Creature(name="Ana", level=3),))
    assert '"level":3' in leveled.model_dump_json()
