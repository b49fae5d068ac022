"""Enumerated values used by ruleset files; every value carries a description.

Each enum member is ``NAME = "value", "what it means"``. The description lands in the JSON
Schema (``oneOf`` of ``const`` + ``description``) so an editor can explain every choice, and
a test checks that no value is left undocumented.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema


class DocEnum(StrEnum):
    """A string enum whose members each have a ``description``."""

    description: str

    def __new__(cls, value: str, description: str = "") -> DocEnum:
        member = str.__new__(cls, value)
        member._value_ = value
        member.description = description
        return member

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        return core_schema.enum_schema(cls, list(cls), sub_type="str")

    @classmethod
    def __get_pydantic_json_schema__(
        cls, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        return {
            "title": cls.__name__,
            "description": (cls.__doc__ or "").strip(),
            "type": "string",
            "oneOf": [{"const": m.value, "description": m.description} for m in cls],
        }


class DiagonalRule(DocEnum):
    """How a diagonal step on the grid is measured.

    The geometry layer owns the canonical ``battlemap.geometry`` DiagonalRule; it was not
    written yet when rulesets landed, so this one uses the same three strings.
    """

    FIVE = "5-5-5", "Every diagonal step costs 5 ft (gms-den 'diagonal movement is 5 feet')."
    ALTERNATING = "5-10-5", "Diagonal steps alternate 5 ft and 10 ft."
    EUCLIDEAN = "euclidean", "True straight-line distance between cell centres."


class Ability(DocEnum):
    """An ability score."""

    STR = "str", "Strength"
    DEX = "dex", "Dexterity"
    CON = "con", "Constitution"
    INT = "int", "Intelligence"
    WIS = "wis", "Wisdom"
    CHA = "cha", "Charisma"


class SurpriseMode(DocEnum):
    """How hiding creatures are compared with the other side's passive Perception."""

    INDIVIDUAL = (
        "individual",
        (
            "Each hiding creature's Dexterity (Stealth) check against each opposing creature's "
            "passive Perception; a creature that notices no threat is surprised."
        ),
    )
    GROUP_AVERAGE = (
        "group-average",
        (
            "A stealthy group rolls once per member and uses the average roll (rounded down) "
            "against each opposing creature's passive Perception."
        ),
    )


class InitiativeMode(DocEnum):
    """How the turn order is determined."""

    INDIVIDUAL = (
        "individual",
        (
            "Every combatant rolls an ability check (identical monsters may share one roll); "
            "turns in order of the totals."
        ),
    )
    GROUP_MEDIAN = (
        "group-median",
        (
            "Every creature rolls; each side's median is its score; sides act highest first, "
            "ties reroll; members of a side act in any order."
        ),
    )
    MANUAL = "manual", "The DM types every initiative value; nothing is rolled."


class InitiativeTieBreak(DocEnum):
    """How equal initiative totals are ordered."""

    DM_ORDER = "dm-order", "The DM (and players for their characters) choose; kept as entered."
    ROLL_OFF = "roll-off", "The tied combatants each roll a d20; highest goes first."
    DEX_SCORE = "dex-score", "The higher Dexterity score goes first; still-tied keep DM order."
    REROLL = "reroll", "Tied groups reroll until the tie is broken."


class EconomyPart(DocEnum):
    """One part of a creature's turn that can be spent or denied."""

    MOVE = "move", "Movement up to its speed."
    ACTION = "action", "The one action of the turn."
    BONUS_ACTION = "bonus-action", "The one bonus action, when a feature grants one."
    REACTION = "reaction", "One reaction per round, refreshed at the start of its turn."


class ActionCost(DocEnum):
    """What taking an action entry spends."""

    ACTION = "action", "Spends the action."
    BONUS_ACTION = "bonus-action", "Spends the bonus action."
    REACTION = "reaction", "Spends the reaction."
    ATTACK = "attack", "Replaces one attack of the Attack action (the action is spent)."
    FREE = "free", "Spends nothing."


