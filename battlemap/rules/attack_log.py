"""The reasons of an attack, logged with it (no Qt): roll mode with every reason for advantage
and disadvantage, the AC with its parts, the hit's reasons and notes.

Shared by the attack dialog and the opportunity attacks of a token drop, so both read the
same in the combat log.
"""

from __future__ import annotations

from battlemap.model.combat import CombatEvent, CombatState, clip_event_text, keep_newest
from battlemap.rules.attacks import AttackResult

REASONS_KIND = "attack-reasons"


def reasons_text(result: AttackResult) -> str:
    """ "Longsword: advantage: none; disadvantage: none -> normal roll; AC 8 (AC 8); ..."."""
    report = result.roll_mode
    adv = "; ".join(report.advantages) or "none"
    dis = "; ".join(report.disadvantages) or "none"
    text = (
        f"{result.profile.name}: advantage: {adv}; disadvantage: {dis} -> {report.mode.value} roll;"
        f" AC {result.armor_class.value} ({', '.join(result.armor_class.parts)});"
        f" {'; '.join(result.reasons)}"
    )
    if result.notes:
        text += f"; {'; '.join(result.notes)}"
    return text


def log_attack_reasons(combat: CombatState, result: AttackResult) -> CombatState:
    """``combat`` with the reasons of ``result`` logged right after the last attack line
    (before that attack's damage lines); at the end when there is no attack line."""
    event = CombatEvent(
        round=combat.round,
        kind=REASONS_KIND,
        creature_id=result.attacker_id,
        text=clip_event_text(reasons_text(result)),
    )
    log = list(combat.log)
    index = max((i for i, e in enumerate(log) if e.kind == "attack"), default=len(log) - 1) + 1
    log.insert(index, event)
    return combat.model_copy(update={"log": keep_newest(tuple(log), ())})
