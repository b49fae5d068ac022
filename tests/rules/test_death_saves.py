"""Death saving throws, the Brink of Death, stabilising and rests, per ruleset."""

from __future__ import annotations

import pytest

from battlemap.model.combat import CombatState, DeathState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.death import (
    brink_choice,
    death_save,
    end_last_breath,
    recover_stable,
    stabilize,
)
from battlemap.rules.enums import BrinkOption, SentenceOutcome, StabilizeMethod
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.healing import heal
from battlemap.rules.outcome import with_combat
from battlemap.rules.rests import long_rest, short_rest, wounded_rest
from battlemap.rules.schema import Ruleset
from battlemap.rules.vitals import BadDieError, DeadTargetError
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import creature, encounter_of, fight
from tests.rules.test_rests import calm_rests


def dying(ruleset_id: str, **death: object) -> tuple[Encounter, CombatState]:
    encounter, combat = fight(
        creature("pc", hp=0, max_hp=20),
        creature("medic", hp=20),
        ruleset=ruleset_id,
        conditions={"pc": ("unconscious", "prone")},
    )
    pc = combat.combatant(EntityId("pc"))
    combat = combat.with_combatant(pc.model_copy(update={"death": DeathState(**death)}))
    return encounter, combat


@pytest.mark.parametrize(
    ("ruleset_id", "succeeds"),
    [
        ("srd-5e", True),
        ("legends-of-hyrule", True),
        ("final-fantasy-d20", True),
        ("gms-den", True),
        ("bloodied-brink", False),
    ],
)
def test_a_death_save_of_exactly_10(
    rulesets: dict[str, Ruleset], ruleset_id: str, succeeds: bool
) -> None:
    # srd: "If the roll is 10 or higher, you succeed"; bloodied-brink: "10 or lower, you fail".
    applied = death_save(
        with_combat(*dying(ruleset_id)), rulesets[ruleset_id], EntityId("pc"), d20=10
    )
    assert applied.result.success is succeeds
    death = applied.combat.combatant(EntityId("pc")).death  # type: ignore[union-attr]
    assert (death.successes, death.failures) == ((1, 0) if succeeds else (0, 1))


