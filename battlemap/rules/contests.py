"""Contests: grapple, shove, escape, gms-den's disarm and grapple move, dragging speed.

Rulesets without ``grappling`` (srd-5e's text has no grapple rules) refuse them. A contest is
won by the higher total; a tie keeps things as they are, so the one trying loses.

- Grapple / shove: target at most ``max_size_larger`` sizes larger, within reach, a free hand
  for a grapple; the target picks Athletics or Acrobatics (its bonus is passed in). gms-den:
  automatic success against an incapacitated target. Success: grappled (source: the
  grappler), or prone / pushed ``shove_push_feet`` away.
- Escape (an action): legends-of-hyrule against the grappler's escape DC when it has one, else
  a contest with the grappler's Athletics; success ends grappled.
- Disarm (gms-den): the attack roll contested by Athletics or Acrobatics.
- Grapple move (gms-den, an action): opposed Strength checks; the grappler moves the grappled
  creature up to half its speed on a win.
- Dragging: speed halved unless the grappled creature is ``drag_halves_speed_unless_smaller_by``
  (2) or more sizes smaller.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum, StrEnum

from battlemap.model.combat import CombatState
from battlemap.model.creature import Size
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import end_condition, give_condition, is_incapacitated
from battlemap.rules.distances import distance_between
from battlemap.rules.draft import Draft
from battlemap.rules.economy import take_action
from battlemap.rules.errors import IllegalActionError
from battlemap.rules.outcome import Outcome, running_combat
from battlemap.rules.schema import GrappleRules, Ruleset
from battlemap.rules.vitals import NotTargetableError


class ShoveEffect(StrEnum):
    PRONE = "prone"
    PUSH = "push"


@dataclass(frozen=True)
class ContestResult:
    """Both sides' dice and totals, who won, and what it did."""

    kind: str
    success: bool
    automatic: bool
    attacker_natural: int | None
    attacker_total: int | None
    defender_natural: int | None
    defender_total: int | None
    effect: str
    reasons: tuple[str, ...]
    push_feet: int = 0
    move_feet: float = 0


def _rules(ruleset: Ruleset, what: str) -> GrappleRules:
    if ruleset.grappling is None:
        raise IllegalActionError(f"{ruleset.name} has no {what} rules")
    return ruleset.grappling


class ByRole(Enum):
    """The default ``action_id`` of a contest: the ruleset's action playing its role
    (``roles.actions.grapple``...), so a ruleset that renames the action keeps the contest."""

    ACTION = "the ruleset's action for the role"


BY_ROLE = ByRole.ACTION


def _spend(
    draft: Draft,
    creature_id: EntityId,
    target_id: EntityId | None,
    action_id: str | ByRole | None,
    role: str | None = None,
) -> None:
    """Spend ``action_id`` (``BY_ROLE``: ``role``, the ruleset's action for it; None: nothing)."""
    if action_id is BY_ROLE:
        action_id = role
    if action_id is None:
        return
    ruleset = draft.ruleset
    draft.run(lambda s: take_action(s, ruleset, creature_id, action_id, target_id=target_id))


def _contest(
    draft: Draft,
    attacker_id: EntityId,
    defender_id: EntityId,
    attacker_bonus: int,
    defender_bonus: int,
    attacker_d20: int | None,
    defender_d20: int | None,
    label: str,
) -> tuple[int, int, int, int, bool]:
    a = draft.d20(f"{draft.name(attacker_id)}: {label}", attacker_id, attacker_d20)
    d = draft.d20(f"{draft.name(defender_id)} resists {label}", defender_id, defender_d20)
    a_total, d_total = a + attacker_bonus, d + defender_bonus
    return a, a_total, d, d_total, a_total > d_total


