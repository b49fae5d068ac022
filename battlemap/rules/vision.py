"""Can one creature see another, and why: the light where it stands read through the looker's
senses, its blinded and the other's invisible conditions, under the ruleset's ``light`` rules.

A pure query: the light level, the distance and whether a line of sight is clear come in as
values (the map's answers, asked by ``rules.sight_on_map``); nothing here knows the map.

Senses (the stat block's, in feet; a sense reaches a creature when the distance between the
two spaces is at most its range):

- blindsight perceives without sight: whatever the light, invisible or not, even blinded;
- truesight sees in darkness and sees the invisible (it is sight: not while blinded);
- darkvision sees darkness as dim light and dim light as bright, when the ruleset says so
  (``light.darkvision_one_level_brighter``).

gms-den's "Invisible" backs the first two: "impossible to see without the aid of magic or a
special sense". Walls stop every sense alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from battlemap.model.features import LightLevel
from battlemap.model.statblock import Senses
from battlemap.rules.enums import LightEffect
from battlemap.rules.schema import Ruleset


class SightCheck(StrEnum):
    """A Wisdom (Perception) check that relies on sight, made to see the creature."""

    NORMAL = "normal"
    DISADVANTAGE = "disadvantage"
    FAILS = "fails"
    """Fails automatically (gms-den "Blinded": "automatically fails any ability check that
    requires sight"; heavily obscured is "effectively" blinded)."""


__all__ = ["LightLevel", "SightCheck", "SightVerdict", "sight_verdict"]

_LIGHT_WORDS = {LightLevel.DIM: "dim light", LightLevel.DARK: "darkness"}
_BRIGHTER = {LightLevel.DARK: LightLevel.DIM, LightLevel.DIM: LightLevel.BRIGHT}


@dataclass(frozen=True, slots=True)
class SightVerdict:
    """Whether the looker sees the creature, what a sight check to see it does, and why.

    ``reason`` is empty when it is plainly seen in bright light; otherwise it says what the
    light, the senses or the conditions did ("target in darkness, no darkvision").
    """

    sees: bool
    check: SightCheck
    reason: str
    seen_as: LightLevel
    """The light as the looker sees it (darkvision and truesight brighten it)."""


def sight_verdict(
    ruleset: Ruleset,
    light: LightLevel,
    senses: Senses,
    distance_feet: float,
    *,
    whom: str = "target",
    line_clear: bool = True,
    blinded: bool = False,
    invisible: bool = False,
) -> SightVerdict:
    """Whether a looker with ``senses`` sees a creature ``distance_feet`` away in ``light``.

    ``whom`` names the creature looked at in the reason ("target", "attacker"). ``blinded``
    is the looker's condition, ``invisible`` the creature's. A sense whose range equals the
    distance reaches it.
    """
    if not line_clear:
        return SightVerdict(False, SightCheck.FAILS, "walls in the way", light)
    if _within(senses.blindsight, distance_feet):
        plain = light is LightLevel.BRIGHT and not (blinded or invisible)
        why = "" if plain else f"{whom} perceived by blindsight {senses.blindsight} ft"
        return SightVerdict(True, SightCheck.NORMAL, why, LightLevel.BRIGHT)
    if blinded:
        return SightVerdict(False, SightCheck.FAILS, "blinded", light)
    truesight = _within(senses.truesight, distance_feet)
    if invisible and not truesight:
        return SightVerdict(False, SightCheck.FAILS, f"{whom} is invisible", light)
    if truesight and (invisible or light is not LightLevel.BRIGHT):
        seen = f"invisible {whom}" if invisible else f"{whom} in {_LIGHT_WORDS[light]}"
        return SightVerdict(
            True, SightCheck.NORMAL, f"{seen} seen by truesight {senses.truesight} ft", light
        )
    return _in_light(ruleset, light, senses, distance_feet, whom)


def _in_light(
    ruleset: Ruleset, light: LightLevel, senses: Senses, distance: float, whom: str
) -> SightVerdict:
    if light is LightLevel.BRIGHT:
        return SightVerdict(True, SightCheck.NORMAL, "", light)
    where = f"{whom} in {_LIGHT_WORDS[light]}"
    seen_as: LightLevel = light
    darkvision = ruleset.light.darkvision_one_level_brighter and senses.darkvision > 0
    if darkvision and _within(senses.darkvision, distance):
        seen_as = _BRIGHTER[light]
        where += f", seen as {_LIGHT_WORDS.get(seen_as, 'bright light')} by darkvision"
        where += f" {senses.darkvision} ft"
    elif darkvision:
        where += f" {distance:g} ft away, beyond darkvision {senses.darkvision} ft"
    else:
        where += ", no darkvision"
    effect = {
        LightLevel.BRIGHT: LightEffect.NONE,
        LightLevel.DIM: ruleset.light.dim,
        LightLevel.DARK: ruleset.light.dark,
    }[seen_as]
    if effect is LightEffect.NONE:
        return SightVerdict(True, SightCheck.NORMAL, where, seen_as)
    if effect is LightEffect.LIGHTLY_OBSCURED:
        return SightVerdict(True, SightCheck.DISADVANTAGE, f"{where}: lightly obscured", seen_as)
    if effect is LightEffect.UNSEEN:
        return SightVerdict(False, SightCheck.NORMAL, where, seen_as)
    return SightVerdict(
        False, SightCheck.FAILS, f"{where}: heavily obscured, effectively blinded", seen_as
    )


def _within(range_feet: int, distance_feet: float) -> bool:
    return range_feet > 0 and distance_feet <= range_feet + 1e-9
