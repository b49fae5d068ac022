"""Saving throws: the roll mode with every reason, the bonus with every part, automatic failure.

The caller says where the creature stands (``SaveSituation``: cover from the effect's origin,
squeezing into a smaller space) and the engine collects, per ruleset:

- automatic failure of Strength and Dexterity saves (paralyzed, petrified, stunned,
  unconscious: ``auto-fail-str-dex-saves``);
- disadvantage: conditions (restrained: Dexterity saves; ``disadvantage-saves``), exhaustion
  level 3, and squeezing for Dexterity saves where
  ``movement.squeezing.dex_saves_with_disadvantage`` says so (legends-of-hyrule "Squeezing
  into a Smaller Space": "disadvantage on attack rolls and Dexterity saving throws");
- advantage: Dodge on Dexterity saves (srd "Dodge"; lost while incapacitated);
- the cover bonus to Dexterity saves (srd "Cover": +2 half, +5 three-quarters;
  ``attacks.cover.applies_to_dex_saves``).

Any advantage and any disadvantage cancel to a normal roll. ``saving_throw`` rolls it (or takes
typed-in d20 faces) against a DC: total >= DC succeeds.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.geometry.cover import cover_from_point
from battlemap.geometry.map_index import MapIndex
from battlemap.geometry.metrics import PointXY
from battlemap.geometry.movement import is_squeezing
from battlemap.model.combat import Combatant, CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.rules.attack_situation import combat_bodies
from battlemap.rules.attacks import (
    RollModeReport,
    combine_roll_mode,
    cover_save_bonus,
    names_with,
    roll_d20_faces,
)
from battlemap.rules.character_checks import save_bonus_of as save_bonus_of  # re-exported
from battlemap.rules.combat_ops import signed
from battlemap.rules.conditions import exhaustion_effects, is_incapacitated
from battlemap.rules.draft import Draft
from battlemap.rules.enums import Ability, ConditionEffect, ExhaustionEffect
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.schema import Ruleset

_PHYSICAL = (Ability.STR, Ability.DEX)


@dataclass(frozen=True)
class SaveSituation:
    """Where the saving creature stands, as the geometry sees it."""

    cover: CoverDegree = CoverDegree.NONE
    """Cover against the effect's point of origin."""
    squeezing: bool = False
    """It is squeezing through a space one size smaller."""


@dataclass(frozen=True)
class SaveReport:
    """How a saving throw is rolled: mode and reasons, bonus and its parts, automatic failure."""

    ability: Ability
    roll: RollModeReport
    bonus: int
    parts: tuple[str, ...]
    auto_fail: str | None = None


def save_report(
    ruleset: Ruleset,
    combatant: Combatant | None,
    ability: Ability,
    situation: SaveSituation = SaveSituation(),
    *,
    save_bonus: int = 0,
) -> SaveReport:
    """Every reason for the roll mode and every part of the bonus of one saving throw.

    ``save_bonus`` is the creature's own bonus for ``ability`` (modifier plus proficiency).
    ``combatant`` None (no combat): only the situation counts.
    """
    adv: list[str] = []
    dis: list[str] = []
    parts = [f"save bonus {signed(save_bonus)}"]
    bonus = save_bonus
    auto_fail = None
    dex = ability is Ability.DEX
    if combatant is not None:
        failing = names_with(ruleset, combatant, ConditionEffect.AUTO_FAIL_STR_DEX_SAVES)
        if ability in _PHYSICAL and failing:
            auto_fail = f"{', '.join(failing)}: fails {ability.description} saves"
        for name in names_with(ruleset, combatant, ConditionEffect.DISADVANTAGE_SAVES):
            dis.append(f"{name}: saving throws")
        if dex:
            for name in names_with(ruleset, combatant, ConditionEffect.DISADVANTAGE_DEX_SAVES):
                dis.append(f"{name}: Dexterity saves")
        if ExhaustionEffect.DISADVANTAGE_ATTACKS_AND_SAVES in exhaustion_effects(
            ruleset, combatant
        ):
            dis.append(f"exhaustion {combatant.exhaustion}")
        if dex and combatant.dodging and not is_incapacitated(ruleset, combatant):
            adv.append("Dodging")
    squeeze = ruleset.movement.squeezing
    if dex and situation.squeezing and squeeze is not None and squeeze.dex_saves_with_disadvantage:
        dis.append("squeezing into a smaller space")
    if dex:
        cover = cover_save_bonus(ruleset, situation.cover)
        if cover:
            bonus += cover
            parts.append(f"{situation.cover.value} cover +{cover}")
    return SaveReport(ability, combine_roll_mode(adv, dis), bonus, tuple(parts), auto_fail)