class ActionKind(DocEnum):
    """Which engine behaviour an action entry triggers; ``resolved_by`` says which module."""

    ATTACK = "attack", "Make the attacks of the Attack action."
    CAST_SPELL = "cast-spell", "Cast a spell with the listed casting time."
    DASH = "dash", "Gain extra movement equal to the speed after modifiers."
    DISENGAGE = "disengage", "Movement doesn't provoke opportunity attacks for the duration."
    DODGE = "dodge", "Attacks against have disadvantage, Dex saves with advantage."
    HELP = "help", "Give an ally advantage on a check or the first attack against a target."
    HIDE = "hide", "Make a Dexterity (Stealth) check to hide."
    READY = "ready", "Choose a trigger and an action or move, released with the reaction."
    SEARCH = "search", "Make a Perception or Investigation check."
    USE_OBJECT = "use-object", "Use an object that needs an action, or a second object."
    GRAPPLE = "grapple", "A grapple contest in place of one attack."
    SHOVE = "shove", "A shove contest in place of one attack: prone or pushed."
    ESCAPE = "escape", "Try to escape a grapple."
    DISARM = "disarm", "An attack roll contested to knock an item from the target's grasp."
    GRAPPLE_MOVE = "grapple-move", "Opposed Strength check to move a grappled creature."
    OFFHAND_ATTACK = "offhand-attack", "Bonus-action attack with a light weapon in the other hand."
    DRINK_POTION = "drink-potion", "Drink a potion from the belt."
    TARGET_STRIKE = "target-strike", "An attack aimed to maximise damage dice."
    CALLED_SHOT = "called-shot", "A declared attack at a location with a called-shot effect."
    STABILIZE = "stabilize", "Administer first aid to a creature at 0 hit points."
    OPPORTUNITY_ATTACK = "opportunity-attack", "A melee attack against a creature leaving reach."
    READIED_RELEASE = "readied-release", "Release a readied action or move."
    OTHER = "other", "No engine behaviour; the DM adjudicates."


class Resolver(DocEnum):
    """Which part of the engine resolves an action."""

    TURNS = "turns", "The turn engine (economy, movement, lasting effects)."
    ATTACKS = "attacks", "The attack-and-damage engine (rolls, contests, damage)."
    DM = "dm", "The DM adjudicates; the engine only spends the economy."


class DisengageDuration(DocEnum):
    """How long Disengage protects from opportunity attacks."""

    END_OF_TURN = "end-of-turn", "For the rest of the turn."
    START_OF_GROUP_NEXT_TURN = (
        "start-of-group-next-turn",
        ("Until the start of the creature's group's next turn."),
    )


class DodgeEnd(DocEnum):
    """What ends Dodge early (it always ends at the start of the dodger's next turn)."""

    INCAPACITATED = "incapacitated", "The dodger becomes incapacitated."
    SPEED_ZERO = "speed-zero", "The dodger's speed drops to 0."


class CriticalDamage(DocEnum):
    """How a critical hit changes the damage roll."""

    DOUBLE_DICE = "double-dice", "Roll all damage dice twice and add the modifiers once."
    MAX_PLUS_ROLL = "max-plus-roll", "Maximum of the damage dice plus a normal roll."


class DamageStep(DocEnum):
    """One step of the damage pipeline, in the order a ruleset lists them."""

    ADJUSTMENTS = "adjustments", "Bonuses, penalties, reductions and multipliers."
    RESISTANCE = "resistance", "Resistance multiplier (halving)."
    VULNERABILITY = "vulnerability", "Vulnerability multiplier."
    IMMUNITY = "immunity", "Immunity: the damage becomes 0."


class Rounding(DocEnum):
    """How a fractional result becomes a whole number."""

    DOWN = "down", "Round down (floor)."
    UP = "up", "Round up (ceiling)."


class TempHpStacking(DocEnum):
    """What happens when a creature with temporary hit points gains more."""

    KEEP_HIGHER = "keep-higher", "They don't add up: keep the old or take the new (the higher)."
    STACK_TO_CAP = (
        "stack-to-cap",
        ("They add up to at most ``temp_hp_cap_fraction`` of the hit point maximum."),
    )


class DeathSaveNatural(DocEnum):
    """What a natural 1 or 20 on a death saving throw does."""

    TWO_FAILURES = "two-failures", "Counts as two failures."
    BRINK = "brink", "The creature is on the Brink of Death at once."
    REGAIN_1_HP = "regain-1-hp", "The creature regains 1 hit point."
    STABLE = "stable", "The creature becomes stable."
    NORMAL = "normal", "No special effect: compare with the DC like any roll."


class FailuresReached(DocEnum):
    """What happens when a creature collects the last death-save failure."""

    DEAD = "dead", "The creature dies."
    BRINK_OF_DEATH = "brink-of-death", "The creature is on the Brink of Death and must choose."


class BrinkOption(DocEnum):
    """Choices offered on the Brink of Death (bloodied-brink)."""

    ADRENALINE = (
        "adrenaline",
        (
            "Spend Empowering Points equal to half the level (rounded up): 1 HP and temporary HP "
            "equal to three times the level."
        ),
    )
    SENTENCE = "sentence", "A Wisdom saving throw with four outcomes (see ``sentence``)."
    LAST_BREATH = "last-breath", "One final full turn with the Last Breath condition, then death."


