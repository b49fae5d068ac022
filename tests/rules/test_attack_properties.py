"""Hypothesis: any sequence of attacks, damage, healing and death saves keeps the invariants."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from battlemap.model.creature import Side
from battlemap.model.ids import EntityId
from battlemap.rules.attacks import AttackOptions, AttackProfile, AttackResult, make_attack
from battlemap.rules.damage import DamageRoll
from battlemap.rules.death import DeathSaveResult, death_save
from battlemap.rules.errors import CombatError
from battlemap.rules.healing import HealResult, heal
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset
from tests.rules.conftest import RULESET_IDS
from tests.rules.fighters import creature, fight

NAMES = ("a", "b", "c")

step = st.one_of(
    st.tuples(
        st.just("attack"),
        st.sampled_from(NAMES),
        st.sampled_from(NAMES),
        st.one_of(st.none(), st.integers(1, 20)),
        st.booleans(),
    ),
    st.tuples(st.just("heal"), st.sampled_from(NAMES), st.integers(0, 15)),
    st.tuples(st.just("save"), st.sampled_from(NAMES), st.one_of(st.none(), st.integers(1, 20))),
)


@settings(max_examples=40, deadline=None)
@given(ruleset_index=st.integers(0, len(RULESET_IDS) - 1), steps=st.lists(step, max_size=30))
def test_invariants_under_any_sequence(
    rulesets: dict[str, Ruleset], ruleset_index: int, steps: list[tuple[Any, ...]]
) -> None:
    ruleset_id = RULESET_IDS[ruleset_index]
    ruleset = rulesets[ruleset_id]
    damage_type = "slash" if ruleset_id == "final-fantasy-d20" else "slashing"
    axe = AttackProfile("Axe", 6, damage=(DamageRoll("2d6+3", damage_type),))
    encounter, combat = fight(
        creature("a", hp=12),
        creature("b", hp=9, side=Side.HOSTILE),
        creature("c", hp=20),
        ruleset=ruleset_id,
    )
    limit = ruleset.death_saves.failures_limit
    applied: Outcome[AttackResult] | Outcome[HealResult] | Outcome[DeathSaveResult]
    for item in steps:
        try:
            if item[0] == "attack":
                _, attacker, target, d20, crit = item
                options = AttackOptions(
                    action_id=None, d20=None if d20 is None else (20 if crit else d20,)
                )
                applied = make_attack(
                    with_combat(encounter, combat), ruleset, attacker, target, axe, options=options
                )
            elif item[0] == "heal":
                applied = heal(with_combat(encounter, combat), ruleset, item[1], item[2])
            else:
                applied = death_save(with_combat(encounter, combat), ruleset, item[1], d20=item[2])
        except CombatError as error:
            assert error.reason
            continue
        assert applied.combat is not None
        for name in NAMES:
            old_dead = combat.combatant(EntityId(name)).death.dead
            old_hp = encounter.creature(EntityId(name)).hp
            new = applied.encounter.creature(EntityId(name))
            death = applied.combat.combatant(EntityId(name)).death
            assert 0 <= new.hp <= new.max_hp and new.temp_hp >= 0
            assert (
                0 <= death.failures <= limit
                and death.successes <= ruleset.death_saves.successes_to_stabilise
            )
            if old_dead:
                assert death.dead and new.hp == old_hp
            if new.hp > 0 and not death.knocked_out:
                assert not applied.combat.combatant(EntityId(name)).has_condition("unconscious")
        assert len(applied.combat.log) >= len(combat.log)
        encounter, combat = applied.encounter, applied.combat
