"""Every ruleset field drives the engine: the shipped value as the document says, then a changed
value (``model_copy``) that changes the behaviour.

economy.reactions_per_round, damage.instances_stack, damage.area_damage_rolled_once,
death_saves.reset_on_healing_or_stable, hit_points.temp_hp_wakes and
hit_points.falls_prone_when_unconscious. (squeezing.dex_saves_with_disadvantage is in
test_saves.py.)
"""

from __future__ import annotations

from typing import Any

import pytest

from battlemap.model.combat import CombatState, DeathState
from battlemap.model.creature import Side
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.damage import (
    AreaTarget,
    DamageInstance,
    DamageRoll,
    Defenses,
    apply_area_damage,
    apply_damage,
    compute_damage,
)
from battlemap.rules.death import death_save, stabilize
from battlemap.rules.economy import take_action, use_reaction
from battlemap.rules.errors import IllegalActionError, InvalidRequestError
from battlemap.rules.healing import grant_temp_hp, heal
from battlemap.rules.opportunity import opportunity_offers
from battlemap.rules.outcome import with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.turns import end_turn
from tests.rules import fighters
from tests.rules.helpers import creature, encounter, fight, state_and_events

Rulesets = dict[str, Ruleset]
A, B = EntityId("a"), EntityId("b")


def changed(ruleset: Ruleset, section: str, **update: Any) -> Ruleset:
    """``ruleset`` with fields of one section changed (the way a DM's file overrides them)."""
    part = getattr(ruleset, section)
    return ruleset.model_copy(update={section: part.model_copy(update=update)})


# --- economy.reactions_per_round ----------------------------------------------------------


def _duel(ruleset: Ruleset, ruleset_id: str):  # type: ignore[no-untyped-def]
    enc = encounter(
        creature("A", Side.PARTY, init_bonus=40, wis=30),
        creature("B", init_bonus=0, wis=1),
        ruleset=ruleset_id,
    )
    return fight(ruleset, enc), enc


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "gms-den"])
def test_one_reaction_until_the_start_of_the_next_turn(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Reactions": "When you take a reaction, you can't take another one until the start
    # of your next turn." gms-den "Ready": "you can take only one reaction per round".
    ruleset = rulesets[ruleset_id]
    assert ruleset.economy.reactions_per_round == 1
    state, enc = _duel(ruleset, ruleset_id)
    state, _ = state_and_events(
        use_reaction(with_combat(enc, state), ruleset, B, "opportunity attack")
    )
    with pytest.raises(IllegalActionError, match="already used its reaction"):
        state_and_events(use_reaction(with_combat(enc, state), ruleset, B, "a second one"))
    offers = opportunity_offers(with_combat(enc, state), ruleset, A, [B])
    assert not offers[0].available and "reaction" in offers[0].reason


def test_two_reactions_per_round_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "economy", reactions_per_round=2)
    state, enc = _duel(ruleset, "srd-5e")
    state, _ = state_and_events(
        use_reaction(with_combat(enc, state), ruleset, B, "opportunity attack")
    )
    assert not state.combatant(B).reaction_used
    assert opportunity_offers(with_combat(enc, state), ruleset, A, [B])[0].available
    state, _ = state_and_events(
        take_action(with_combat(enc, state), ruleset, B, "opportunity-attack", target_id=A)
    )
    assert state.combatant(B).reaction_used
    with pytest.raises(IllegalActionError, match="its 2 reactions"):
        state_and_events(use_reaction(with_combat(enc, state), ruleset, B, "a third one"))
    state, _ = state_and_events(
        end_turn(with_combat(enc, state), ruleset)
    )  # B's turn begins: both come back
    state, _ = state_and_events(use_reaction(with_combat(enc, state), ruleset, B, "again"))
    state, _ = state_and_events(use_reaction(with_combat(enc, state), ruleset, B, "and again"))


def test_no_reactions_when_the_ruleset_gives_none(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "economy", reactions_per_round=0)
    state, enc = _duel(ruleset, "srd-5e")
    with pytest.raises(IllegalActionError, match="no reactions in this ruleset"):
        state_and_events(use_reaction(with_combat(enc, state), ruleset, B, "opportunity attack"))
    assert not opportunity_offers(with_combat(enc, state), ruleset, A, [B])[0].available


# --- damage.instances_stack ---------------------------------------------------------------