class SentenceOutcome(DocEnum):
    """Results of a Sentence roll."""

    DIES_TRUE_RESURRECTION_ONLY = (
        "dies-true-resurrection-only",
        ("Dies; only True Resurrection or Wish can revive."),
    )
    DIES_ALLIES_EMPOWERED = (
        "dies-allies-empowered",
        ("Dies; each ally regains 1 Empowering Point or advantage on the next d20 test."),
    )
    STABLE_MAX_TEMP_HP = "stable-max-temp-hp", "Stable, with the maximum temporary HP."
    ONE_HP_MAX_TEMP_HP = "one-hp-max-temp-hp", "1 HP (conscious) and the maximum temporary HP."


class KnockoutTiming(DocEnum):
    """When an attacker chooses to knock a creature out instead of killing it."""

    ON_DAMAGE = "on-damage", "The instant the damage reduces the target to 0."
    DECLARED_BEFORE_ATTACK = "declared-before-attack", "Declared before the attack roll."


class KnockoutResult(DocEnum):
    """The state a knocked-out creature is left in."""

    UNCONSCIOUS_STABLE = "unconscious-stable", "0 HP, unconscious and stable."
    ONE_HP_UNCONSCIOUS_SHORT_REST = (
        "one-hp-unconscious-short-rest",
        ("1 HP and Unconscious; a short rest starts, at the end of which the condition ends."),
    )


class StabilizeMethod(DocEnum):
    """Ways to stabilise a dying creature."""

    MEDICINE_CHECK = "medicine-check", "A Medicine check against the DC."
    HEALERS_KIT = "healers-kit", "Using a healer's kit: no check needed."


class StableRecovery(DocEnum):
    """When a stable creature that isn't healed regains 1 hit point."""

    AFTER_1D4_HOURS = "after-1d4-hours", "After 1d4 hours."
    AFTER_SHORT_REST = "after-short-rest", "After a short rest."


class TwoWeaponMode(DocEnum):
    """How fighting with a weapon in each hand works."""

    BONUS_ATTACK = (
        "bonus-attack",
        (
            "After attacking with a light weapon, a bonus-action attack with another light weapon; "
            "no ability modifier to its damage (unless negative, where the ruleset says so)."
        ),
    )
    ADD_OFFHAND_DICE = (
        "add-offhand-dice",
        ("A melee hit with a light weapon adds the off-hand light weapon's damage dice."),
    )


class AcFloor(DocEnum):
    """The lowest Armor Class an effect can reduce a creature to."""

    NONE = "none", "No floor."
    TEN_PLUS_DEX = "10+dex", "Never below 10 + Dexterity modifier (legends-of-hyrule)."


class ConditionEffect(DocEnum):
    """A mechanical effect of a condition. The turn engine applies those on economy and speed;
    the attack engine those on rolls."""

    SPEED_ZERO = "speed-zero", "Speed becomes 0."
    NO_SPEED_BONUS = "no-speed-bonus", "Can't benefit from any bonus to its speed."
    HALF_SPEED = "half-speed", "Speed is halved."
    CANT_MOVE = "cant-move", "Can't move (speed is irrelevant)."
    CRAWL_ONLY = "crawl-only", "Can only crawl; standing up ends the condition."
    INCAPACITATED = "incapacitated", "Can't take actions or reactions."
    NO_BONUS_ACTION = "no-bonus-action", "Can't take bonus actions."
    NO_REACTION = "no-reaction", "Can't take reactions."
    CANT_SPEAK = "cant-speak", "Can't speak."
    UNAWARE = "unaware", "Unaware of its surroundings."
    DROPS_HELD = "drops-held", "Drops whatever it is holding and falls prone."
    AUTO_FAIL_STR_DEX_SAVES = "auto-fail-str-dex-saves", "Fails Strength and Dexterity saves."
    DISADVANTAGE_DEX_SAVES = "disadvantage-dex-saves", "Disadvantage on Dexterity saves."
    DISADVANTAGE_ABILITY_CHECKS = "disadvantage-ability-checks", "Disadvantage on ability checks."
    DISADVANTAGE_SAVES = "disadvantage-saves", "Disadvantage on saving throws."
    FAILS_SIGHT_CHECKS = "fails-sight-checks", "Fails ability checks that need sight."
    FAILS_HEARING_CHECKS = "fails-hearing-checks", "Fails ability checks that need hearing."
    ATTACKS_WITH_ADVANTAGE = "attacks-with-advantage", "Its attack rolls have advantage."
    ATTACKS_WITH_DISADVANTAGE = "attacks-with-disadvantage", "Its attack rolls have disadvantage."
    ATTACKED_WITH_ADVANTAGE = "attacked-with-advantage", "Attack rolls against it have advantage."
    ATTACKED_WITH_DISADVANTAGE = (
        "attacked-with-disadvantage",
        ("Attack rolls against it have disadvantage."),
    )
    ATTACKED_ADV_WITHIN_5_ELSE_DIS = (
        "attacked-advantage-within-5ft-else-disadvantage",
        ("Attacks against it have advantage from within 5 ft, otherwise disadvantage (prone)."),
    )
    CRIT_WITHIN_5FT = "crit-within-5ft", "A hit from within 5 ft is a critical hit."
    RESISTANCE_ALL = "resistance-all", "Resistance to all damage."
    IMMUNE_ALL_DAMAGE = "immune-all-damage", "Immune to all damage."
    IMMUNE_POISON_DISEASE = "immune-poison-disease", "Immune to poison and disease."
    CANT_ATTACK_SOURCE = "cant-attack-source", "Can't attack or harm the source of the condition."
    CANT_APPROACH_SOURCE = "cant-approach-source", "Can't willingly move closer to the source."
    DISADVANTAGE_WHILE_SOURCE_VISIBLE = (
        "disadvantage-while-source-visible",
        ("Disadvantage on checks and attacks while the source is in sight."),
    )
    CANT_BE_HEALED = "cant-be-healed", "Hit points can't be restored."
    NO_DEATH_SAVES = "no-death-saves", "Makes no death saving throws."
    FIRE_RESISTANCE = "fire-resistance", "Resistance to fire damage."
    HEAVILY_OBSCURED = "heavily-obscured", "Counts as heavily obscured for hiding."


