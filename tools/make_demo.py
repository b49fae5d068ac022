"""Write assets/demo-encounter.json: the encounter Battlemap opens when started without a file.

A small ruined watchtower with a party of five (one Tiny familiar) against SRD monsters of
every size, so every feature has something to show: walls, a door and a window, half and
total cover, difficult terrain and water, a hidden creature and a neutral bystander.
Run it again after a model change: ``.venv/bin/python tools/make_demo.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

from battlemap.io.monsters import creature_from_statblock, load_library
from battlemap.model import (
    CoverDegree,
    Creature,
    Encounter,
    Grid,
    Obstacle,
    Side,
    Size,
    Speeds,
    TerrainKind,
    TerrainRegion,
    Wall,
    WallKind,
)
from battlemap.model.creature import CombatStats
from battlemap.model.statblock import Attack, AttackKind, Damage, StatBlock

ROOT = Path(__file__).resolve().parent.parent


def hero(
    name: str,
    size: Size,
    xy: tuple[float, float],
    hp: int,
    ac: int,
    walk: int,
    dex: int,
    wis: int,
    attack: Attack,
) -> Creature:
    block = StatBlock(
        name=name,
        size=size,
        armor_class=ac,
        hit_points=hp,
        hit_dice=f"{hp}",
        speeds=Speeds(walk=walk),
        attacks=(attack,),
    )
    return Creature(
        name=name,
        size=size,
        side=Side.PARTY,
        x=xy[0],
        y=xy[1],
        max_hp=hp,
        hp=hp,
        ac=ac,
        speeds=Speeds(walk=walk),
        statblock=block,
        stats=CombatStats(dexterity=dex, wisdom=wis),
    )


def melee(name: str, to_hit: int, dice: str, kind: str) -> Attack:
    return Attack(
        name=name,
        kind=AttackKind.MELEE,
        to_hit=to_hit,
        reach=5,
        damage=(Damage(dice=dice, type=kind),),
    )


def ranged(name: str, to_hit: int, dice: str, kind: str, normal: int, long: int) -> Attack:
    return Attack(
        name=name,
        kind=AttackKind.RANGED,
        to_hit=to_hit,
        range_normal=normal,
        range_long=long,
        damage=(Damage(dice=dice, type=kind),),
    )


def build() -> Encounter:
    library = {
        block.name: block for block in load_library(ROOT / "assets" / "srd-monsters.json").monsters
    }

    def monster(name: str, label: str, xy: tuple[float, float], **extra: object) -> Creature:
        creature = creature_from_statblock(library[name], name=label, position=xy)
        return creature.model_copy(update=extra)

    w, door, window = WallKind.WALL, WallKind.DOOR, WallKind.WINDOW
    walls = [
        # the watchtower's ground floor, north-east: a door south, a window west
        ((12, 1), (19, 1), w),
        ((19, 1), (19, 7), w),
        ((19, 7), (16, 7), w),
        ((16, 7), (15, 7), door),
        ((15, 7), (12, 7), w),
        ((12, 7), (12, 5), w),
        ((12, 5), (12, 4), window),
        ((12, 4), (12, 1), w),
        # a ruined wall in the south-west
        ((2, 10), (7, 10), w),
        ((7, 10), (7, 13), w),
    ]
    creatures = (
        hero(
            "Thorin",
            Size.MEDIUM,
            (2, 7),
            44,
            18,
            25,
            10,
            13,
            melee("Warhammer", 6, "1d8+3", "bludgeoning"),
        ),
        hero(
            "Elowen",
            Size.MEDIUM,
            (3, 8),
            27,
            14,
            35,
            16,
            14,
            ranged("Longbow", 6, "1d8+3", "piercing", 150, 600),
        ),
        hero(
            "Pip",
            Size.SMALL,
            (1, 8),
            22,
            15,
            25,
            17,
            12,
            melee("Shortsword", 5, "1d6+3", "piercing"),
        ),
        hero(
            "Mira",
            Size.MEDIUM,
            (2, 9),
            24,
            13,
            30,
            12,
            16,
            melee("Mace", 4, "1d6+2", "bludgeoning"),
        ),
        Creature(
            name="Owl",
            size=Size.TINY,
            side=Side.PARTY,
            x=4.5,
            y=7.5,
            max_hp=1,
            hp=1,
            ac=11,
            speeds=Speeds(walk=5, fly=60),
        ),
        monster("Goblin", "Goblin 1", (10, 6)),
        monster("Goblin", "Goblin 2", (9, 4)),
        monster("Bandit", "Bandit", (11, 10)),
        monster("Ogre", "Ogre", (14, 9)),
        monster("Hill Giant", "Hill Giant", (16, 11)),
        monster(
            "Ancient Red Dragon",
            "Ancient Red Dragon",
            (13, 2),
            hidden=True,
            name_shown_to_players=False,
        ),
        Creature(name="Villager", side=Side.NEUTRAL, x=8, y=1, max_hp=4, hp=4, ac=10),
    )
    encounter = Encounter(
        name="Demo: Ambush at the Old Watchtower",
        grid=Grid(width=20, height=15),
        creatures=creatures,
        walls=tuple(Wall(a=a, b=b, kind=kind) for a, b, kind in walls),
        obstacles=(
            Obstacle(
                name="Low stone wall",
                points=[(9, 8), (11, 8), (11, 8.5), (9, 8.5)],
                cover=CoverDegree.HALF,
            ),
            Obstacle(
                name="Pillar",
                points=[(17.5, 2), (18.5, 2), (18.5, 3), (17.5, 3)],
                cover=CoverDegree.TOTAL,
            ),
        ),
        terrain=(
            TerrainRegion(kind=TerrainKind.DIFFICULT, points=[(3, 3), (8, 3), (8, 6), (3, 6)]),
            TerrainRegion(kind=TerrainKind.WATER, points=[(0, 12), (2, 12), (2, 15), (0, 15)]),
        ),
        notes="The dragon sleeps in the tower until round 3.",
    )
    return encounter


def stable_ids(data: dict[str, list[dict[str, object]]]) -> None:
    """Readable, fixed ids so the demo file does not change from one run to the next."""
    for kind in ("creatures", "walls", "obstacles", "terrain"):
        for number, item in enumerate(data[kind], start=1):
            item["id"] = f"{kind.rstrip('s')}-{number}"


def main() -> None:
    data = json.loads(build().model_dump_json())
    stable_ids(data)
    Encounter.model_validate(data)
    out = ROOT / "assets" / "demo-encounter.json"
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