@dataclass(frozen=True)
class SaveResult:
    report: SaveReport
    dc: int
    faces: tuple[int, ...]
    natural: int | None
    total: int | None
    success: bool


def saving_throw(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    ability: Ability,
    dc: int,
    situation: SaveSituation = SaveSituation(),
    *,
    save_bonus: int | None = None,
    typed: tuple[int, ...] | None = None,
) -> Outcome[SaveResult]:
    """Roll a saving throw against ``dc`` (total >= DC succeeds) and log it with its reasons.

    ``save_bonus`` None takes ``save_bonus_of`` with the creature's own stat block
    (``Creature.statblock``): a proficient save it lists, else the ability modifier. ``typed``:
    the kept d20 face, or both with advantage or disadvantage, from physical dice; else the
    combat's dice roll. An automatic failure rolls nothing.

    Raises:
        AbsentTargetError, DeadTargetError; InvalidRequestError: a DC outside 1..40, the wrong
            number of typed faces, no combat dice and nothing typed; BadDieError: a bad face.
    """
    if not 1 <= dc <= 40:
        raise InvalidRequestError(f"a saving throw DC must be 1 to 40, got {dc}")
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    if save_bonus is None:
        save_bonus = save_bonus_of(creature, creature.statblock, ability)
    report = save_report(
        ruleset, draft.combatant(creature_id), ability, situation, save_bonus=save_bonus
    )
    what = f"{creature.name}'s {ability.description} save DC {dc}"
    reasons = [f"advantage: {r}" for r in report.roll.advantages] + [
        f"disadvantage: {r}" for r in report.roll.disadvantages
    ]
    why = f" ({'; '.join(reasons)})" if reasons else ""
    if report.auto_fail is not None:
        draft.add("save", f"{what} fails automatically ({report.auto_fail})", creature_id)
        return draft.done(SaveResult(report, dc, (), None, None, False))
    faces, natural, _ = roll_d20_faces(draft, report.roll.mode, typed, f"{what}{why}", creature_id)
    total = natural + report.bonus
    success = total >= dc
    parts = f" ({', '.join(report.parts)})" if len(report.parts) > 1 else ""  # e.g. cover
    draft.add(
        "save",
        f"{what}: {natural} {signed(report.bonus)} = {total},"
        f" {'success' if success else 'failure'}{parts}",
        creature_id,
    )
    return draft.done(SaveResult(report, dc, faces, natural, total, success))


def save_situation(
    index: MapIndex,
    encounter: Encounter,
    combat: CombatState | None,
    ruleset: Ruleset,
    creature_id: EntityId,
    origin: PointXY | None,
) -> tuple[SaveSituation, tuple[str, ...]]:
    """Where ``creature_id`` stands for a save against an effect from ``origin`` (cells), with
    the reasons: its cover from the point of origin (``cover_from_point``; other creatures
    give cover too) and whether it stands squeezed (``save_report`` gives that its reason,
    when the ruleset weighs it). ``origin`` None (no point of origin
    known): no cover.

    ``index`` is ``MapIndex.build(encounter)``. Total cover is reported but gives no bonus
    (``cover_save_bonus``): whether the effect reaches such a creature is the DM's call.

    Raises:
        InvalidRequestError: no such creature in the encounter.
    """
    bodies = combat_bodies(with_combat(encounter, combat), ruleset)
    body = next((b for b in bodies if b.id == creature_id), None)
    if body is None:
        raise InvalidRequestError(f"no creature '{creature_id}' in the encounter")
    reasons: list[str] = []
    degree = CoverDegree.NONE
    if origin is not None:
        found = cover_from_point(index, origin, body, bodies)
        degree = found.degree
        if degree is not CoverDegree.NONE:
            source = found.source.value if found.source is not None else "cover"
            reasons.append(f"{degree.value} cover from a {source} against the point of origin")
    return SaveSituation(degree, is_squeezing(index, body)), tuple(reasons)


def record_save_override(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    saved: bool,
) -> Outcome[None]:
    """Log that the DM ruled a rolled save the other way (``saved``): nothing else changes."""
    draft = Draft(encounter, ruleset)
    name = draft.name(creature_id)
    draft.add("save", f"the DM rules that {name} {'saved' if saved else 'failed'}", creature_id)
    return draft.done(None)