TWO_FIRE_RESISTANCES = Defenses(resistances=("fire", "all"))


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "legends-of-hyrule", "bloodied-brink"])
def test_resistance_instances_count_once(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Damage Resistance and Vulnerability": resistance to fire and to all nonmagical
    # damage halve nonmagical fire, "not reduced by three-quarters" (hyrule, bloodied-brink
    # "No Stacking" say the same).
    ruleset = rulesets[ruleset_id]
    assert not ruleset.damage.instances_stack
    (result,) = compute_damage(ruleset, [DamageInstance(20, "fire")], TWO_FIRE_RESISTANCES)
    assert result.final == 10
    assert "2 instances count once" in result.steps[-1].reason


def test_instances_stack_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "damage", instances_stack=True)
    (resisted,) = compute_damage(ruleset, [DamageInstance(20, "fire")], TWO_FIRE_RESISTANCES)
    assert resisted.final == 5  # x0.5 twice: reduced by three-quarters
    assert "2 instances stack" in resisted.steps[-1].reason
    doubled = Defenses(vulnerabilities=("fire", "fire"))
    (vulnerable,) = compute_damage(ruleset, [DamageInstance(7, "fire")], doubled)
    assert vulnerable.final == 28
    (single,) = compute_damage(ruleset, [DamageInstance(7, "fire")], Defenses(("fire",)))
    assert single.final == 3  # one instance: as before


# --- damage.area_damage_rolled_once --------------------------------------------------------


def _three_goblins(ruleset_id: str):  # type: ignore[no-untyped-def]
    return fighters.fight(
        *(fighters.creature(f"g{i}", hp=200, side=Side.HOSTILE) for i in range(3)),
        ruleset=ruleset_id,
    )


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "final-fantasy-d20", "bloodied-brink"])
def test_area_damage_is_rolled_once_for_every_target(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Damage Rolls": "roll the damage once for all of them"; ff: Fira is rolled once;
    # bloodied-brink "Damage against Multiple Targets": Fireball rolled once.
    ruleset = rulesets[ruleset_id]
    fire = "fire"
    encounter, combat = _three_goblins(ruleset_id)
    targets = [AreaTarget(EntityId(f"g{i}")) for i in range(3)]
    applied = apply_area_damage(
        with_combat(encounter, combat), ruleset, [DamageRoll("8d6", fire)], targets
    )
    assert applied.combat is not None
    assert len(applied.combat.rolls) == 1
    assert len({r.total for r in applied.result}) == 1


def test_area_damage_rolled_per_target_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "damage", area_damage_rolled_once=False)
    encounter, combat = _three_goblins("srd-5e")
    targets = [AreaTarget(EntityId(f"g{i}")) for i in range(3)]
    applied = apply_area_damage(
        with_combat(encounter, combat), ruleset, [DamageRoll("8d6", "fire")], targets
    )
    assert applied.combat is not None
    rolls = applied.combat.rolls
    assert len(rolls) == 3 and [r.total for r in rolls] == [r.total for r in applied.result]
    assert [r.purpose for r in rolls][1] == "area damage for G1 (fire)"
    typed = apply_area_damage(
        with_combat(encounter, combat),
        ruleset,
        [DamageRoll("8d6", "fire")],
        targets,
        typed_each=[[10], [20], [30]],
    )
    assert [r.total for r in typed.result] == [10, 20, 30]
    alone = apply_area_damage(
        with_combat(encounter, combat),
        ruleset,
        [DamageRoll("8d6", "fire")],
        targets[:1],
        typed=[12],
    )
    assert [r.total for r in alone.result] == [12]
    with pytest.raises(InvalidRequestError, match="type the totals of each target"):
        apply_area_damage(
            with_combat(encounter, combat),
            ruleset,
            [DamageRoll("8d6", "fire")],
            targets,
            typed=[10],
        )
    with pytest.raises(InvalidRequestError, match="once for every target"):
        apply_area_damage(
            with_combat(encounter, combat),
            rulesets["srd-5e"],
            [DamageRoll("8d6", "fire")],
            targets,
            typed_each=[[10], [20], [30]],
        )


# --- death_saves.reset_on_healing_or_stable ------------------------------------------------


def _dying(ruleset_id: str, **death: Any) -> tuple[Encounter, CombatState]:
    encounter, combat = fighters.fight(
        fighters.creature("pc", hp=0, max_hp=20),
        fighters.creature("medic", hp=20),
        ruleset=ruleset_id,
        conditions={"pc": ("unconscious", "prone")},
    )
    pc = combat.combatant(EntityId("pc"))
    return encounter, combat.with_combatant(pc.model_copy(update={"death": DeathState(**death)}))


PC = EntityId("pc")


@pytest.mark.parametrize(
    "ruleset_id", ["srd-5e", "legends-of-hyrule", "final-fantasy-d20", "bloodied-brink"]
)
def test_healing_resets_the_death_save_counts(rulesets: Rulesets, ruleset_id: str) -> None:
    # srd "Death Saving Throws": "The number of both is reset to zero when you regain any hit
    # points or become stable" (hyrule, ff the same; bloodied-brink: "Their number is reset").
    ruleset = rulesets[ruleset_id]
    assert ruleset.death_saves.reset_on_healing_or_stable
    healed = heal(with_combat(*_dying(ruleset_id, successes=1, failures=1)), ruleset, PC, 3)
    assert healed.combat is not None
    death = healed.combat.combatant(PC).death
    assert (death.successes, death.failures) == (0, 0)


