"""The damage pipeline per ruleset, with every worked example of the rules documents."""

from __future__ import annotations

import pytest

from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.damage import (
    Adjustment,
    DamageInstance,
    Defenses,
    apply_damage,
    compute_damage,
    damage_expression,
)
from battlemap.rules.enums import CriticalDamage
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import (
    AbsentTargetError,
    DeadTargetError,
    NegativeAmountError,
    UnknownDamageTypeError,
)
from tests.rules.fighters import creature, fight

AURA = Adjustment(-5, source="magical aura")


@pytest.mark.parametrize(
    ("ruleset_id", "damage_type"),
    [
        ("srd-5e", "bludgeoning"),
        ("legends-of-hyrule", "bludgeoning"),
        ("final-fantasy-d20", "blunt"),
        ("gms-den", "bludgeoning"),
    ],
)
def test_25_bludgeoning_aura_then_resistance_is_10(
    rulesets: dict[str, Ruleset], ruleset_id: str, damage_type: str
) -> None:
    # srd / hyrule / ff "Damage Resistance and Vulnerability": 25 - 5 = 20, halved = 10.
    (result,) = compute_damage(
        rulesets[ruleset_id],
        [DamageInstance(25, damage_type)],
        Defenses(resistances=(damage_type,), adjustments=(AURA,)),
    )
    assert [s.after for s in result.steps] == [25, 20, 10]
    assert [s.step for s in result.steps] == ["rolled", "adjustment", "resistance"]
    assert result.final == 10


def test_bloodied_brink_28_fire_order_of_application_is_22(rulesets: dict[str, Ruleset]) -> None:
    # bloodied-brink "Order of Application": 28 -5 = 23, halved 11 (round down), doubled 22.
    (result,) = compute_damage(
        rulesets["bloodied-brink"],
        [DamageInstance(28, "fire")],
        Defenses(resistances=("all",), vulnerabilities=("fire",), adjustments=(AURA,)),
    )
    assert [(s.step, s.after) for s in result.steps] == [
        ("rolled", 28),
        ("adjustment", 23),
        ("resistance", 11),
        ("vulnerability", 22),
    ]


def test_final_fantasy_vulnerability_is_one_and_a_half(rulesets: dict[str, Ruleset]) -> None:
    (ff,) = compute_damage(
        rulesets["final-fantasy-d20"],
        [DamageInstance(11, "ice")],
        Defenses(vulnerabilities=("ice",)),
    )
    (srd,) = compute_damage(
        rulesets["srd-5e"], [DamageInstance(11, "cold")], Defenses(vulnerabilities=("cold",))
    )
    assert ff.final == 16  # 16.5 rounded down
    assert srd.final == 22


def test_resistance_instances_count_once(rulesets: dict[str, Ruleset]) -> None:
    # srd: fire resistance + resistance to all nonmagical damage: halved, not quartered.
    (result,) = compute_damage(
        rulesets["srd-5e"], [DamageInstance(20, "fire")], Defenses(resistances=("fire", "all"))
    )
    assert result.final == 10
    assert "count once" in result.steps[-1].reason


def test_hyrule_only_the_largest_reduction_applies(rulesets: dict[str, Ruleset]) -> None:
    # legends-of-hyrule: aura -5 and fighting style -3 slashing: reduce slashing by 5 only.
    defenses = Defenses(adjustments=(AURA, Adjustment(-3, ("slashing",), "fighting style")))
    (hyrule,) = compute_damage(
        rulesets["legends-of-hyrule"], [DamageInstance(12, "slashing")], defenses
    )
    (srd,) = compute_damage(rulesets["srd-5e"], [DamageInstance(12, "slashing")], defenses)
    assert hyrule.final == 7
    assert any(s.step == "adjustment-ignored" for s in hyrule.steps)
    assert srd.final == 4