def _size_and_reach(
    rules: GrappleRules,
    attacker_size: Size,
    target_size: Size,
    name: str,
    distance_feet: float,
    reach_feet: float,
) -> None:
    if target_size.rank - attacker_size.rank > rules.max_size_larger:
        raise IllegalActionError(
            f"{name} is {target_size.value}: more than {rules.max_size_larger} size larger"
        )
    if distance_feet > reach_feet + 1e-9:
        raise NotTargetableError(
            f"{name} is {distance_feet:g} ft away, beyond {reach_feet:g} ft reach"
        )


def _opening(
    encounter: Encounter,
    combat: CombatState,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    what: str,
) -> tuple[Draft, GrappleRules, bool]:
    rules = _rules(ruleset, what)
    draft = Draft(encounter, ruleset)
    attacker = draft.require_alive(attacker_id)
    target = draft.require_alive(target_id)
    draft.fighting(attacker_id)
    target_c = draft.fighting(target_id)
    feet = distance_between(encounter, ruleset, attacker_id, target_id)
    _size_and_reach(rules, attacker.size, target.size, target.name, feet, attacker.reach)
    automatic = rules.auto_success_vs_incapacitated and is_incapacitated(ruleset, target_c)
    return draft, rules, automatic


@dataclass(frozen=True)
class Contest:
    """Both sides of an Athletics contest: bonuses, the defender's skill, typed-in d20s."""

    bonus: int = 0
    defender_bonus: int = 0
    defender_skill: str = "Athletics"
    d20: int | None = None
    defender_d20: int | None = None


def _athletics(
    draft: Draft,
    attacker_id: EntityId,
    target_id: EntityId,
    contest: Contest,
    automatic: bool,
    kind: str,
    effect: str,
    push_feet: int = 0,
    attacker_roll: str = "Athletics",
) -> ContestResult:
    """Roll (or skip, when automatic) the contest; the effect applies only on success.

    ``attacker_roll`` names what the attacker rolls, for the log (a disarm is an attack roll, a
    grapple move a Strength check).
    """
    if automatic:
        return ContestResult(
            kind,
            True,
            True,
            None,
            None,
            None,
            None,
            effect,
            ("the target is incapacitated: automatic success",),
            push_feet=push_feet,
        )
    a, at, d, dt, success = _contest(
        draft,
        attacker_id,
        target_id,
        contest.bonus,
        contest.defender_bonus,
        contest.d20,
        contest.defender_d20,
        f"{kind} ({attacker_roll})",
    )
    verdict = "wins" if success else "fails (ties fail)"
    reason = f"{at} vs {dt} ({contest.defender_skill}): {verdict}"
    return ContestResult(
        kind,
        success,
        False,
        a,
        at,
        d,
        dt,
        effect if success else "none",
        (reason,),
        push_feet=push_feet if success else 0,
    )


def grapple(
    encounter: Encounter,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    contest: Contest = Contest(),
    *,
    has_free_hand: bool = True,
    action_id: str | ByRole | None = BY_ROLE,
) -> Outcome[ContestResult]:
    """A grapple in place of one attack: Athletics vs the target's Athletics or Acrobatics.
    Success: the target is grappled (``source_id`` the grappler).

    Raises:
        IllegalActionError: no grapple rules, too large, no free hand, economy spent.
        NotTargetableError: out of reach. AbsentTargetError, DeadTargetError.
    """
    combat = running_combat(encounter)
    draft, _, automatic = _opening(encounter, combat, ruleset, attacker_id, target_id, "grapple")
    if ruleset.grappling is not None and ruleset.grappling.needs_free_hand and not has_free_hand:
        raise IllegalActionError(f"{draft.name(attacker_id)} needs a free hand to grapple")
    _spend(draft, attacker_id, target_id, action_id, ruleset.roles.actions.grapple)
    result = _athletics(
        draft,
        attacker_id,
        target_id,
        contest,
        automatic,
        "grapple",
        draft.ruleset.roles.conditions.grappled,
    )
    if result.success:
        give_condition(
            draft, target_id, draft.ruleset.roles.conditions.grappled, source_id=attacker_id
        )
    verb = "grapples" if result.success else "fails to grapple"
    draft.add("grapple", f"{draft.name(attacker_id)} {verb} {draft.name(target_id)}", attacker_id)
    return draft.done(result)