class LightEffect(DocEnum):
    """What a light level does to a creature looking at something in it (``light.dim``,
    ``light.dark``); a darkvision creature looks one level brighter within its range."""

    NONE = "none", "Nothing: seen as in bright light."
    UNSEEN = (
        "unseen",
        "A creature there can't be seen (srd-5e 'lurking in darkness'): the Unseen Attackers"
        " and Targets rules apply; nothing is said of checks.",
    )
    LIGHTLY_OBSCURED = (
        "lightly-obscured",
        "Lightly obscured: seen, but Wisdom (Perception) checks that rely on sight have"
        " disadvantage (gms-den).",
    )
    HEAVILY_OBSCURED = (
        "heavily-obscured",
        "Heavily obscured: one looking into it is effectively blinded: it can't see a creature"
        " there and fails the checks that need sight (gms-den).",
    )


class ConditionDuration(DocEnum):
    """How long a condition lasts when the rule applying it names no duration."""

    UNTIL_REMOVED = "until-removed", "Until a rule or the DM removes it."
    UNTIL_START_OF_TURN = "start-of-turn", "Until the start of the creature's next turn."
    UNTIL_END_OF_TURN = "end-of-turn", "Until the end of the creature's current or next turn."
    UNTIL_END_OF_NEXT_TURN = (
        "end-of-next-turn",
        "Until the end of the creature's next turn (given on its own turn: the one after).",
    )


class ExhaustionEffect(DocEnum):
    """The cumulative effect of one exhaustion level."""

    DISADVANTAGE_ABILITY_CHECKS = "disadvantage-ability-checks", "Disadvantage on ability checks."
    HALF_SPEED = "half-speed", "Speed halved."
    DISADVANTAGE_ATTACKS_AND_SAVES = (
        "disadvantage-attacks-and-saves",
        ("Disadvantage on attack rolls and saving throws."),
    )
    HALF_HP_MAX = "half-hp-max", "Hit point maximum halved."
    SPEED_ZERO = "speed-zero", "Speed reduced to 0."
    DEATH = "death", "Death."


class ImmersionEffect(DocEnum):
    """What being fully immersed in water does."""

    NONE = "none", "Nothing special."
    SOAKED = "soaked", "Always soaked; the condition can't end while immersed (legends-of-hyrule)."
    FIRE_RESISTANCE = "fire-resistance", "Resistance to fire damage (final-fantasy-d20)."


class MonsterDeathAtZero(DocEnum):
    """Whether monsters die at once when they drop to 0 hit points."""

    DIE = "die", "Monsters die at 0; the DM can mark a monster to fall unconscious instead."
    UNCONSCIOUS = "unconscious", "Monsters fall unconscious and make death saves like characters."


class RestType(DocEnum):
    """A short or a long rest (``rest_uses``, ``rests``); here, with no engine behind it, so
    the Combat menu lists the rests at start without importing the engine (issue 17)."""

    SHORT = "short", "A short rest: some uses come back (Action Surge, per-rest, recharge)."
    LONG = "long", "A long rest, which ends the day: every use comes back, N/Day ones too."
