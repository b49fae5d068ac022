"""The data of an attack: what it is (``AttackProfile``), where it stands
(``AttackSituation``), what is declared (``AttackOptions``) and what came of it
(``AttackResult`` with its ``RollModeReport`` and ``ArmorClassReport``).

Re-exported by ``rules.attacks``, which resolves attacks with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from battlemap.model.creature import Creature
from battlemap.model.features import CoverDegree
from battlemap.model.ids import EntityId
from battlemap.model.statblock import Attack, AttackKind
from battlemap.rules.combat_ops import stats_of
from battlemap.rules.damage import (
    DamageResult,
    DamageRoll,
    Defenses,
    RolledDamage,
)
from battlemap.rules.schema import Ruleset


class RollMode(StrEnum):
    NORMAL = "normal"
    ADVANTAGE = "advantage"
    DISADVANTAGE = "disadvantage"

    @property
    def d20_count(self) -> int:
        """The d20s a test in this mode rolls: two with advantage or disadvantage."""
        return 1 if self is RollMode.NORMAL else 2

    @property
    def expression(self) -> str:
        """The dice of a d20 test in this mode, keeping the higher or the lower of two."""
        return {"normal": "1d20", "advantage": "2d20kh1", "disadvantage": "2d20kl1"}[self.value]


class RangeBand(StrEnum):
    """Where the target is for this attack (the geometry's answer)."""

    REACH = "reach"
    """Melee: within the attacker's reach."""
    NORMAL = "normal"
    LONG = "long"
    OUT_OF_RANGE = "out-of-range"


class Delivery(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


@dataclass(frozen=True)
class AttackSituation:
    """The geometry's answers for one attacker and target, as plain values.

    ``hostile_within_5ft`` counts only hostile creatures that can see the attacker and aren't
    incapacitated (SRD "Ranged Attacks in Close Combat").
    """

    distance_feet: float = 5.0
    range_band: RangeBand = RangeBand.REACH
    cover: CoverDegree = CoverDegree.NONE
    flanked: bool = False
    attacker_sees_target: bool = True
    target_sees_attacker: bool = True
    unseen_target_why: str = ""
    """Why the attacker can't see the target ("target in darkness, no darkvision")."""
    unseen_attacker_why: str = ""
    """Why the target can't see the attacker."""
    hostile_within_5ft: bool = False
    underwater: bool = False
    attacker_squeezing: bool = False
    target_squeezing: bool = False
    fear_source_in_sight: bool = True
    reasons: tuple[str, ...] = ()
    """The geometry's own explanations (what gave cover, who flanks), shown as they are."""


@dataclass(frozen=True)
class AttackProfile:
    """One attack: to-hit, delivery, damage parts and the weapon's properties.

    ``ability_modifier`` is added to the first damage part (left out of an off-hand attack,
    unless negative where the ruleset says so). ``weapon`` is a lower-case name (dagger,
    crossbow) for the rules that list weapons.
    """

    name: str
    to_hit: int
    delivery: Delivery = Delivery.MELEE
    damage: tuple[DamageRoll, ...] = ()
    ability_modifier: int = 0
    reach_feet: int = 5
    range_normal: int | None = None
    range_long: int | None = None
    weapon: str = ""
    light: bool = False
    thrown: bool = False
    aquatic: bool = False
    spell: bool = False

    @classmethod
    def from_statblock(
        cls, attack: Attack, *, ranged: bool | None = None, choice: int | None = None
    ) -> AttackProfile:
        """A stat-block attack. ``ranged`` picks the mode of a melee-or-ranged (thrown) attack;
        ``choice`` picks among alternative damage rolls (versatile)."""
        is_ranged = attack.kind is AttackKind.RANGED or (
            attack.kind is AttackKind.MELEE_OR_RANGED and bool(ranged)
        )
        choices = sorted({d.choice for d in attack.damage if d.choice is not None})
        wanted = choice if choice is not None else (choices[0] if choices else None)
        parts = tuple(
            DamageRoll(d.dice, d.type.lower())
            for d in attack.damage
            if d.choice is None or d.choice == wanted
        )
        return cls(
            name=attack.name,
            to_hit=attack.to_hit,
            delivery=Delivery.RANGED if is_ranged else Delivery.MELEE,
            damage=parts,
            reach_feet=attack.reach or 5,
            range_normal=attack.range_normal,
            range_long=attack.range_long,
            weapon=attack.name.lower().replace(" ", "-"),
            thrown=attack.kind is AttackKind.MELEE_OR_RANGED,
            spell=attack.spell,
        )


def unarmed_strike(ruleset: Ruleset, attacker: Creature, to_hit: int) -> AttackProfile:
    """The ruleset's unarmed strike: 1 + Strength modifier bludgeoning (gms-den: at least 1).

    The damage is a flat amount (no dice), so a critical hit doesn't change it.
    """
    rules = ruleset.attacks.unarmed_strike
    amount = max(rules.minimum_damage, 1 + stats_of(attacker).modifier("str"))
    damage_type = "bludgeoning" if "bludgeoning" in ruleset.damage.types else "blunt"
    return AttackProfile(
        "Unarmed Strike", to_hit, damage=(DamageRoll(str(amount), damage_type),), reach_feet=5
    )


class TargetStrikePayment(StrEnum):
    STAMINA = "stamina"
    DISADVANTAGE = "disadvantage"


class FumbleChoice(StrEnum):
    """gms-den fumble 2-10: the attacker falls prone or hits itself (the DM resolves that)."""

    PRONE = "prone"
    HIT_SELF = "hit-self"


@dataclass(frozen=True)
class AttackOptions:
    """Declarations and typed-in dice for one attack.

    ``d20`` are the faces typed in from physical dice (two for advantage or disadvantage, or
    just the kept one); ``damage_rolls`` the totals of each damage part as rolled at the table
    (critical dice included). None: the app rolls.
    """

    action_id: str | None = "attack"
    """Economy to spend: an action id of the ruleset (attack, opportunity-attack...), or None."""
    called_shot: str | None = None
    """gms-den: the declared location."""
    target_strike: TargetStrikePayment | None = None
    stamina_available: int = 0
    attack_penalty: int = 0
    """Penalties (-) or bonuses to the roll besides ``to_hit``; -5 forbids a target strike."""
    ac_adjustment: int = 0
    """Effects that lower (or raise) the target's AC."""
    knockout: bool = False
    offhand: bool = False
    """srd/gms-den two-weapon fighting: this is the bonus-action off-hand attack."""
    offhand_dice: DamageRoll | None = None
    """legends-of-hyrule: the off-hand light weapon whose dice a melee hit adds."""
    extra_advantage: tuple[str, ...] = ()
    extra_disadvantage: tuple[str, ...] = ()
    d20: tuple[int, ...] | None = None
    damage_rolls: tuple[int, ...] | None = None
    fumble_d20: int | None = None
    fumble_choice: FumbleChoice | None = None
    massive_d20: int | None = None
    defenses: Defenses = field(default_factory=Defenses)
    target_immersed: bool = False
    apply_damage: bool = True


@dataclass(frozen=True)
class RollModeReport:
    mode: RollMode
    advantages: tuple[str, ...]
    disadvantages: tuple[str, ...]

    @property
    def cancelled(self) -> bool:
        return bool(self.advantages) and bool(self.disadvantages)


@dataclass(frozen=True)
class ArmorClassReport:
    base: int
    value: int
    parts: tuple[str, ...]


@dataclass(frozen=True)
class AttackResult:
    """The whole attack: who, the roll mode and why, the dice, the AC and why, the outcome."""

    attacker_id: EntityId
    target_id: EntityId
    profile: AttackProfile
    roll_mode: RollModeReport
    d20_faces: tuple[int, ...]
    """Typed-in faces, or the kept face when the app rolled (``roll_detail`` shows all)."""
    roll_detail: str
    natural: int
    to_hit: int
    total: int
    armor_class: ArmorClassReport
    hit: bool
    critical: bool
    reasons: tuple[str, ...]
    """Why it hit, missed or crit (natural 20, total vs AC, auto-crit within 5 ft...)."""
    fumble: str | None = None
    called_shot_effect: bool = False
    stamina_spent: int = 0
    damage_rolled: RolledDamage | None = None
    damage: DamageResult | None = None
    spent: str = ""
    notes: tuple[str, ...] = field(default=())