def test_srd_three_successes_stabilise_three_failures_kill(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    stable = death_save(with_combat(*dying("srd-5e", successes=2)), srd, EntityId("pc"), d20=15)
    assert stable.result.stable and stable.combat is not None
    assert stable.combat.combatant(EntityId("pc")).has_condition("stable")
    dead = death_save(with_combat(*dying("srd-5e", failures=2)), srd, EntityId("pc"), d20=9)
    assert dead.result.dead


def test_srd_natural_1_is_two_failures_natural_20_regains_1_hp(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    one = death_save(with_combat(*dying("srd-5e")), srd, EntityId("pc"), d20=1)
    assert (one.result.effect, one.result.failures) == ("two-failures", 2)
    twenty = death_save(with_combat(*dying("srd-5e", failures=2)), srd, EntityId("pc"), d20=20)
    assert twenty.result.regained_hp and twenty.encounter.creature(EntityId("pc")).hp == 1
    assert twenty.combat is not None
    pc = twenty.combat.combatant(EntityId("pc"))
    assert not pc.has_condition("unconscious") and pc.death.failures == 0


def test_bloodied_brink_two_failures_natural_1_brink_natural_20_stable(
    rulesets: dict[str, Ruleset],
) -> None:
    bb = rulesets["bloodied-brink"]
    second = death_save(
        with_combat(*dying("bloodied-brink", failures=1)), bb, EntityId("pc"), d20=4
    )
    assert second.result.brink and not second.result.dead
    first = death_save(with_combat(*dying("bloodied-brink")), bb, EntityId("pc"), d20=1)
    assert first.result.brink
    high = death_save(with_combat(*dying("bloodied-brink")), bb, EntityId("pc"), d20=15)
    assert high.result.successes == 0  # successes aren't counted
    twenty = death_save(with_combat(*dying("bloodied-brink")), bb, EntityId("pc"), d20=20)
    assert twenty.result.stable and twenty.encounter.creature(EntityId("pc")).hp == 0


def test_no_death_save_when_not_dying(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    with pytest.raises(IllegalActionError, match="stable"):
        death_save(with_combat(*dying("srd-5e", stable=True)), srd, EntityId("pc"), d20=10)
    with pytest.raises(DeadTargetError):
        death_save(with_combat(*dying("srd-5e", dead=True)), srd, EntityId("pc"), d20=10)
    encounter, combat = fight(creature("pc", hp=5))
    with pytest.raises(IllegalActionError, match="HP"):
        death_save(with_combat(encounter, combat), srd, EntityId("pc"), d20=10)
    with pytest.raises(BadDieError):
        death_save(with_combat(*dying("srd-5e")), srd, EntityId("pc"), d20=21)


def test_rolled_death_saves_are_replayable(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    first = death_save(with_combat(*dying("srd-5e")), srd, EntityId("pc"))
    again = death_save(with_combat(*dying("srd-5e")), srd, EntityId("pc"))
    assert first.result == again.result
    assert first.combat is not None and first.combat.rolls[-1].expression == "1d20"


def test_brink_adrenaline(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    applied = brink_choice(
        with_combat(*dying("bloodied-brink", brink=True)),
        bb,
        EntityId("pc"),
        BrinkOption.ADRENALINE,
        level=5,
        empowering_points=3,
    )
    assert applied.result.points_spent == 3  # half of 5 rounded up
    assert applied.encounter.creature(EntityId("pc")).hp == 1
    assert applied.encounter.creature(EntityId("pc")).temp_hp == 15
    with pytest.raises(IllegalActionError, match="Empowering"):
        brink_choice(
            with_combat(*dying("bloodied-brink", brink=True)),
            bb,
            EntityId("pc"),
            BrinkOption.ADRENALINE,
            level=5,
            empowering_points=2,
        )


@pytest.mark.parametrize(
    ("d20", "outcome", "hp", "temp", "dead"),
    [
        (1, SentenceOutcome.DIES_TRUE_RESURRECTION_ONLY, 0, 0, True),
        (12, SentenceOutcome.DIES_ALLIES_EMPOWERED, 0, 0, True),
        (13, SentenceOutcome.STABLE_MAX_TEMP_HP, 0, 10, False),
        (20, SentenceOutcome.ONE_HP_MAX_TEMP_HP, 1, 10, False),
    ],
)
def test_brink_sentence_four_outcomes(
    rulesets: dict[str, Ruleset], d20: int, outcome: SentenceOutcome, hp: int, temp: int, dead: bool
) -> None:
    bb = rulesets["bloodied-brink"]
    applied = brink_choice(
        with_combat(*dying("bloodied-brink", brink=True)),
        bb,
        EntityId("pc"),
        BrinkOption.SENTENCE,
        d20=d20,
    )
    assert applied.result.sentence is outcome
    pc = applied.encounter.creature(EntityId("pc"))
    assert (pc.hp, pc.temp_hp, applied.result.dead) == (hp, temp, dead)


def test_brink_last_breath_then_death(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    applied = brink_choice(
        with_combat(*dying("bloodied-brink", brink=True)),
        bb,
        EntityId("pc"),
        BrinkOption.LAST_BREATH,
    )
    assert applied.combat is not None
    pc = applied.combat.combatant(EntityId("pc"))
    assert (
        pc.death.last_breath and pc.has_condition("last-breath") and not pc.has_condition("prone")
    )
    with pytest.raises(IllegalActionError, match="healed"):
        heal(with_combat(applied.encounter, applied.combat), bb, EntityId("pc"), 5)
    gone = end_last_breath(with_combat(applied.encounter, applied.combat), bb, EntityId("pc"))
    assert gone.combat is not None and gone.combat.combatant(EntityId("pc")).death.dead


def test_no_brink_outside_bloodied_brink(rulesets: dict[str, Ruleset]) -> None:
    with pytest.raises(IllegalActionError, match="Brink"):
        brink_choice(
            with_combat(*dying("srd-5e", brink=True)),
            rulesets["srd-5e"],
            EntityId("pc"),
            BrinkOption.SENTENCE,
            d20=15,
        )


@pytest.mark.parametrize("ruleset_id", RULESET_IDS)
def test_stabilise_with_a_dc_10_medicine_check(
    rulesets: dict[str, Ruleset], ruleset_id: str
) -> None:
    ruleset = rulesets[ruleset_id]
    ok = stabilize(
        with_combat(*dying(ruleset_id)),
        ruleset,
        EntityId("medic"),
        EntityId("pc"),
        d20=8,
        check_bonus=2,
        spend_action=False,
    )
    assert (
        ok.result.success
        and ok.combat is not None
        and ok.combat.combatant(EntityId("pc")).death.stable
    )
    fail = stabilize(
        with_combat(*dying(ruleset_id)),
        ruleset,
        EntityId("medic"),
        EntityId("pc"),
        d20=7,
        check_bonus=2,
        spend_action=False,
    )
    assert not fail.result.success


def test_healers_kit_only_in_gms_den(rulesets: dict[str, Ruleset]) -> None:
    kit = StabilizeMethod.HEALERS_KIT
    applied = stabilize(
        with_combat(*dying("gms-den")),
        rulesets["gms-den"],
        EntityId("medic"),
        EntityId("pc"),
        method=kit,
        spend_action=False,
    )
    assert applied.result.success and applied.result.natural is None
    with pytest.raises(IllegalActionError):
        stabilize(
            with_combat(*dying("srd-5e")),
            rulesets["srd-5e"],
            EntityId("medic"),
            EntityId("pc"),
            method=kit,
            spend_action=False,
        )


def test_stabilising_spends_the_rulesets_action(rulesets: dict[str, Ruleset]) -> None:
    # srd: the medic uses its action; bloodied-brink: the Help action.
    for ruleset_id, action in (("srd-5e", "stabilize"), ("bloodied-brink", "help")):
        encounter, combat = dying(ruleset_id)
        combat = combat.model_copy(update={"turn_index": 1})  # the medic's turn
        applied = stabilize(
            with_combat(encounter, combat),
            rulesets[ruleset_id],
            EntityId("medic"),
            EntityId("pc"),
            d20=15,
        )
        assert applied.combat is not None
        assert applied.combat.combatant(EntityId("medic")).turn.actions_taken == (action,)


def test_final_fantasy_stabilising_adds_wounded(rulesets: dict[str, Ruleset]) -> None:
    ff = rulesets["final-fantasy-d20"]
    once = stabilize(
        with_combat(*dying("final-fantasy-d20")),
        ff,
        EntityId("medic"),
        EntityId("pc"),
        d20=15,
        spend_action=False,
    )
    assert once.combat is not None
    wounded = [c for c in once.combat.combatant(EntityId("pc")).conditions if c.name == "wounded"]
    assert wounded and wounded[0].value == 1
    healed = heal(
        with_combat(once.encounter, once.combat), ff, EntityId("pc"), 20, healers_kit=True
    )
    assert healed.result.wounded_ended


def test_stable_creature_regains_1_hp_later(rulesets: dict[str, Ruleset]) -> None:
    srd = rulesets["srd-5e"]
    applied = recover_stable(with_combat(*dying("srd-5e", stable=True)), srd, EntityId("pc"))
    assert applied.encounter.creature(EntityId("pc")).hp == 1
    with pytest.raises(IllegalActionError):
        recover_stable(with_combat(*dying("srd-5e")), srd, EntityId("pc"))


def test_bloodied_brink_rests(rulesets: dict[str, Ruleset]) -> None:
    # Rests are finished outside a combat ("Rolling Initiative" interrupts them): no combat,
    # dice typed in; rolling with a combat's dice needs a ruleset whose combat doesn't.
    bb = rulesets["bloodied-brink"]
    encounter, combat = fight(creature("pc", hp=3, max_hp=40, temp_hp=4), ruleset="bloodied-brink")
    short = short_rest(with_combat(encounter, None), bb, EntityId("pc"), level=3, dice_total=10)
    assert short.result.hp_after == 3 + 8 + 10
    with pytest.raises(IllegalActionError, match="2 short"):
        short_rest(
            with_combat(encounter, None), bb, EntityId("pc"), level=3, rests_today=2, dice_total=10
        )
    rolled = short_rest(with_combat(encounter, combat), calm_rests(bb), EntityId("pc"), level=3)
    assert 3 + 8 + 3 <= rolled.result.hp_after <= 3 + 8 + 24
    long = long_rest(with_combat(encounter, None), bb, EntityId("pc"), level=3, dice_total=30)
    assert (long.result.hp_after, long.result.temp_hp_lost) == (40, 4)
    with pytest.raises(IllegalActionError):
        short_rest(
            with_combat(encounter, None), rulesets["srd-5e"], EntityId("pc"), level=3, dice_total=10
        )
    down = encounter_of(creature("pc", hp=0, max_hp=40), ruleset="bloodied-brink")
    with pytest.raises(IllegalActionError, match="1 HP"):
        long_rest(with_combat(down, None), bb, EntityId("pc"), level=3, dice_total=30)


def test_rest_dice_per_level_count_every_die(rulesets: dict[str, Ruleset]) -> None:
    bb = rulesets["bloodied-brink"]
    assert bb.rests.short is not None
    two_d6 = bb.rests.short.model_copy(update={"hp_dice_per_level": "2d6"})
    variant = bb.model_copy(update={"rests": bb.rests.model_copy(update={"short": two_d6})})
    variant = calm_rests(variant)  # rolled with the combat's dice
    encounter, combat = fight(creature("pc", hp=3, max_hp=90), ruleset="bloodied-brink")
    rested = short_rest(with_combat(encounter, combat), variant, EntityId("pc"), level=3)
    assert rested.combat is not None
    assert rested.combat.rolls[-1].expression == "6d6"  # 2d6 per level at level 3


def test_final_fantasy_wounded_ends_after_rest_at_full_hp(rulesets: dict[str, Ruleset]) -> None:
    ff = rulesets["final-fantasy-d20"]
    encounter, combat = fight(
        creature("pc", hp=20), ruleset="final-fantasy-d20", conditions={"pc": ("wounded",)}
    )
    assert not wounded_rest(with_combat(encounter, combat), ff, EntityId("pc"), 9).result
    assert wounded_rest(with_combat(encounter, combat), ff, EntityId("pc"), 10).result


def test_bloodied_brink_knocked_out_wakes_on_healing_or_first_aid(
    rulesets: dict[str, Ruleset],
) -> None:
    from battlemap.rules.damage import DamageInstance, apply_damage

    bb = rulesets["bloodied-brink"]
    encounter, combat = fight(
        creature("pc", hp=5, max_hp=20), creature("medic"), ruleset="bloodied-brink"
    )
    out = apply_damage(
        with_combat(encounter, combat),
        bb,
        EntityId("pc"),
        [DamageInstance(9, "slashing")],
        melee=True,
        knockout=True,
    )
    assert out.combat is not None and out.combat.combatant(EntityId("pc")).has_condition(
        "unconscious"
    )
    healed = heal(with_combat(out.encounter, out.combat), bb, EntityId("pc"), 2)
    assert healed.result.woke and healed.combat is not None
    assert not healed.combat.combatant(EntityId("pc")).has_condition("unconscious")
    aided = stabilize(
        with_combat(out.encounter, out.combat),
        bb,
        EntityId("medic"),
        EntityId("pc"),
        d20=12,
        spend_action=False,
    )
    assert aided.combat is not None and not aided.combat.combatant(EntityId("pc")).has_condition(
        "unconscious"
    )
    # A knockout lives on the combatant, so only a rest in a combat can end it: a ruleset whose
    # combat doesn't interrupt rests (bloodied-brink's does: the combat must end first).
    rested = short_rest(
        with_combat(out.encounter, out.combat),
        calm_rests(bb),
        EntityId("pc"),
        level=1,
        dice_total=4,
    )
    assert rested.result.woke