def test_immunity_and_never_negative(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    (immune,) = compute_damage(
        srd, [DamageInstance(30, "poison")], Defenses(immunities=("poison",))
    )
    (floored,) = compute_damage(srd, [DamageInstance(3, "fire")], Defenses(adjustments=(AURA,)))
    assert immune.final == 0
    assert floored.final == 0
    assert floored.steps[-1].step == "floor"


def test_half_on_save_rounds_down(rulesets: dict[str, Ruleset]) -> None:
    # bloodied-brink "Half Damage": half of the failed-save damage, rounded down.
    (result,) = compute_damage(
        rulesets["bloodied-brink"], [DamageInstance(27, "fire")], save_half=True
    )
    assert result.final == 13


def test_final_fantasy_has_its_own_17_types(rulesets: dict[str, Ruleset]) -> None:
    ff = rulesets["final-fantasy-d20"]
    assert len(ff.damage.types) == 17
    with pytest.raises(UnknownDamageTypeError, match="slashing"):
        compute_damage(ff, [DamageInstance(5, "slashing")])
    with pytest.raises(UnknownDamageTypeError, match="holy"):
        compute_damage(rulesets["srd-5e"], [DamageInstance(5, "holy")])
    with pytest.raises(UnknownDamageTypeError):
        compute_damage(
            rulesets["srd-5e"], [DamageInstance(5, "fire")], Defenses(resistances=("fyre",))
        )


def test_ff_immersed_creatures_resist_fire(rulesets: dict[str, Ruleset]) -> None:
    ff = rulesets["final-fantasy-d20"]
    encounter, combat = fight(creature("sahagin", hp=30), ruleset="final-fantasy-d20")
    dry = apply_damage(
        with_combat(encounter, combat), ff, EntityId("sahagin"), [DamageInstance(10, "fire")]
    )
    wet = apply_damage(
        with_combat(encounter, combat),
        ff,
        EntityId("sahagin"),
        [DamageInstance(10, "fire")],
        immersed=True,
    )
    assert (dry.result.total, wet.result.total) == (10, 5)
    srd = rulesets["srd-5e"]
    srd_wet = apply_damage(
        with_combat(encounter, combat),
        srd,
        EntityId("sahagin"),
        [DamageInstance(10, "fire")],
        immersed=True,
    )
    assert srd_wet.result.total == 10


def test_petrified_target_resists_everything(rulesets: dict[str, Ruleset]) -> None:
    encounter, combat = fight(creature("statue", hp=30), conditions={"statue": ("petrified",)})
    applied = apply_damage(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("statue"),
        [DamageInstance(9, "slashing")],
    )
    assert applied.result.total == 4


@pytest.mark.parametrize(
    "ruleset_id", ["srd-5e", "legends-of-hyrule", "final-fantasy-d20", "bloodied-brink"]
)
def test_dagger_critical_rolls_2d4(ruleset_id: str, rulesets: dict[str, Ruleset]) -> None:
    # "if you score a critical hit with a dagger, roll 2d4 ... then add your ability modifier"
    mode = rulesets[ruleset_id].attacks.critical_damage
    assert damage_expression("1d4+3", critical=True, mode=mode) == "2d4+3"


def test_gms_den_critical_is_maximum_plus_a_roll(rulesets: dict[str, Ruleset]) -> None:
    mode = rulesets["gms-den"].attacks.critical_damage
    assert mode is CriticalDamage.MAX_PLUS_ROLL
    assert damage_expression("1d4+3", critical=True, mode=mode) == "1d4+7"
    assert damage_expression("2d6", critical=True, mode=mode) == "2d6+12"


def test_target_strike_maximises_every_die_including_critical_ones() -> None:
    assert damage_expression("1d8+3", maximise=True) == "11"
    assert damage_expression("1d8+3", critical=True, maximise=True) == "19"


@pytest.mark.parametrize("bad", [[DamageInstance(-1, "fire")]])
def test_bad_input_leaves_state_unchanged(
    rulesets: dict[str, Ruleset], bad: list[DamageInstance]
) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = fight(creature("hero", hp=10), creature("orc", side=Side.HOSTILE))
    before = (encounter.model_dump(), combat.model_dump())  # a snapshot, not the objects
    with pytest.raises(NegativeAmountError):
        apply_damage(with_combat(encounter, combat), srd, EntityId("hero"), bad)
    with pytest.raises(UnknownDamageTypeError):
        apply_damage(
            with_combat(encounter, combat), srd, EntityId("hero"), [DamageInstance(3, "blunt")]
        )
    with pytest.raises(AbsentTargetError):
        apply_damage(
            with_combat(encounter, combat), srd, EntityId("nobody"), [DamageInstance(3, "fire")]
        )
    dead = apply_damage(
        with_combat(encounter, combat), srd, EntityId("orc"), [DamageInstance(50, "fire")]
    )
    assert dead.combat is not None and dead.combat.combatant(EntityId("orc")).death.dead
    with pytest.raises(DeadTargetError):
        apply_damage(
            with_combat(dead.encounter, dead.combat),
            srd,
            EntityId("orc"),
            [DamageInstance(1, "fire")],
        )
    assert (encounter.model_dump(), combat.model_dump()) == before
    with pytest.raises(ValueError):
        apply_damage(
            with_combat(encounter, combat),
            srd,
            EntityId("hero"),
            [DamageInstance(3, "fire")],
            knockout=True,
        )


@pytest.mark.parametrize(
    ("ruleset_id", "damage_type"),
    [
        ("srd-5e", "fire"),
        ("bloodied-brink", "fire"),
        ("final-fantasy-d20", "fire"),
        ("legends-of-hyrule", "acid"),
    ],
)
def test_area_damage_is_rolled_once_for_every_target(
    rulesets: dict[str, Ruleset], ruleset_id: str, damage_type: str
) -> None:
    # srd/bloodied-brink Fireball, ff Fira, hyrule acid splash: "rolled once for all".
    from battlemap.rules.damage import AreaTarget, DamageRoll, apply_area_damage

    encounter, combat = fight(
        creature("a", hp=60), creature("b", hp=60), creature("c", hp=60), ruleset=ruleset_id
    )
    applied = apply_area_damage(
        with_combat(encounter, combat),
        rulesets[ruleset_id],
        [DamageRoll("8d6", damage_type)],
        [
            AreaTarget(EntityId("a")),
            AreaTarget(EntityId("b")),
            AreaTarget(EntityId("c"), saved=True),
        ],
    )
    a, b, c = applied.result
    assert a.total == b.total and c.total == a.total // 2
    assert applied.combat is not None
    assert [r.expression for r in applied.combat.rolls] == ["8d6"]


def test_bloodied_brink_necrotic_and_resistance_to_all_halves_once(
    rulesets: dict[str, Ruleset],
) -> None:
    # bloodied-brink "No Stacking": Resistance to Necrotic and to all damage: halved once.
    (result,) = compute_damage(
        rulesets["bloodied-brink"],
        [DamageInstance(15, "necrotic")],
        Defenses(resistances=("necrotic", "all")),
    )
    assert result.final == 7


def test_bloodied_brink_resistance_and_vulnerability_together(rulesets: dict[str, Ruleset]) -> None:
    (result,) = compute_damage(
        rulesets["bloodied-brink"],
        [DamageInstance(9, "cold")],
        Defenses(resistances=("cold",), vulnerabilities=("cold",)),
    )
    assert [s.step for s in result.steps] == ["rolled", "resistance", "vulnerability"]
    assert result.final == 8


def test_defenses_from_stat_block_text(rulesets: dict[str, Ruleset]) -> None:
    from battlemap.rules.damage import defenses_from_text

    defenses, notes = defenses_from_text(
        rulesets["srd-5e"],
        resistances=("cold", "bludgeoning, piercing, and slashing from nonmagical attacks"),
        immunities=("poison",),
        vulnerabilities=("holy water",),
    )
    assert defenses.resistances == ("cold", "bludgeoning", "piercing", "slashing")
    assert defenses.immunities == ("poison",) and defenses.vulnerabilities == ()
    assert len(notes) == 2 and "nonmagical" in notes[0] and "holy water" in notes[1]
