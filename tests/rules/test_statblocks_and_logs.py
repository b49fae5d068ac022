"""Rules helpers moved out of ui/: which stat block a creature uses, the attack-reasons log
line, and a removed creature leaving the combat (all Qt-free)."""

from __future__ import annotations

from dataclasses import replace

from battlemap.model.combat import CombatEvent
from battlemap.model.creature import Side
from battlemap.model.document import RemoveCreature
from battlemap.model.ids import EntityId
from battlemap.model.limits import MAX_EVENT_TEXT
from battlemap.model.statblock import Attack, AttackKind, StatBlock
from battlemap.rules.attack_log import REASONS_KIND, log_attack_reasons
from battlemap.rules.attacks import AttackOptions, AttackProfile, AttackSituation, make_attack
from battlemap.rules.damage import DamageRoll
from battlemap.rules.opportunity import UNARMED_PROFICIENCY, opportunity_profile
from battlemap.rules.outcome import with_combat
from battlemap.rules.removal import leaving_combat_too
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblocks import creature_defenses, find_statblock
from tests.rules.fighters import creature, fight

DAGGER = AttackProfile("Dagger", to_hit=5, damage=(DamageRoll("1d4", "piercing"),))


def _block(name: str, *resist: str) -> StatBlock:
    return StatBlock(name=name, damage_resistances=resist)


def test_a_numbered_copy_uses_the_stat_block_of_its_base_name(
    rulesets: dict[str, Ruleset],
) -> None:
    encounter, _ = fight(creature("goblin 3", side=Side.HOSTILE))
    goblin = encounter.creature(EntityId("goblin 3")).model_copy(update={"name": "Goblin 3"})
    encounter = encounter.replace_creature(goblin)
    library = {"Goblin": _block("Goblin", "fire")}
    assert find_statblock(goblin, encounter, library) == library["Goblin"]
    assert find_statblock(goblin, encounter, {}) is None
    defenses = creature_defenses(encounter, rulesets["srd-5e"], library, EntityId("goblin 3"))
    assert "fire" in defenses.resistances


def test_the_reasons_line_goes_right_after_the_attack_line_and_is_cut_to_the_limit(
    rulesets: dict[str, Ruleset],
) -> None:
    encounter, combat = fight(creature("hero"), creature("foe", side=Side.HOSTILE, ac=5))
    hit = make_attack(
        with_combat(encounter, combat),
        rulesets["srd-5e"],
        EntityId("hero"),
        EntityId("foe"),
        DAGGER,
        AttackSituation(distance_feet=5),
        AttackOptions(d20=(15,), damage_rolls=(3,)),
    )
    assert hit.combat is not None
    logged = log_attack_reasons(hit.combat, hit.result)
    kinds = [e.kind for e in logged.log]
    last_attack = len(kinds) - 1 - kinds[::-1].index("attack")
    assert kinds.index(REASONS_KIND) == last_attack + 1 < len(kinds) - 1  # before the damage
    assert len(logged.log) == len(hit.combat.log) + 1
    long_note = replace(hit.result, notes=("x" * 3000,))
    cut = log_attack_reasons(hit.combat, long_note)
    line = next(e for e in cut.log if e.kind == REASONS_KIND)
    assert isinstance(line, CombatEvent) and len(line.text) == MAX_EVENT_TEXT


def test_a_removed_creature_leaves_the_combat_and_the_last_one_ends_it(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    encounter, combat = fight(creature("hero"), creature("foe", side=Side.HOSTILE))
    encounter = with_combat(encounter, combat)
    foe = encounter.creature(EntityId("foe"))
    step = leaving_combat_too(encounter, srd, RemoveCreature(foe, 1))
    after = step.apply(encounter)
    assert after.combat is not None and not after.combat.has(EntityId("foe"))
    assert [c.id for c in after.creatures] == ["hero"]
    last = leaving_combat_too(after, srd, RemoveCreature(after.creature(EntityId("hero")), 0))
    assert last.apply(after).combat is None  # the last combatant: the combat ends
    assert step.revert(after) == encounter


def test_an_opportunity_attack_uses_the_first_melee_attack_else_an_unarmed_strike(
    rulesets: dict[str, Ruleset],
) -> None:
    srd = rulesets["srd-5e"]
    brute = creature("brute", strength=16)
    bow = Attack(name="Bow", kind=AttackKind.RANGED, to_hit=4, range_normal=80)
    club = Attack(name="Club", kind=AttackKind.MELEE, to_hit=5, reach=5)
    armed = StatBlock(name="Brute", attacks=(bow, club))
    assert opportunity_profile(srd, brute, armed).name == "Club"
    unarmed = opportunity_profile(srd, brute, StatBlock(name="Brute", attacks=(bow,)))
    assert unarmed.name == "Unarmed Strike"
    assert unarmed.to_hit == UNARMED_PROFICIENCY + 3  # Strength 16: +3