def test_the_counts_stay_when_the_ruleset_doesnt_reset_them(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "death_saves", reset_on_healing_or_stable=False)
    encounter, combat = _dying("srd-5e", successes=1, failures=2)
    healed = heal(with_combat(encounter, combat), ruleset, PC, 3)
    assert healed.combat is not None
    assert healed.combat.combatant(PC).death.failures == 2
    # Dropping to 0 again starts from those 2 failures: one more kills.
    dropped = apply_damage(
        with_combat(healed.encounter, healed.combat), ruleset, PC, [DamageInstance(3, "fire")]
    )
    assert dropped.combat is not None and dropped.combat.combatant(PC).death.failures == 2
    dead = death_save(with_combat(dropped.encounter, dropped.combat), ruleset, PC, d20=5)
    assert dead.result.dead
    # Becoming stable keeps them too (srd would reset them).
    stable = stabilize(
        with_combat(encounter, combat), ruleset, EntityId("medic"), PC, d20=15, spend_action=False
    )
    assert stable.combat is not None
    death = stable.combat.combatant(PC).death
    assert death.stable and (death.successes, death.failures) == (1, 2)
    srd = stabilize(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("medic"),
        PC,
        d20=15,
        spend_action=False,
    )
    assert srd.combat is not None and srd.combat.combatant(PC).death.failures == 0


# --- hit_points.temp_hp_wakes ----------------------------------------------------------------


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "legends-of-hyrule", "bloodied-brink"])
def test_temporary_hp_dont_wake_the_dying(rulesets: Rulesets, ruleset_id: str) -> None:
    # hyrule "Temporary Heart Points" (the rule srd borrows): at 0, receiving them "doesn't
    # restore you to consciousness or stabilize you"; bloodied-brink says the same.
    ruleset = rulesets[ruleset_id]
    applied = grant_temp_hp(with_combat(*_dying(ruleset_id, failures=1)), ruleset, PC, 8)
    assert applied.combat is not None
    pc = applied.combat.combatant(PC)
    assert not applied.result.woke and pc.has_condition("unconscious")
    assert not pc.death.stable and pc.death.failures == 1
    assert applied.encounter.creature(PC).temp_hp == 8


def test_temporary_hp_wake_where_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "hit_points", temp_hp_wakes=True)
    applied = grant_temp_hp(with_combat(*_dying("srd-5e", failures=1)), ruleset, PC, 8)
    assert applied.combat is not None
    pc = applied.combat.combatant(PC)
    assert applied.result.woke and not pc.has_condition("unconscious")
    assert pc.death.stable and pc.death.failures == 0
    assert applied.encounter.creature(PC).hp == 0
    with pytest.raises(IllegalActionError, match="stable"):
        death_save(with_combat(applied.encounter, applied.combat), ruleset, PC, d20=5)
    # Damage through the buffer at 0 HP: no longer stable, unconscious again, one failure.
    hurt = apply_damage(
        with_combat(applied.encounter, applied.combat), ruleset, PC, [DamageInstance(10, "fire")]
    )
    assert hurt.combat is not None
    pc = hurt.combat.combatant(PC)
    assert pc.has_condition("unconscious") and not pc.death.stable and pc.death.failures == 1


# --- hit_points.falls_prone_when_unconscious -------------------------------------------------


def _drop(ruleset: Ruleset, ruleset_id: str) -> CombatState:
    encounter, combat = fighters.fight(fighters.creature("pc", hp=5), ruleset=ruleset_id)
    applied = apply_damage(with_combat(encounter, combat), ruleset, PC, [DamageInstance(6, "fire")])
    assert applied.combat is not None and applied.combat.combatant(PC).has_condition("unconscious")
    return applied.combat


@pytest.mark.parametrize("ruleset_id", ["srd-5e", "gms-den"])
def test_the_unconscious_fall_prone(rulesets: Rulesets, ruleset_id: str) -> None:
    # gms-den "Unconscious" (the list srd-5e uses): "drops whatever it's holding and falls prone".
    ruleset = rulesets[ruleset_id]
    assert _drop(ruleset, ruleset_id).combatant(PC).has_condition("prone")


def test_no_fall_when_the_ruleset_says_so(rulesets: Rulesets) -> None:
    ruleset = changed(rulesets["srd-5e"], "hit_points", falls_prone_when_unconscious=False)
    assert not _drop(ruleset, "srd-5e").combatant(PC).has_condition("prone")
