"""Falling off a mount (legends-of-hyrule "Mounting and Dismounting", gms-den "Mounting a Steed").

"If an effect moves your mount against its will while you're on it, you must succeed on a DC 10
Dexterity saving throw or fall off the mount, landing prone in a space within 5 feet of it. ...
If you're knocked prone while mounted, you must make the same saving throw."

``fall_off_save`` rolls that Dexterity save against the ruleset's
``movement.mounting.fall_off_save_dc`` (10 in both documents) with every reason a save has
(``saves.saving_throw``: Dodge, restrained, exhaustion...). On a failure the rider falls: it is
prone, and a mount it controlled (``mounts.control_mount``) is released, since the rider is no
longer on it. Where the rider lands, a space within 5 ft of the mount, is the DM's to place on
the map (a move by someone else: no opportunity attacks).

The app tracks who rides whom only for controlled mounts, so the caller says when the save is
due and why (``FallCause``). This lives beside ``mounts`` rather than in it because saves
depend on the economy, which depends on ``mounts``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battlemap.model.combat import CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.conditions import give_condition
from battlemap.rules.draft import Draft
from battlemap.rules.enums import Ability
from battlemap.rules.errors import InvalidRequestError
from battlemap.rules.mounts import release_mount
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.saves import SaveResult, SaveSituation, saving_throw
from battlemap.rules.schema import Ruleset

_STANDING = SaveSituation()
"""No cover, not squeezing: the rider sits on its mount."""


class FallCause(StrEnum):
    """Why a rider must save to stay on its mount."""

    MOUNT_MOVED = "its mount is moved against its will"
    KNOCKED_PRONE = "it is knocked prone while mounted"


@dataclass(frozen=True)
class FallOffResult:
    """The save and what followed.

    Attributes:
        save: the Dexterity saving throw against the ruleset's DC.
        fell: the save failed: the rider fell off and is prone.
        released: the mount the rider controlled and no longer does, or None.
    """

    save: SaveResult
    fell: bool
    released: EntityId | None = None


def fall_off_save(
    encounter: Encounter,
    ruleset: Ruleset,
    rider_id: EntityId,
    cause: FallCause,
    situation: SaveSituation = _STANDING,
    *,
    save_bonus: int | None = None,
    typed: tuple[int, ...] | None = None,
) -> Outcome[FallOffResult]:
    """The rider's Dexterity save to stay mounted, DC ``movement.mounting.fall_off_save_dc``.

    ``save_bonus`` None takes the rider's own Dexterity save (``saves.save_bonus_of``: a
    proficient save its stat block lists, else the Dexterity modifier); ``typed`` are d20
    faces from the table (as ``saving_throw``). A failure makes the rider prone (in a combat,
    where the ruleset has the condition) and releases a mount it controls; a success changes
    nothing but the log.

    Raises:
        InvalidRequestError: the ruleset has no mounted-combat rules; whatever
            ``saving_throw`` raises (absent or dead rider, bad typed faces, no dice).
    """
    combat = encounter.combat
    rules = ruleset.movement.mounting
    if rules is None:
        raise InvalidRequestError(f"{ruleset.name} has no mounted combat rules")
    saved = saving_throw(
        with_combat(encounter, combat),
        ruleset,
        rider_id,
        Ability.DEX,
        rules.fall_off_save_dc,
        situation,
        save_bonus=save_bonus,
        typed=typed,
    )
    draft = Draft(saved.encounter, ruleset)
    name = draft.name(rider_id)
    if saved.result.success:
        draft.add("mount", f"{name} stays on its mount ({cause.value})", rider_id)
        after = draft.done(FallOffResult(saved.result, fell=False))
        return Outcome(after.encounter, after.result, saved.events + after.events)
    draft.add("mount", f"{name} falls off its mount, landing prone ({cause.value})", rider_id)
    if not draft.has_condition(rider_id, draft.ruleset.roles.conditions.prone):
        give_condition(draft, rider_id, draft.ruleset.roles.conditions.prone)
    released = _controlled_mount(saved.combat, rider_id)
    if released is not None:
        mount = released
        draft.run(lambda state: release_mount(state, ruleset, mount))
    after = draft.done(FallOffResult(saved.result, fell=True, released=released))
    return Outcome(after.encounter, after.result, saved.events + after.events)


def _controlled_mount(combat: CombatState | None, rider_id: EntityId) -> EntityId | None:
    if combat is None:
        return None
    return next((c.creature_id for c in combat.combatants if c.controlled_by == rider_id), None)
