"""The JSON the server sends holds exactly the players' projection: never a hidden creature,
a creature id, HP or AC numbers, DM notes or secret terrain.

The scenarios are those of the projection's own leak tests (``tests/ui/test_player_projection.py``
and ``tests/ui/test_players_window.py``), checked here on the text a phone receives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlemap.model import Creature, Encounter, Grid, Side, Size, TerrainRegion, Wall
from battlemap.model.fog import FogMode, FogOfWar, reveal
from battlemap.ui.players.projection import CombatFacts, PlayerView, project
from battlemap.ui.share.page import players_palette
from battlemap.ui.share.payload import Camera, OpaqueKeys, StateEncoder, encode, state_json
from battlemap.ui.share.server import ShareServer, Snapshot
from tests.ui.share.conftest import TIMEOUT_S, join

NOTES = "The orc chief carries the key to the vault"
SECRET_NAME = "Assassin Vexx"
MASKED_NAME = "Orc Chief Grukk"
# Numbers no coordinate, size or grid value of these scenarios uses.
HP, MAX_HP, AC, TEMP_HP = 173, 291, 27, 44
SECRET_FIELDS = {"hp", "max_hp", "temp_hp", "ac", "notes", "hidden", "secret", "id", "stats"}


def creatures() -> tuple[Creature, ...]:
    numbers = {"hp": HP, "max_hp": MAX_HP, "ac": AC, "temp_hp": TEMP_HP}
    return (
        Creature(id="hero-thorin", name="Thorin", side=Side.PARTY, x=1, y=1, **numbers),
        Creature(
            id="orc-chief",
            name=MASKED_NAME,
            size=Size.LARGE,
            name_shown_to_players=False,
            x=6,
            y=1,
            **numbers,
        ),
        Creature(id="vexx-assassin", name=SECRET_NAME, x=3, y=3, hidden=True, **numbers),
    )


def encounter(fog: FogOfWar | None = None) -> Encounter:
    return Encounter(
        grid=Grid(width=10, height=6),
        creatures=creatures(),
        walls=(Wall(a=(5, 0), b=(5, 6)),),
        terrain=(
            TerrainRegion(kind="difficult", points=[(0, 4), (2, 4), (2, 6), (0, 6)]),
            TerrainRegion(kind="impassable", points=[(7, 4), (8.5, 4), (8.5, 5)], secret=True),
        ),
        notes=NOTES,
        fog=fog or FogOfWar(),
    )


SCENARIOS: dict[str, tuple[Encounter, frozenset[tuple[int, int]] | None, CombatFacts | None]] = {
    "no fog": (encounter(), None, None),
    "manual fog": (
        encounter(reveal(FogOfWar(mode=FogMode.MANUAL), frozenset({(1, 1), (2, 1), (3, 3)}))),
        None,
        None,
    ),
    "dynamic fog, explored cells": (
        encounter(FogOfWar(mode=FogMode.DYNAMIC, explored=frozenset({(6, 1), (5, 1)}))),
        frozenset({(1, 1), (3, 3)}),
        None,
    ),
    "combat, the hidden creature's turn": (
        encounter(),
        None,
        CombatFacts(
            round=2,
            order=("orc-chief", "vexx-assassin", "hero-thorin"),  # type: ignore[arg-type]
            acting="vexx-assassin",  # type: ignore[arg-type]
            conditions={"vexx-assassin": ("invisible",)},  # type: ignore[dict-item]
        ),
    ),
}


def walk(data: Any) -> Iterator[tuple[str | None, Any]]:
    """Every (key, value) in a JSON tree; list items come with key None."""
    if isinstance(data, dict):
        for key, value in data.items():
            yield key, value
            yield from walk(value)
    elif isinstance(data, list):
        for value in data:
            yield None, value
            yield from walk(value)


def assert_no_secrets(text: str, source: Encounter) -> None:
    for creature in source.creatures:
        assert creature.id not in text  # keys are opaque: an id can say what a creature is
    assert SECRET_NAME not in text and MASKED_NAME not in text
    assert NOTES not in text and "vault" not in text
    tree = json.loads(text)
    keys = {key for key, _ in walk(tree) if key is not None}
    assert not keys & SECRET_FIELDS
    numbers = {value for _, value in walk(tree) if isinstance(value, int | float)}
    assert not numbers & {HP, MAX_HP, AC, TEMP_HP}
    secret_corners = {(8.5, 4), (8.5, 5)}
    terrain_points = {tuple(p) for region in tree["terrain"] for p in region["points"]}
    assert not terrain_points & secret_corners


def assert_exactly_the_projection(state: dict[str, Any], view: PlayerView) -> None:
    assert [(t["label"], t["x"], t["y"]) for t in state["tokens"]] == [
        (t.label, t.x, t.y) for t in view.tokens
    ]
    assert len(state["walls"]) == len(view.walls)
    assert len(state["terrain"]) == len(view.terrain)
    if view.visible is None:
        assert state["fog"] is None
    else:
        width = view.grid.width
        cells = state["fog"]["cells"]
        assert {(i % width, i // width) for i, c in enumerate(cells) if c == "2"} == view.visible
        assert {(i % width, i // width) for i, c in enumerate(cells) if c == "1"} == view.explored


@pytest.mark.parametrize("name", SCENARIOS)
def test_the_json_a_phone_receives_holds_no_secret(server: ShareServer, name: str) -> None:
    source, sight, combat = SCENARIOS[name]
    view = project(source, sight, combat)
    server.publish(Snapshot(view, Camera(0, 0, 10, 6), None))
    with join(server) as phone:
        text = ""
        while '"type":"state"' not in text:
            text = str(phone.recv(timeout=TIMEOUT_S))
    assert_no_secrets(text, source)
    assert_exactly_the_projection(json.loads(text), view)


def test_a_hidden_creatures_turn_is_not_announced_on_the_phones(server: ShareServer) -> None:
    source, sight, combat = SCENARIOS["combat, the hidden creature's turn"]
    server.publish(Snapshot(project(source, sight, combat), Camera(0, 0, 10, 6), None))
    with join(server) as phone:
        text = ""
        while '"type":"state"' not in text:
            text = str(phone.recv(timeout=TIMEOUT_S))
    turn = json.loads(text)["turn"]
    assert turn["acting"] is None or turn["acting"] != SECRET_NAME
    assert SECRET_NAME not in turn["order"] and len(turn["order"]) == 2


def test_random_encounters_never_leak_into_the_json() -> None:
    """Property: whatever is hidden, masked, fogged or secret, the JSON holds none of it."""
    counts = {"examples": 0, "with a hidden creature": 0, "under fog": 0}
    keys = OpaqueKeys(b"k" * 16)
    palette = players_palette()

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        hidden=st.lists(st.booleans(), min_size=3, max_size=3),
        masked=st.lists(st.booleans(), min_size=3, max_size=3),
        revealed=st.frozensets(st.tuples(st.integers(0, 9), st.integers(0, 5)), max_size=30),
        mode=st.sampled_from(list(FogMode)),
    )
    def check(
        hidden: list[bool], masked: list[bool], revealed: frozenset[tuple[int, int]], mode: FogMode
    ) -> None:
        base = encounter(reveal(FogOfWar(mode=mode), revealed))
        changed = tuple(
            c.model_copy(update={"hidden": h, "name_shown_to_players": not m})
            for c, h, m in zip(base.creatures, hidden, masked, strict=True)
        )
        source = base.model_copy(update={"creatures": changed})
        view = project(source, revealed if mode.uses_sight else None)
        text = encode(state_json(view, keys, palette, None))
        for creature in source.creatures:
            assert creature.id not in text
            if creature.hidden or not creature.name_shown_to_players:
                assert f'"{creature.name}"' not in text
        assert NOTES not in text
        tree = json.loads(text)
        assert not {key for key, _ in walk(tree) if key is not None} & SECRET_FIELDS
        assert not {v for _, v in walk(tree) if isinstance(v, int | float)} & {HP, MAX_HP, AC}
        assert_exactly_the_projection(tree, view)
        counts["examples"] += 1
        counts["with a hidden creature"] += any(hidden)
        counts["under fog"] += mode is not FogMode.OFF

    check()
    assert counts["examples"] >= 100
    assert counts["with a hidden creature"] >= 30 and counts["under fog"] >= 30, counts


def test_the_encoder_sends_what_state_json_says_and_refreshes_edited_walls() -> None:
    keys, palette = OpaqueKeys(b"k" * 16), players_palette()
    encoder = StateEncoder(keys, palette)
    source, sight, combat = SCENARIOS["no fog"]
    view = project(source, sight, combat)
    assert json.loads(encoder.encode(view, None)) == json.loads(
        encode(state_json(view, keys, palette, None))
    )
    edited = source.model_copy(update={"walls": (Wall(a=(1, 0), b=(1, 6)),)})
    walls = json.loads(encoder.encode(project(edited, None), None))["walls"]
    assert walls == [{"a": [1.0, 0.0], "b": [1.0, 6.0], "kind": "wall", "open": False}]