def shove(
    encounter: Encounter,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    effect: ShoveEffect,
    contest: Contest = Contest(),
    *,
    action_id: str | ByRole | None = BY_ROLE,
) -> Outcome[ContestResult]:
    """A shove in place of one attack: on a win the target is knocked prone (applied here) or
    pushed ``push_feet`` away (the result says how far; the caller moves the token).

    Raises: as ``grapple``.
    """
    combat = running_combat(encounter)
    draft, rules, automatic = _opening(encounter, combat, ruleset, attacker_id, target_id, "shove")
    _spend(draft, attacker_id, target_id, action_id, ruleset.roles.actions.shove)
    push = rules.shove_push_feet if effect is ShoveEffect.PUSH else 0
    result = _athletics(
        draft, attacker_id, target_id, contest, automatic, "shove", effect.value, push
    )
    if result.success and effect is ShoveEffect.PRONE:
        give_condition(draft, target_id, draft.ruleset.roles.conditions.prone)
    draft.add(
        "shove",
        f"{draft.name(attacker_id)} shoves {draft.name(target_id)}: {result.effect}",
        attacker_id,
    )
    return draft.done(result)


def escape(
    encounter: Encounter,
    ruleset: Ruleset,
    creature_id: EntityId,
    contest: Contest = Contest(),
    *,
    escape_dc: int | None = None,
    action_id: str | None = "escape",
) -> Outcome[ContestResult]:
    """Escape a grapple (an action): ``contest.bonus`` is the escaper's Athletics or Acrobatics
    (``defender_skill`` names which), ``contest.defender_bonus`` the grappler's Athletics.
    legends-of-hyrule: against ``escape_dc`` when the grappler has one (>= succeeds);
    otherwise (and always in gms-den) a contest where ties fail.

    Raises:
        IllegalActionError: no grapple rules, not grappled, economy spent.
    """
    running_combat(encounter)
    rules = _rules(ruleset, "grapple")
    draft = Draft(encounter, ruleset)
    creature = draft.require_alive(creature_id)
    combatant = draft.fighting(creature_id)
    grappled = [
        c for c in combatant.conditions if c.name == draft.ruleset.roles.conditions.grappled
    ]
    if not grappled:
        raise IllegalActionError(f"{creature.name} is not grappled")
    grappler_id = grappled[0].source_id or creature_id
    _spend(draft, creature_id, None, action_id)
    if rules.escape_uses_escape_dc and escape_dc is not None:
        natural = draft.d20(
            f"{creature.name} escapes ({contest.defender_skill})", creature_id, contest.d20
        )
        total = natural + contest.bonus
        g_nat, g_total, success = None, escape_dc, total >= escape_dc
        reason = f"{total} vs escape DC {escape_dc}"
    else:
        natural, total, g_nat, g_total, success = _contest(
            draft,
            creature_id,
            grappler_id,
            contest.bonus,
            contest.defender_bonus,
            contest.d20,
            contest.defender_d20,
            "escape",
        )
        reason = f"{total} vs {g_total} (ties fail)"
    if success:
        end_condition(draft, creature_id, draft.ruleset.roles.conditions.grappled)
    verb = "escapes" if success else "fails to escape"
    draft.add("escape", f"{creature.name} {verb} ({reason})", creature_id)
    effect = "free" if success else "none"
    return draft.done(
        ContestResult("escape", success, False, natural, total, g_nat, g_total, effect, (reason,))
    )


