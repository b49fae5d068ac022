"""The Wisdom (Perception) checks the app rolls, read through sight: the Search action made to
see a creature rolls with disadvantage when the creature is lightly obscured, and fails
without a roll when the searcher effectively can't see there (gms-den "Lightly Obscured":
"disadvantage on Wisdom (Perception) checks that rely on sight"; "Heavily Obscured" and
"Blinded": "automatically fails any ability check that requires sight").

Where the ruleset's light reading says nothing of checks (srd-5e's "unseen"), the roll is
a plain one, its reason logged.
"""

from __future__ import annotations

from battlemap.model.character import Skill
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.rules.character_checks import skill_bonus_of
from battlemap.rules.combat_ops import creature_of, signed
from battlemap.rules.draft import Draft
from battlemap.rules.schema import Ruleset
from battlemap.rules.sight_on_map import creature_sees
from battlemap.rules.vision import SightCheck


def search_roll(
    draft: Draft,
    encounter: Encounter,
    ruleset: Ruleset,
    searcher_id: EntityId,
    name: str,
    target_id: EntityId | None,
) -> None:
    """Roll the Search action's Wisdom (Perception) check on ``draft``; made to see
    ``target_id`` (None: no one in particular), the light and senses decide how."""
    bonus = skill_bonus_of(creature_of(encounter, searcher_id), Skill.PERCEPTION)
    purpose = f"{name} Wisdom (Perception) (Search)"
    if target_id is None:
        draft.roll(f"1d20{signed(bonus)}", purpose, searcher_id)
        return
    verdict = creature_sees(encounter, ruleset, searcher_id, target_id)
    purpose += f" to see {creature_of(encounter, target_id).name}"
    if verdict.check is SightCheck.FAILS:
        draft.add("search", f"{purpose} fails automatically: {verdict.reason}", searcher_id)
        return
    if verdict.check is SightCheck.DISADVANTAGE:
        draft.roll(
            f"2d20kl1{signed(bonus)}", f"{purpose} (disadvantage: {verdict.reason})", searcher_id
        )
        return
    why = f" ({verdict.reason})" if verdict.reason else ""
    draft.roll(f"1d20{signed(bonus)}", purpose + why, searcher_id)
