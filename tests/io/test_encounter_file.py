"""The .battlemap file: save, load, equal — with images, every map feature and random encounters."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlemap.io.encounter_file import (
    ENCOUNTER_ENTRY,
    IMAGES_FOLDER,
    image_references,
    load_battlemap,
    save_battlemap,
)
from battlemap.io.loader import load_demo_encounter, load_encounter, load_encounter_file
from battlemap.io.migrations import CURRENT_FORMAT_VERSION
from battlemap.model import (
    Background,
    Creature,
    Encounter,
    Grid,
    Light,
    Obstacle,
    Side,
    Size,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)
from battlemap.rules.outcome import with_combat
from tests.rules.helpers import state_and_events

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4


def full_encounter() -> Encounter:
    """An encounter with every kind of thing the model holds, and a background image."""
    return Encounter(
        name="Crypt of the Ünquiet — “test”",
        ruleset="srd-5e",
        grid=Grid(cell_feet=5, width=30, height=20),
        background=Background(image="abc123.png", pixels_per_cell=70, offset_x=3.5),
        creatures=(
            Creature(id="c1", name="Owl", size=Size.TINY, side=Side.PARTY, x=0.5, y=1.5),
            Creature(id="c2", name="Ogre", size=Size.LARGE, x=4, y=4, hp=3, max_hp=59),
        ),
        walls=(
            Wall(id="w1", a=(0, 0), b=(5, 0)),
            Wall(id="w2", a=(5, 0), b=(5, 3), kind=WallKind.DOOR, open=True),
        ),
        obstacles=(Obstacle(id="o1", points=[(1, 1), (2, 1), (2, 2)]),),
        terrain=(TerrainRegion(id="t1", kind=TerrainKind.WATER, points=[(3, 3), (6, 3), (6, 6)]),),
        lights=(Light(id="l1", position=(2.5, 2.5), bright_cells=6, dim_cells=6),),
        notes="Trap at 4,4.\nSecond line.",
    )


def test_demo_round_trips(tmp_path: Path) -> None:
    demo = load_demo_encounter()
    path = tmp_path / "demo.battlemap"
    save_battlemap(path, demo, {})
    loaded = load_battlemap(path)
    assert loaded.encounter == demo
    assert dict(loaded.images) == {}


def test_every_feature_and_its_image_round_trip(tmp_path: Path) -> None:
    encounter = full_encounter()
    path = tmp_path / "crypt.battlemap"
    save_battlemap(path, encounter, {"abc123.png": PNG})
    loaded = load_battlemap(path)
    assert loaded.encounter == encounter
    assert dict(loaded.images) == {"abc123.png": PNG}


def test_the_zip_holds_a_versioned_encounter_json_and_the_images(tmp_path: Path) -> None:
    path = tmp_path / "crypt.battlemap"
    save_battlemap(path, full_encounter(), {"abc123.png": PNG, "unused.png": b"old import"})
    with zipfile.ZipFile(path) as archive:
        assert archive.namelist() == [ENCOUNTER_ENTRY, IMAGES_FOLDER + "abc123.png"]
        envelope = json.loads(archive.read(ENCOUNTER_ENTRY))
    assert envelope["format_version"] == CURRENT_FORMAT_VERSION
    assert envelope["encounter"]["name"] == "Crypt of the Ünquiet — “test”"


def test_saving_twice_gives_identical_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "a.battlemap", tmp_path / "b.battlemap"
    save_battlemap(first, full_encounter(), {"abc123.png": PNG})
    save_battlemap(second, full_encounter(), {"abc123.png": PNG})
    assert first.read_bytes() == second.read_bytes()


def test_saving_over_a_file_replaces_it_and_leaves_no_temporary_files(tmp_path: Path) -> None:
    path = tmp_path / "fight.battlemap"
    save_battlemap(path, load_demo_encounter(), {})
    save_battlemap(path, full_encounter(), {"abc123.png": PNG})
    assert load_battlemap(path).encounter == full_encounter()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.battlemap"]


def test_image_references_find_the_background() -> None:
    assert image_references(full_encounter()) == {"background.image": "abc123.png"}
    assert image_references(Encounter()) == {}


def test_the_loader_dispatches_battlemap_files_with_their_images(tmp_path: Path) -> None:
    path = tmp_path / "Crypt.BATTLEMAP"
    save_battlemap(path, full_encounter(), {"abc123.png": PNG})
    assert load_encounter(path) == full_encounter()
    assert dict(load_encounter_file(path).images) == {"abc123.png": PNG}


def test_a_plain_json_encounter_opens_with_no_images(tmp_path: Path) -> None:
    path = tmp_path / "plain.json"
    path.write_text(full_encounter().model_dump_json())
    loaded = load_encounter_file(path)
    assert loaded.encounter == full_encounter()
    assert dict(loaded.images) == {}


names = st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40).filter(
    lambda s: s.strip() != ""
)
coordinates = st.integers(min_value=0, max_value=19).map(float)
creatures = st.builds(
    Creature,
    name=names,
    size=st.sampled_from(list(Size)),
    side=st.sampled_from(list(Side)),
    x=coordinates,
    y=coordinates,
    hp=st.integers(0, 300),
    hidden=st.booleans(),
)
encounters = st.builds(
    Encounter,
    name=names,
    creatures=st.lists(creatures, max_size=8, unique_by=lambda c: c.id).map(tuple),
    walls=st.lists(
        st.builds(
            Wall,
            a=st.tuples(coordinates, coordinates),
            b=st.tuples(coordinates, coordinates),
            kind=st.sampled_from(list(WallKind)),
        ),
        max_size=5,
    ).map(tuple),
    notes=st.text(max_size=200),
)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(encounter=encounters)
def test_any_encounter_round_trips(tmp_path: Path, encounter: Encounter) -> None:
    path = tmp_path / "random.battlemap"
    save_battlemap(path, encounter, {})
    assert load_battlemap(path).encounter == encounter


def test_a_fight_in_progress_round_trips_with_its_dice_stream(tmp_path: Path) -> None:
    from battlemap.rules.initiative import roll_initiative, start_combat
    from battlemap.rules.loader import load_registry
    from battlemap.rules.turns import begin_combat, end_turn

    ruleset = load_registry().get("srd-5e")
    demo = load_demo_encounter()
    state, _ = state_and_events(
        roll_initiative(with_combat(demo, start_combat(demo, demo.ruleset, seed=7)), ruleset)
    )
    state, _ = state_and_events(begin_combat(with_combat(demo, state), ruleset))
    fighting = demo.model_copy(update={"combat": state})
    path = tmp_path / "fight.battlemap"
    save_battlemap(path, fighting, {})
    loaded = load_battlemap(path).encounter
    assert loaded == fighting
    assert loaded.combat is not None and loaded.combat.dice == state.dice
    # The reopened fight goes on exactly as the saved one would have.
    assert state_and_events(
        end_turn(with_combat(loaded, loaded.combat), ruleset)
    ) == state_and_events(end_turn(with_combat(fighting, state), ruleset))
