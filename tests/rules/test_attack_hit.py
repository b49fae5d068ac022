"""Resolving attacks: AC with cover, natural 1 and 20, auto-crits, Hyrule's AC floor, gms-den
fumbles and called shots, Hyrule target strikes, two-weapon fighting, economy and bad input."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from battlemap.model.combat import CombatState
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind, Damage
from battlemap.rules.attacks import (
    AttackOptions,
    AttackProfile,
    AttackResult,
    AttackSituation,
    Delivery,
    FumbleChoice,
    RangeBand,
    RollMode,
    TargetStrikePayment,
    armor_class,
    make_attack,
)
from battlemap.rules.damage import DamageRoll
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import BadDieError, DeadTargetError, NotTargetableError
from tests.rules.fighters import creature, fight

DAGGER = AttackProfile(
    "Dagger",
    to_hit=5,
    damage=(DamageRoll("1d4", "piercing"),),
    ability_modifier=3,
    light=True,
    weapon="dagger",
)
BOW = AttackProfile(
    "Longbow", to_hit=5, delivery=Delivery.RANGED, damage=(DamageRoll("1d8", "piercing"),)
)
NEAR = AttackSituation(distance_feet=5)


def duel(
    ruleset: str = "srd-5e", target: tuple[str, ...] = (), **target_kw: Any
) -> tuple[Encounter, CombatState]:
    kw = {"hp": 30, "ac": 15, "side": Side.HOSTILE, **target_kw}
    return fight(
        creature("hero", hp=30),
        creature("foe", **kw),
        ruleset=ruleset,
        conditions={"foe": target},
    )


def attack(
    rulesets: dict[str, Ruleset],
    ruleset: str = "srd-5e",
    profile: AttackProfile = DAGGER,
    situation: AttackSituation = NEAR,
    target: tuple[str, ...] = (),
    **options: Any,
) -> Outcome[AttackResult]:
    encounter, combat = duel(ruleset, target)
    return make_attack(
        with_combat(encounter, combat),
        rulesets[ruleset],
        EntityId("hero"),
        EntityId("foe"),
        profile,
        situation,
        AttackOptions(**options),
    )


def test_total_equal_to_ac_hits_one_less_misses(rulesets: dict[str, Ruleset]) -> None:
    assert attack(rulesets, d20=(10,), damage_rolls=(5,)).result.hit
    miss = attack(rulesets, d20=(9,))
    assert not miss.result.hit and miss.result.reasons == ("14 < AC 15: misses",)
    assert miss.result.damage is None


def test_hit_applies_damage_and_spends_an_attack_in_one_state(rulesets: dict[str, Ruleset]) -> None:
    applied = attack(rulesets, d20=(12,), damage_rolls=(6,))
    assert applied.result.damage is not None and applied.result.damage.total == 6
    assert applied.encounter.creature(EntityId("foe")).hp == 24
    assert applied.combat is not None
    turn = applied.combat.combatant(EntityId("hero")).turn
    assert turn.action_used and turn.attacks_left == 0
    assert applied.result.spent == "one attack"
    with pytest.raises(IllegalActionError, match="action"):
        make_attack(
            with_combat(applied.encounter, applied.combat),
            rulesets["srd-5e"],
            EntityId("hero"),
            EntityId("foe"),
            DAGGER,
            NEAR,
            AttackOptions(d20=(12,)),
        )


@pytest.mark.parametrize(
    ("cover", "ac"), [(CoverDegree.HALF, 17), (CoverDegree.THREE_QUARTERS, 20)]
)
def test_cover_adds_to_ac(rulesets: dict[str, Ruleset], cover: CoverDegree, ac: int) -> None:
    applied = attack(
        rulesets,
        situation=AttackSituation(distance_feet=5, cover=cover),
        d20=(ac - 5,),
        damage_rolls=(4,),
    )
    assert applied.result.armor_class.value == ac and applied.result.hit
    assert not attack(
        rulesets, situation=AttackSituation(distance_feet=5, cover=cover), d20=(ac - 6,)
    ).result.hit


def test_total_cover_cannot_be_targeted_state_unchanged(rulesets: dict[str, Ruleset]) -> None:
    encounter, combat = duel()
    with pytest.raises(NotTargetableError, match="total cover"):
        make_attack(
            with_combat(encounter, combat),
            rulesets["srd-5e"],
            EntityId("hero"),
            EntityId("foe"),
            DAGGER,
            AttackSituation(cover=CoverDegree.TOTAL),
            AttackOptions(d20=(20,)),
        )
    assert combat.combatant(EntityId("hero")).turn.attacks_left == 0 and not combat.rolls


def test_natural_20_always_hits_and_crits_natural_1_always_misses(
    rulesets: dict[str, Ruleset],
) -> None:
    crit = attack(rulesets, d20=(20,))
    assert crit.result.hit and crit.result.critical
    assert crit.result.damage_rolled is not None and crit.result.damage_rolled.expressions == (
        "2d4+3",
    )
    big = AttackProfile("Club", to_hit=30, damage=(DamageRoll("1d4", "bludgeoning"),))
    assert not attack(rulesets, profile=big, d20=(1,)).result.hit


def test_hits_on_paralyzed_or_unconscious_within_5_ft_are_critical(
    rulesets: dict[str, Ruleset],
) -> None:
    for condition in ("paralyzed", "unconscious"):
        near = attack(rulesets, target=(condition,), d20=(12, 3), damage_rolls=(5,))
        assert near.result.critical and any("within 5 ft" in r for r in near.result.reasons)
    far = attack(
        rulesets,
        profile=BOW,
        target=("paralyzed",),
        d20=(12, 3),
        damage_rolls=(4,),
        situation=AttackSituation(distance_feet=30, range_band=RangeBand.NORMAL),
    )
    assert far.result.hit and not far.result.critical


def test_advantage_keeps_the_higher_typed_die(rulesets: dict[str, Ruleset]) -> None:
    applied = attack(rulesets, target=("stunned",), d20=(3, 17), damage_rolls=(5,))
    assert applied.result.roll_mode.mode is RollMode.ADVANTAGE
    assert (applied.result.d20_faces, applied.result.natural) == ((3, 17), 17)
    with pytest.raises(BadDieError):
        attack(rulesets, d20=(0,))


def test_app_rolled_attack_is_replayable(rulesets: dict[str, Ruleset]) -> None:
    first, second = attack(rulesets), attack(rulesets)
    assert first.result == second.result
    assert first.combat is not None and first.combat.rolls[0].expression == "1d20"


def test_hyrule_ac_never_below_10_plus_dex(rulesets: dict[str, Ruleset]) -> None:
    encounter, _ = fight(creature("foe", ac=12, dex=18))
    foe = encounter.creature(EntityId("foe"))
    lowered = AttackOptions(ac_adjustment=-4)
    hyrule = armor_class(rulesets["legends-of-hyrule"], foe, AttackSituation(), lowered)
    srd = armor_class(rulesets["srd-5e"], foe, AttackSituation(), lowered)
    assert (hyrule.value, srd.value) == (14, 8)


@pytest.mark.parametrize(
    ("face", "fumble", "hit"),
    [
        (1, "gm-decides", False),
        (2, "prone-or-hit-self", False),
        (19, "miss", False),
        (20, "hit", True),
    ],
)
def test_gms_den_fumble_table(
    rulesets: dict[str, Ruleset], face: int, fumble: str, hit: bool
) -> None:
    applied = attack(rulesets, "gms-den", d20=(1,), fumble_d20=face, damage_rolls=(5,))
    assert (applied.result.fumble, applied.result.hit, applied.result.critical) == (
        fumble,
        hit,
        False,
    )
    assert attack(rulesets, "srd-5e", d20=(1,)).result.fumble is None


def test_gms_den_fumble_prone_is_part_of_the_same_state(rulesets: dict[str, Ruleset]) -> None:
    applied = attack(rulesets, "gms-den", d20=(1,), fumble_d20=5, fumble_choice=FumbleChoice.PRONE)
    assert applied.combat is not None and applied.combat.combatant(EntityId("hero")).has_condition(
        "prone"
    )


def test_gms_den_critical_is_maximum_plus_roll(rulesets: dict[str, Ruleset]) -> None:
    applied = attack(rulesets, "gms-den", d20=(20,))
    assert applied.result.damage_rolled is not None
    assert applied.result.damage_rolled.expressions == ("1d4+7",)


def test_gms_den_called_shot(rulesets: dict[str, Ruleset]) -> None:
    shot = attack(rulesets, "gms-den", called_shot="hand", d20=(11, 16), damage_rolls=(5,))
    assert shot.result.roll_mode.mode is RollMode.DISADVANTAGE
    assert shot.result.armor_class.value == 17 and not shot.result.hit  # kept 11 + 5 < 17
    good = attack(rulesets, "gms-den", called_shot="hand", d20=(16, 13), damage_rolls=(5,))
    assert good.result.hit and good.result.called_shot_effect
    already = attack(rulesets, "gms-den", called_shot="eye", target=("invisible",), d20=(20, 20))
    assert not already.result.hit and any(
        "fails automatically" in r for r in already.result.reasons
    )
    with pytest.raises(IllegalActionError, match="called shots"):
        attack(rulesets, "srd-5e", called_shot="hand")


def test_hyrule_target_strike(rulesets: dict[str, Ruleset]) -> None:
    paid = attack(
        rulesets,
        "legends-of-hyrule",
        target_strike=TargetStrikePayment.STAMINA,
        stamina_available=3,
        d20=(15,),
    )
    assert paid.result.stamina_spent == 2 and paid.result.roll_mode.mode is RollMode.NORMAL
    assert paid.result.damage is not None and paid.result.damage.total == 7  # 1d4 maximised + 3
    cheap = attack(
        rulesets, "legends-of-hyrule", target_strike=TargetStrikePayment.DISADVANTAGE, d20=(15, 18)
    )
    assert cheap.result.roll_mode.mode is RollMode.DISADVANTAGE and cheap.result.natural == 15
    with pytest.raises(IllegalActionError, match="already has disadvantage"):
        attack(
            rulesets,
            "legends-of-hyrule",
            target=("invisible",),
            target_strike=TargetStrikePayment.STAMINA,
            stamina_available=2,
        )
    with pytest.raises(IllegalActionError, match="-5"):
        attack(
            rulesets,
            "legends-of-hyrule",
            target_strike=TargetStrikePayment.STAMINA,
            stamina_available=2,
            attack_penalty=-5,
        )
    with pytest.raises(IllegalActionError, match="stamina"):
        attack(
            rulesets,
            "legends-of-hyrule",
            target_strike=TargetStrikePayment.STAMINA,
            stamina_available=1,
        )
    with pytest.raises(IllegalActionError):
        attack(rulesets, "srd-5e", target_strike=TargetStrikePayment.STAMINA, stamina_available=2)


def test_two_weapon_fighting_per_ruleset(rulesets: dict[str, Ruleset]) -> None:
    weak = AttackProfile(
        "Handaxe",
        4,
        damage=(DamageRoll("1d6", "slashing"),),
        ability_modifier=-1,
        light=True,
        weapon="handaxe",
    )
    srd = attack(rulesets, "srd-5e", profile=weak, offhand=True, action_id=None, d20=(20,))
    gms = attack(rulesets, "gms-den", profile=weak, offhand=True, action_id=None, d20=(20,))
    assert srd.result.damage_rolled is not None and srd.result.damage_rolled.expressions == ("2d6",)
    assert gms.result.damage_rolled is not None and gms.result.damage_rolled.expressions == (
        "1d6+5",
    )
    strong = attack(rulesets, "srd-5e", offhand=True, action_id=None, d20=(15,))
    assert strong.result.damage_rolled is not None and strong.result.damage_rolled.expressions == (
        "1d4",
    )
    rapier = AttackProfile(
        "Rapier", 5, damage=(DamageRoll("1d8", "piercing"),), light=True, weapon="rapier"
    )
    with pytest.raises(IllegalActionError, match="listed"):
        attack(rulesets, "gms-den", profile=rapier, offhand=True, action_id=None)
    scimitar = AttackProfile(
        "Scimitar", 5, damage=(DamageRoll("1d6", "slashing"),), ability_modifier=3, light=True
    )
    hyrule = attack(
        rulesets,
        "legends-of-hyrule",
        profile=scimitar,
        d20=(15,),
        offhand_dice=DamageRoll("1d6", "slashing"),
    )
    assert hyrule.result.damage_rolled is not None
    assert hyrule.result.damage_rolled.expressions == ("1d6+3", "1d6")  # 2d6 + modifier
    with pytest.raises(IllegalActionError):
        attack(rulesets, "srd-5e", profile=scimitar, offhand_dice=DamageRoll("1d6", "slashing"))


def test_reach_range_and_bad_targets(rulesets: dict[str, Ruleset]) -> None:
    with pytest.raises(NotTargetableError, match="reach"):
        attack(rulesets, situation=AttackSituation(distance_feet=10))
    with pytest.raises(NotTargetableError, match="long range"):
        attack(
            rulesets,
            profile=BOW,
            situation=AttackSituation(distance_feet=700, range_band=RangeBand.OUT_OF_RANGE),
        )
    encounter, combat = duel()
    dead = combat.combatant(EntityId("foe")).model_copy(
        update={"death": combat.combatant(EntityId("foe")).death.model_copy(update={"dead": True})}
    )
    with pytest.raises(DeadTargetError):
        make_attack(
            with_combat(encounter, combat.with_combatant(dead)),
            rulesets["srd-5e"],
            EntityId("hero"),
            EntityId("foe"),
            DAGGER,
            NEAR,
        )


def test_underwater_ranged_beyond_normal_range_misses(rulesets: dict[str, Ruleset]) -> None:
    far = AttackSituation(distance_feet=200, range_band=RangeBand.LONG, underwater=True)
    bow = replace(BOW, damage=(DamageRoll("1d8", "pierce"),))  # its own damage types
    applied = attack(rulesets, "final-fantasy-d20", profile=bow, situation=far, d20=(20, 20))
    assert not applied.result.hit


def test_help_is_used_up_and_hidden_attacker_revealed(rulesets: dict[str, Ruleset]) -> None:
    encounter, combat = fight(
        creature("hero"), creature("foe", side=Side.HOSTILE, ac=15), creature("ally")
    )
    combat = combat.with_combatant(
        combat.combatant(EntityId("ally")).model_copy(update={"helping": "hero"})
    )
    combat = combat.with_combatant(
        combat.combatant(EntityId("hero")).model_copy(update={"hidden_stealth": 17})
    )
    applied = make_attack(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("hero"),
        EntityId("foe"),
        DAGGER,
        NEAR,
        AttackOptions(d20=(4, 12)),
    )
    assert applied.result.roll_mode.advantages == ("Help from Ally",)
    assert applied.combat is not None
    assert applied.combat.combatant(EntityId("ally")).helping is None
    assert applied.combat.combatant(EntityId("hero")).hidden_stealth is None


def test_statblock_attack_profile() -> None:
    attack_ = Attack(
        name="Javelin",
        kind=AttackKind.MELEE_OR_RANGED,
        to_hit=4,
        reach=5,
        range_normal=30,
        range_long=120,
        damage=(Damage(dice="1d6+2", type="Piercing"),),
    )
    thrown = AttackProfile.from_statblock(attack_, ranged=True)
    assert (
        thrown.delivery is Delivery.RANGED
        and thrown.thrown
        and thrown.damage == (DamageRoll("1d6+2", "piercing"),)
    )
    versatile = Attack(
        name="Longsword",
        kind=AttackKind.MELEE,
        to_hit=5,
        reach=5,
        damage=(
            Damage(dice="1d8+3", type="slashing", choice=0),
            Damage(dice="1d10+3", type="slashing", choice=1),
        ),
    )
    assert AttackProfile.from_statblock(versatile).damage == (DamageRoll("1d8+3", "slashing"),)
    assert AttackProfile.from_statblock(versatile, choice=1).damage == (
        DamageRoll("1d10+3", "slashing"),
    )


def test_hyrule_thrown_handaxe_adds_no_offhand_dice(rulesets: dict[str, Ruleset]) -> None:
    # hyrule "Two-Weapon Fighting": a thrown handaxe (ranged) can't add the other weapon's dice.
    handaxe = AttackProfile(
        "Handaxe",
        5,
        Delivery.RANGED,
        damage=(DamageRoll("1d6", "slashing"),),
        light=True,
        thrown=True,
        weapon="handaxe",
    )
    with pytest.raises(IllegalActionError, match="melee"):
        attack(
            rulesets,
            "legends-of-hyrule",
            profile=handaxe,
            offhand_dice=DamageRoll("1d6", "slashing"),
            situation=AttackSituation(distance_feet=15, range_band=RangeBand.NORMAL),
        )


def test_roll_detail_shows_both_dice(rulesets: dict[str, Ruleset]) -> None:
    typed = attack(rulesets, target=("stunned",), d20=(3, 17), damage_rolls=(5,))
    assert typed.result.roll_detail == "2d20kh1 typed in: 3, 17 -> 17"
    rolled = attack(rulesets, target=("stunned",))
    assert rolled.result.roll_detail.startswith("2d20kh1")
    assert rolled.combat is not None and rolled.combat.rolls[0].natural == rolled.result.natural


def test_offhand_attack_after_the_attack_action_spends_the_bonus_action(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    first = attack(rulesets, d20=(2,))
    assert first.combat is not None
    second = make_attack(
        with_combat(first.encounter, first.combat),
        srd,
        EntityId("hero"),
        EntityId("foe"),
        DAGGER,
        NEAR,
        AttackOptions(offhand=True, d20=(2,)),
    )
    assert (
        second.combat is not None
        and second.combat.combatant(EntityId("hero")).turn.bonus_action_used
    )
    encounter, combat = duel()
    with pytest.raises(IllegalActionError, match="Attack action"):
        make_attack(
            with_combat(encounter, combat),
            srd,
            EntityId("hero"),
            EntityId("foe"),
            DAGGER,
            NEAR,
            AttackOptions(offhand=True),
        )


def test_gms_den_listed_statblock_weapon_counts_as_light(rulesets: dict[str, Ruleset]) -> None:
    hammer = Attack(
        name="Light Hammer",
        kind=AttackKind.MELEE,
        to_hit=4,
        reach=5,
        damage=(Damage(dice="1d4", type="bludgeoning"),),
    )
    profile = AttackProfile.from_statblock(hammer)
    assert profile.weapon == "light-hammer"
    applied = attack(rulesets, "gms-den", profile=profile, offhand=True, action_id=None, d20=(15,))
    assert applied.result.hit
    with pytest.raises(IllegalActionError, match="light"):
        attack(rulesets, "srd-5e", profile=profile, offhand=True, action_id=None)


def test_hitting_a_dying_creature_within_5_ft_is_a_crit_and_two_failures(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = fight(
        creature("hero"), creature("pc", hp=0, max_hp=30), conditions={"pc": ("unconscious",)}
    )
    applied = make_attack(
        with_combat(encounter, combat),
        srd,
        EntityId("hero"),
        EntityId("pc"),
        DAGGER,
        NEAR,
        AttackOptions(d20=(2, 11), damage_rolls=(7,)),
    )
    assert applied.result.roll_mode.mode is RollMode.ADVANTAGE and applied.result.critical
    assert applied.result.damage is not None and applied.result.damage.zero.failures_added == 2
    assert (
        applied.combat is not None and applied.combat.combatant(EntityId("pc")).death.failures == 2
    )


def test_gms_den_fumble_recovery_is_a_standard_hit_even_on_the_paralyzed(
    rulesets: dict[str, Ruleset],
) -> None:
    applied = attack(
        rulesets, "gms-den", target=("paralyzed",), d20=(1, 1), fumble_d20=20, damage_rolls=(5,)
    )
    assert applied.result.hit and not applied.result.critical


def test_the_incapacitated_and_the_charmed_cannot_attack(rulesets: dict[str, Ruleset]) -> None:
    from battlemap.model.combat import ActiveCondition

    srd = rulesets["srd-5e"]
    encounter, combat = duel()
    stunned = combat.with_combatant(
        combat.combatant(EntityId("hero")).model_copy(
            update={"conditions": (ActiveCondition(name="stunned"),)}
        )
    )
    with pytest.raises(IllegalActionError, match="incapacitated"):
        make_attack(
            with_combat(encounter, stunned),
            srd,
            EntityId("hero"),
            EntityId("foe"),
            DAGGER,
            NEAR,
            AttackOptions(action_id=None),
        )
    charmed = combat.with_combatant(
        combat.combatant(EntityId("hero")).model_copy(
            update={"conditions": (ActiveCondition(name="charmed", source_id="foe"),)}
        )
    )
    with pytest.raises(IllegalActionError, match="charmed"):
        make_attack(
            with_combat(encounter, charmed), srd, EntityId("hero"), EntityId("foe"), DAGGER, NEAR
        )


def test_cover_bonus_to_dex_saves(rulesets: dict[str, Ruleset]) -> None:
    from battlemap.rules.attacks import cover_save_bonus

    for ruleset in rulesets.values():
        assert [cover_save_bonus(ruleset, d) for d in CoverDegree] == [0, 2, 5, 0]


def test_no_target_strike_with_a_spell(rulesets: dict[str, Ruleset]) -> None:
    bolt = AttackProfile(
        "Fire bolt", 5, Delivery.RANGED, damage=(DamageRoll("1d10", "fire"),), spell=True
    )
    with pytest.raises(IllegalActionError, match="weapon"):
        attack(
            rulesets,
            "legends-of-hyrule",
            profile=bolt,
            target_strike=TargetStrikePayment.STAMINA,
            stamina_available=2,
            situation=AttackSituation(distance_feet=30, range_band=RangeBand.NORMAL),
        )


def test_one_new_encounter_for_one_undo_step(rulesets: dict[str, Ruleset]) -> None:
    encounter, combat = duel()
    encounter = encounter.model_copy(update={"combat": combat})
    applied = make_attack(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("hero"),
        EntityId("foe"),
        DAGGER,
        NEAR,
        AttackOptions(d20=(15,), damage_rolls=(4,)),
    )
    after = applied.encounter
    assert after.combat == applied.combat and after.creature(EntityId("foe")).hp == 26
    assert encounter.combat == combat and encounter.creature(EntityId("foe")).hp == 30
