"""The attack situation built from the real geometry: range, cover, flanking, sight."""

from __future__ import annotations

from battlemap.geometry.map_index import MapIndex
from battlemap.model.combat import CombatState
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree, Wall
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage
from battlemap.rules.attack_situation import attack_situation, statblock_profile
from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    AttackSituation,
    Delivery,
    RangeBand,
    RollMode,
    make_attack,
)
from battlemap.rules.damage import DamageRoll
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.fighters import combat_of, creature

SWORD = AttackProfile("Shortsword", 5, damage=(DamageRoll("1d6", "piercing"),))
BOW = AttackProfile(
    "Shortbow",
    5,
    Delivery.RANGED,
    damage=(DamageRoll("1d6", "piercing"),),
    range_normal=80,
    range_long=320,
)


def a_attacks_t(
    encounter: Encounter, combat: CombatState | None, ruleset: Ruleset, profile: AttackProfile
) -> AttackSituation:
    """The situation of creature "a" attacking creature "t" with ``profile``."""
    return attack_situation(
        MapIndex.build(encounter), encounter, combat, ruleset, EntityId("a"), EntityId("t"), profile
    )


def test_adjacent_melee_no_cover_everyone_sees(rulesets: dict[str, Ruleset]) -> None:
    encounter = Encounter(
        creatures=(creature("a", x=2, y=2), creature("t", x=3, y=2, side=Side.HOSTILE))
    )
    situation = a_attacks_t(encounter, None, rulesets["srd-5e"], SWORD)
    assert situation.distance_feet == 5 and situation.cover is CoverDegree.NONE
    assert situation.attacker_sees_target and situation.target_sees_attacker


def test_ranged_with_a_hostile_adjacent_and_long_range(rulesets: dict[str, Ruleset]) -> None:
    encounter = Encounter(
        creatures=(
            creature("a", x=0, y=0),
            creature("t", x=19, y=0, side=Side.HOSTILE),
            creature("g", x=1, y=0, side=Side.HOSTILE),
        ),
        grid=Encounter().grid.model_copy(update={"cell_feet": 5.0, "width": 40}),
    )
    situation = a_attacks_t(encounter, None, rulesets["srd-5e"], BOW)
    assert situation.hostile_within_5ft and situation.range_band is RangeBand.LONG  # 95 ft > 80
    assert situation.cover is CoverDegree.HALF  # G stands in the way
    assert any("hostile within 5 ft" in r for r in situation.reasons)


def test_a_wall_blocks_sight_and_gives_cover(rulesets: dict[str, Ruleset]) -> None:
    wall = Wall(a=(5.0, 0.0), b=(5.0, 15.0))
    encounter = Encounter(
        creatures=(creature("a", x=2, y=5), creature("t", x=8, y=5, side=Side.HOSTILE)),
        walls=(wall,),
    )
    situation = a_attacks_t(encounter, None, rulesets["srd-5e"], BOW)
    assert situation.cover is CoverDegree.TOTAL
    assert not situation.attacker_sees_target


def test_gms_den_flanking_gives_advantage_end_to_end(rulesets: dict[str, Ruleset]) -> None:
    gms = rulesets["gms-den"]
    encounter = Encounter(
        ruleset="gms-den",
        creatures=(
            creature("a", x=2, y=2),
            creature("t", x=3, y=2, side=Side.HOSTILE, ac=30),
            creature("b", x=4, y=2),
        ),
    )
    combat = combat_of(encounter)
    situation = a_attacks_t(encounter, combat, gms, SWORD)
    assert situation.flanked and any("flanked with B" in r for r in situation.reasons)
    applied = make_attack(
        with_combat(encounter, combat),
        gms,
        EntityId("a"),
        EntityId("t"),
        SWORD,
        situation,
        AttackOptions(d20=(4, 9)),
    )
    assert applied.result.roll_mode.mode is RollMode.ADVANTAGE and applied.result.natural == 9
    srd_situation = a_attacks_t(encounter, combat, rulesets["srd-5e"], SWORD)
    assert not srd_situation.flanked


JAVELIN = Attack(
    name="Javelin",
    kind=AttackKind.MELEE_OR_RANGED,
    to_hit=4,
    reach=5,
    range_normal=30,
    range_long=120,
    damage=(Damage(dice="1d6+2", type="piercing"),),
)


def test_srd_5e_a_thrown_weapon_is_thrown_at_a_target_beyond_its_reach(
    rulesets: dict[str, Ruleset],
) -> None:
    """srd-5e, Two-Weapon Fighting: "If either weapon has the thrown property, you can throw
    the weapon, instead of making a melee attack with it": within reach a javelin is a melee
    attack; at 20 ft it is thrown (a ranged attack at normal range), not refused; at 35 ft,
    past its 30 ft, at long range."""
    ruleset = rulesets["srd-5e"]
    cases = (
        (3, Delivery.MELEE, RangeBand.REACH),
        (6, Delivery.RANGED, RangeBand.NORMAL),
        (9, Delivery.RANGED, RangeBand.LONG),
    )
    for target_x, delivery, band in cases:
        encounter = Encounter(
            creatures=(creature("a", x=2, y=2), creature("t", x=target_x, y=2, side=Side.HOSTILE))
        )
        profile = statblock_profile(encounter, ruleset, EntityId("a"), EntityId("t"), JAVELIN)
        assert profile.delivery is delivery, target_x
        assert profile.thrown and profile.range_normal == 30
        situation = a_attacks_t(encounter, None, ruleset, profile)
        assert situation.distance_feet == (target_x - 2) * 5
        assert situation.range_band is band, target_x
    bow = Attack(name="Shortbow", kind=AttackKind.RANGED, to_hit=4, range_normal=80)
    adjacent = Encounter(
        creatures=(creature("a", x=2, y=2), creature("t", x=3, y=2, side=Side.HOSTILE))
    )
    assert (
        statblock_profile(adjacent, ruleset, EntityId("a"), EntityId("t"), bow).delivery
        is Delivery.RANGED
    )
