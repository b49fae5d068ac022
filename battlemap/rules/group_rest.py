"""Resting several creatures at once (the Rest dialog's Apply): every creature's rest, one
after another, as one engine outcome (one undo step)."""

from __future__ import annotations

from dataclasses import dataclass

from battlemap.model.combat import CombatEvent, CombatState
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.outcome import Outcome, with_combat
from battlemap.rules.rests import RestResult, RestType, interrupt_rest, long_rest, short_rest
from battlemap.rules.schema import Ruleset


class RestRefused(ValueError):
    """One creature's rest was refused; the message names the creature."""


@dataclass(frozen=True)
class RestRequest:
    """One creature's rest as the dialog asks for it."""

    creature_id: EntityId
    level: int
    dice_total: int | None


@dataclass(frozen=True)
class RestPlan:
    """The dialog's settings shared by every creature."""

    kind: RestType
    hours_rested: float
    short_rests_today: int
    long_rests_today: int
    interrupted_by: str | None
    """The cause when the rest was interrupted (its hours are ``hours_rested``)."""
    interruptions: int
    """Long rest: how often it was interrupted and resumed."""


def rest_all(
    encounter: Encounter,
    ruleset: Ruleset,
    plan: RestPlan,
    requests: list[RestRequest],
) -> Outcome[tuple[RestResult, ...]]:
    """Every creature's rest, one after another, as one engine outcome (one undo step).

    Raises:
        RestRefused: a creature's rest was refused; its message names the creature.
    """
    combat = encounter.combat
    results: list[RestResult] = []
    events: list[CombatEvent] = []
    for request in requests:
        try:
            applied = _rest_one(encounter, combat, ruleset, plan, request)
        except ValueError as error:
            if not any(c.id == request.creature_id for c in encounter.creatures):
                # removed from the map while the dialog was open
                raise RestRefused(f"{request.creature_id} is no longer on the map") from error
            name = encounter.creature(request.creature_id).name
            text = str(error)
            raise RestRefused(text if name in text else f"{name}: {text}") from error
        encounter, combat = applied.encounter, applied.combat
        results.append(applied.result)
        events.extend(applied.events)
    return Outcome(with_combat(encounter, combat), tuple(results), tuple(events))


def _rest_one(
    encounter: Encounter,
    combat: CombatState | None,
    ruleset: Ruleset,
    plan: RestPlan,
    request: RestRequest,
) -> Outcome[RestResult]:
    cid, level, total = request.creature_id, request.level, request.dice_total
    if plan.interrupted_by is not None:
        return interrupt_rest(
            with_combat(encounter, combat),
            ruleset,
            cid,
            plan.kind,
            plan.interrupted_by,
            hours_rested=plan.hours_rested,
            level=level,
            short_rests_today=plan.short_rests_today,
            dice_total=total,
            interruptions=plan.interruptions,
        )
    if plan.kind is RestType.SHORT:
        return short_rest(
            with_combat(encounter, combat),
            ruleset,
            cid,
            level=level,
            rests_today=plan.short_rests_today,
            dice_total=total,
            hours_rested=plan.hours_rested,
        )
    return long_rest(
        with_combat(encounter, combat),
        ruleset,
        cid,
        level=level,
        rests_today=plan.long_rests_today,
        dice_total=total,
        interruptions=plan.interruptions,
        hours_rested=plan.hours_rested,
    )