def disarm(
    encounter: Encounter,
    ruleset: Ruleset,
    attacker_id: EntityId,
    target_id: EntityId,
    contest: Contest = Contest(),
    *,
    action_id: str | ByRole | None = BY_ROLE,
) -> Outcome[ContestResult]:
    """gms-den: a weapon attack roll (``contest.bonus`` is the to-hit) contested by the target's
    Athletics or Acrobatics; a win knocks the item from its grasp (the DM places it).

    Raises:
        IllegalActionError: no Disarm in this ruleset, economy spent. NotTargetableError.
    """
    running_combat(encounter)
    role = ruleset.roles.actions.disarm
    if role is None:
        raise IllegalActionError(f"{ruleset.name} has no Disarm action")
    draft = Draft(encounter, ruleset)
    attacker = draft.require_alive(attacker_id)
    draft.require_alive(target_id)
    draft.fighting(attacker_id)
    draft.fighting(target_id)
    if distance_between(encounter, ruleset, attacker_id, target_id) > attacker.reach + 1e-9:
        raise NotTargetableError(f"{draft.name(target_id)} is beyond reach")
    _spend(draft, attacker_id, target_id, action_id, role)
    result = _athletics(
        draft, attacker_id, target_id, contest, False, "disarm", "disarmed", attacker_roll="attack"
    )
    verb = "disarms" if result.success else "fails to disarm"
    draft.add("disarm", f"{attacker.name} {verb} {draft.name(target_id)}", attacker_id)
    return draft.done(result)


def grapple_move(
    encounter: Encounter,
    ruleset: Ruleset,
    grappler_id: EntityId,
    target_id: EntityId,
    contest: Contest = Contest(defender_skill="Strength"),
    *,
    speed_feet: int = 30,
    action_id: str | None = "grapple-move",
) -> Outcome[ContestResult]:
    """gms-den: opposed Strength checks (``contest`` bonuses); on a higher roll the grappler
    may move the grappled creature up to ``grapple_move_fraction_of_speed`` x ``speed_feet``
    (result ``move_feet``).

    Raises:
        IllegalActionError: no grapple move here, the target isn't grappled by the grappler.
    """
    running_combat(encounter)
    rules = _rules(ruleset, "grapple")
    if not rules.grapple_move:
        raise IllegalActionError(f"{ruleset.name} has no Grapple Move")
    draft = Draft(encounter, ruleset)
    draft.require_alive(grappler_id)
    draft.require_alive(target_id)
    target_c = draft.fighting(target_id)
    draft.fighting(grappler_id)
    if not any(
        c.name == draft.ruleset.roles.conditions.grappled and c.source_id == grappler_id
        for c in target_c.conditions
    ):
        raise IllegalActionError(
            f"{draft.name(target_id)} is not grappled by {draft.name(grappler_id)}"
        )
    _spend(draft, grappler_id, target_id, action_id)
    result = _athletics(
        draft,
        grappler_id,
        target_id,
        contest,
        False,
        "grapple move",
        "moved",
        attacker_roll="Strength",
    )
    feet = rules.grapple_move_fraction_of_speed * speed_feet if result.success else 0
    draft.add("grapple-move", f"{draft.name(grappler_id)}: {result.reasons[0]}", grappler_id)
    return draft.done(replace(result, move_feet=feet))


def dragging_speed(ruleset: Ruleset, speed: int, grappler: Size, grappled: Size) -> tuple[int, str]:
    """The grappler's speed while dragging or carrying a grappled creature, and why.

    Halved (rounded down) unless the grappled creature is ``drag_halves_speed_unless_smaller_by``
    or more sizes smaller. Rulesets without grappling rules: unchanged.
    """
    rules = ruleset.grappling
    if rules is None:
        return speed, "no grappling rules"
    if grappler.rank - grappled.rank >= rules.drag_halves_speed_unless_smaller_by:
        return (
            speed,
            f"{grappled.value} is {rules.drag_halves_speed_unless_smaller_by}+ sizes smaller:"
            " full speed",
        )
    return speed // 2, "dragging a grappled creature halves speed"
