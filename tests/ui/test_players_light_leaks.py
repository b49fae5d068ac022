"""No light the party cannot see reaches the players' window or the phones (issue 20).

Two rooms split by a solid wall at x = 10 on a dark map: the hero carries a torch in the west
room; the east room holds a lantern and an orc standing in its light. The party sees none of
the east room, so the projection and the phones' JSON must be what they would be without the
lantern; and a goblin in the dark within the hero's line of sight is not shown either.
"""

from __future__ import annotations

import json
from typing import Any

import shapely

from battlemap.model import Creature, Encounter, Grid, Light, LightLevel, MapLighting, Side, Wall
from battlemap.model.fog import FogMode, FogOfWar
from battlemap.model.ids import EntityId
from battlemap.ui.players.party_fog import PartyFog
from battlemap.ui.players.projection import PlayerView, project
from battlemap.ui.share.page import players_palette
from battlemap.ui.share.payload import OpaqueKeys, encode, state_json

HERO, ORC, GOBLIN = EntityId("creature-hero"), EntityId("creature-orc"), EntityId("creature-gob")
TORCH = Light(
    id=EntityId("light-torch"), position=(0, 0), bright_cells=4, dim_cells=8, carried_by=HERO
)
LANTERN = Light(id=EntityId("light-lantern"), position=(15.25, 4.75), bright_cells=6, dim_cells=12)


def encounter(*lights: Light) -> Encounter:
    return Encounter(
        grid=Grid(width=20, height=10),
        creatures=(
            Creature(id=HERO, name="Hero", side=Side.PARTY, x=2, y=4),
            Creature(id=ORC, name="Orc", x=15, y=5),
            Creature(id=GOBLIN, name="Goblin", x=9, y=9),  # its centre 8.6 cells from the torch
        ),
        walls=(Wall(id=EntityId("wall"), a=(10, 0), b=(10, 10)),),
        lights=lights,
        lighting=MapLighting(ambient=LightLevel.DARK),
        fog=FogOfWar(mode=FogMode.DYNAMIC),
    )


def view_of(source: Encounter) -> PlayerView:
    fog = PartyFog()
    light = fog.seen_light(source)
    assert light is not None
    return project(source, fog.visible(source), None, None, fog.sight_areas(source), light.dim)


def phone_json(view: PlayerView) -> dict[str, Any]:
    text = encode(state_json(view, OpaqueKeys(b"k" * 32), players_palette(), None))
    data: dict[str, Any] = json.loads(text)
    return data


def test_a_light_behind_a_wall_changes_nothing_the_players_get() -> None:
    with_lantern, without = view_of(encounter(TORCH, LANTERN)), view_of(encounter(TORCH))
    assert with_lantern.visible == without.visible
    assert with_lantern.tokens == without.tokens
    assert with_lantern.dim_light is not None and without.dim_light is not None
    assert shapely.equals(with_lantern.dim_light, without.dim_light)
    assert all(
        shapely.equals(a, b)
        for a, b in zip(with_lantern.sight_areas or (), without.sight_areas or (), strict=True)
    )
    assert phone_json(with_lantern) == phone_json(without)


def test_the_phones_get_the_dim_area_the_party_sees_and_never_a_light_position() -> None:
    data = phone_json(view_of(encounter(TORCH, LANTERN)))
    (dim,) = data["lights"]
    assert dim["level"] == "dim"
    points = [p for rings in dim["polygons"] for ring in rings for p in ring]
    assert points and all(x <= 10 + 1e-9 for x, _ in points)  # the west room only
    text = json.dumps(data)
    assert "15.25" not in text and "lantern" not in text and "torch" not in text
    assert {"position", "carried_by", "bright_cells", "dim_cells"}.isdisjoint(
        key for light in data["lights"] for key in light
    )


def test_a_creature_in_darkness_is_not_shown_though_in_the_line_of_sight() -> None:
    view = view_of(encounter(TORCH))
    shown = {token.key for token in view.tokens}
    assert HERO in shown and GOBLIN not in shown  # the goblin's cells lie past the dim radius
    assert (9, 9) not in (view.visible or frozenset())
