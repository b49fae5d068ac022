"""Per-combat state, saved with the encounter: who is fighting, in what order, with what left.

Everything here is a frozen pydantic model and holds ids, never objects, so a combat can be
saved, undone and replayed. The rules that change this state live in ``battlemap.rules``
(``turns``, ``initiative``, ``economy``); this module only describes it. Movement is in feet.

The dice are part of the state (``DiceState``: a seed and how many draws were taken), so
undoing a command restores the dice too and redoing it rolls the same numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, Field

from battlemap.model.ids import EntityId
from battlemap.model.limits import (
    MAX_COMBATANTS,
    MAX_DICE_EXPRESSION,
    MAX_DICE_PER_ROLL,
    MAX_EVENT_TEXT,
    MAX_LOG,
    MAX_NAME,
    MAX_ROLL_DETAIL,
    MAX_ROLL_PURPOSE,
    MAX_RULESET_ID,
    MAX_TRIGGER,
)
from battlemap.model.statblock_actions import (
    MAX_ATTACKS_PER_ACTION,
    MAX_LEGENDARY_PER_ROUND,
    AttackCount,
)

MAX_SEED = 2**63 - 1

T = TypeVar("T")


def keep_newest(items: tuple[T, ...], more: Iterable[T], limit: int = MAX_LOG) -> tuple[T, ...]:
    """``items`` with ``more`` appended, keeping only the newest ``limit``.

    The kept objects are the same ones (not copies), so a listener can tell an appended log
    from a different one by identity.
    """
    combined = items + tuple(more)
    return combined[len(combined) - limit :] if len(combined) > limit else combined


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class SpeedMode(StrEnum):
    """A mode of movement with its own speed (``Creature.speeds`` has one field per mode)."""

    WALK = "walk"
    FLY = "fly"
    SWIM = "swim"
    CLIMB = "climb"
    BURROW = "burrow"


class Expiry(StrEnum):
    """When a lasting effect ends on its own; ``expiry_creature`` names whose turn counts."""

    NEVER = "never"
    """Until the DM or a rule removes it."""
    START_OF_TURN = "start-of-turn"
    """At the start of ``expiry_creature``'s next turn ("until the start of your next turn")."""
    END_OF_TURN = "end-of-turn"
    """At the end of ``expiry_creature``'s current turn, or its next one if it isn't acting."""
    START_OF_GROUP_TURN = "start-of-group-turn"
    """At the start of the next turn of ``expiry_creature``'s initiative group (Hyrule)."""
    END_OF_NEXT_TURN = "end-of-next-turn"
    """At the end of ``expiry_creature``'s next turn: a turn it is taking when the effect
    starts doesn't count (``turn_ends_to_skip``; gms-den massive damage: "until the end of
    your next turn")."""


class DiceState(_Frozen):
    """A counter-based random source: draw ``n`` is a pure function of ``(seed, n)``."""

    seed: int = Field(ge=0, le=MAX_SEED)
    draws: int = Field(default=0, ge=0, description="Random draws taken so far.")


class RollRecord(_Frozen):
    """One roll: the expression, its total, the dice shown as d20 prints them, and why."""

    expression: str = Field(max_length=MAX_DICE_EXPRESSION)
    total: int
    detail: str = Field(max_length=MAX_ROLL_DETAIL, description="e.g. '1d20 (14) + 5 = `19`'.")
    purpose: str = Field(default="", max_length=MAX_ROLL_PURPOSE)
    natural: int | None = Field(
        default=None, description="The kept d20 when the roll starts with one kept d20."
    )
    kept: tuple[tuple[int, int], ...] = Field(
        default=(),
        max_length=MAX_DICE_PER_ROLL,
        description="(sides, face) of every kept die, in order.",
    )
    first_draw: int = Field(default=0, ge=0, description="DiceState.draws before this roll.")


MAX_EFFECT_ROUNDS = 14_400
"""The longest duration counted in rounds: 24 hours of 6-second rounds."""
MAX_SAVES_DUE = 20


class SaveEnds(_Frozen):
    """A saving throw at the end of each of the affected creature's turns that ends the
    condition on a success ("repeat the saving throw at the end of each of its turns")."""

    ability: str = Field(pattern=r"^(str|dex|con|int|wis|cha)$", description="e.g. 'wis'.")
    dc: int = Field(ge=1, le=40)
    due: bool = Field(default=False, description="Its turn ended: the save is owed now.")


class Concentration(_Frozen):
    """A spell the creature concentrates on (the DM marks it), and the Constitution saves
    damage has called for and that are still to be made (their DCs, oldest first)."""

    spell: str = Field(min_length=1, max_length=MAX_NAME)
    saves_due: tuple[int, ...] = Field(default=(), max_length=MAX_SAVES_DUE)


class ActiveCondition(_Frozen):
    """A condition on a combatant. ``name`` is a key of the ruleset's ``conditions``."""

    name: str = Field(min_length=1, max_length=MAX_NAME)
    value: int = Field(default=1, ge=0, le=100, description="For valued conditions (Wounded 2).")
    source_id: EntityId | None = Field(default=None, description="Who caused it (frightened).")
    expiry: Expiry = Expiry.NEVER
    expiry_creature: EntityId | None = None
    turn_ends_to_skip: int = Field(
        default=0, ge=0, le=100, description="END_OF_NEXT_TURN: its turn ends that don't count."
    )
    note: str = Field(default="", max_length=200)
    held_by: EntityId | None = Field(
        default=None, description="Whose concentration holds it: it ends with that."
    )
    save_ends: SaveEnds | None = None
    rounds_left: int | None = Field(
        default=None,
        ge=1,
        le=MAX_EFFECT_ROUNDS,
        description="Rounds left, counted down at the end of expiry_creature's turns"
        " (1 minute = 10 rounds); it ends when none is left.",
    )


class Readied(_Frozen):
    """A readied action or move, released with the reaction when ``trigger`` happens."""

    trigger: str = Field(min_length=1, max_length=MAX_TRIGGER)
    action: str | None = Field(default=None, description="Action id; None: move up to speed.")


class TurnState(_Frozen):
    """What a combatant has spent this turn; reset at the start of each of its turns."""

    action_used: bool = False
    bonus_action_used: bool = False
    object_interactions: int = Field(default=0, ge=0)
    movement_used: float = Field(default=0, ge=0, description="Feet spent, over all speeds.")
    movement_used_by_mode: tuple[tuple[SpeedMode, float], ...] = Field(
        default=(),
        max_length=len(SpeedMode),
        description="Feet spent per speed (for rulesets where switching doesn't subtract).",
    )
    dash_count: int = Field(default=0, ge=0)
    speed_mode: SpeedMode = SpeedMode.WALK
    attacks_left: int = Field(default=0, ge=0, description="Set by the Attack action.")
    extra_actions: int = Field(
        default=0, ge=0, le=10, description="Actions granted on top of the one (Action Surge)."
    )
    attack_plan: tuple[AttackCount, ...] = Field(
        default=(),
        max_length=MAX_ATTACKS_PER_ACTION,
        description="The named attacks a Multiattack taken still allows (rules.attacks_left).",
    )
    actions_taken: tuple[str, ...] = Field(default=(), max_length=100)
    cantrip_only: bool = Field(default=False, description="A bonus-action spell was cast.")


class DeathState(_Frozen):
    """Dying and death; the attack-and-damage engine updates these."""

    successes: int = Field(default=0, ge=0)
    failures: int = Field(default=0, ge=0)
    stable: bool = False
    dead: bool = False
    brink: bool = False
    last_breath: bool = False
    # Added by the attack-and-damage engine (battlemap.rules.damage / death):
    hp_max_reduction: int = Field(
        default=0, ge=0, description="Life drain: the HP maximum is lowered by this much."
    )
    unconscious_at_zero: bool | None = Field(
        default=None, description="DM switch: None follows the ruleset (monsters die at 0)."
    )
    knocked_out: bool = Field(default=False, description="Knocked out (bloodied-brink: 1 HP).")
    revival: str = Field(
        default="", max_length=MAX_NAME, description="How the dead can return, if limited."
    )


LASTS_PAST_COMBAT: frozenset[Expiry] = frozenset({Expiry.NEVER})
"""The expiry kinds a condition keeps when its combat ends. Every other kind counts turns of
that combat ("until the start of your next turn"), so such a condition ends with it."""


class LastingState(_Frozen):
    """What a creature keeps between combats (``Creature.lasting``): exhaustion, the conditions
    not tied to the ended combat's turns (``LASTS_PAST_COMBAT``: a poison "for 1 hour" is
    ``Expiry.NEVER`` until the DM or a rule removes it), its dying, stable, dead, knockout
    and reduced-HP-maximum state (``DeathState``) and the spell it concentrates on. A
    combatant joining a combat starts from it."""

    conditions: tuple[ActiveCondition, ...] = Field(default=(), max_length=100)
    exhaustion: int = Field(default=0, ge=0, le=10)
    death: DeathState = DeathState()
    concentration: Concentration | None = None

    @property
    def empty(self) -> bool:
        """Nothing worth keeping: no conditions, no exhaustion, the default death state, no
        concentration."""
        return (
            not self.conditions
            and not self.exhaustion
            and self.death == DeathState()
            and self.concentration is None
        )


class LairUse(_Frozen):
    """The lair action a creature's lair took last, and in which round."""

    round: int = Field(ge=1)
    action: str = Field(min_length=1, max_length=200)


class Combatant(_Frozen):
    """A creature's state in this combat; its stats stay on the ``Creature``."""

    creature_id: EntityId
    group: str = Field(max_length=120, description="Initiative group (shared roll or side).")
    initiative: int | None = None
    initiative_tiebreak: tuple[int, ...] = Field(
        default=(), max_length=8, description="Sort keys after the total: higher goes first."
    )
    surprised: bool = False
    extra_turn: bool = Field(default=False, description="gms-den natural 20: extra turn, round 1.")
    reaction_move_left: float = Field(default=0, ge=0, description="Feet of a readied move.")
    turns_taken: int = Field(default=0, ge=0)
    acted_this_round: bool = False
    reaction_used: bool = Field(default=False, description="No reaction left this round.")
    reactions_taken: int = Field(
        default=0, ge=0, le=100, description="Reactions since its turn began (ruleset limit)."
    )
    controlled_by: EntityId | None = Field(
        default=None, description="Rider controlling this mount (it shares the initiative)."
    )
    bonus_action_features: tuple[str, ...] = Field(
        default=(),
        max_length=50,
        description="Action ids a feature lets it take as a bonus action.",
    )
    extra_attacks: int = Field(default=0, ge=0, le=10, description="Extra Attack feature.")
    conditions: tuple[ActiveCondition, ...] = Field(default=(), max_length=100)
    exhaustion: int = Field(default=0, ge=0, le=10)
    disengaged: bool = False
    disengage_expiry: Expiry = Expiry.END_OF_TURN
    dodging: bool = False
    readied: Readied | None = None
    helping: EntityId | None = Field(default=None, description="Ally given the Help action.")
    hidden_stealth: int | None = Field(default=None, description="Stealth total when hiding.")
    turn: TurnState = TurnState()
    death: DeathState = DeathState()
    concentration: Concentration | None = None
    legendary_used: int = Field(
        default=0,
        ge=0,
        le=MAX_LEGENDARY_PER_ROUND,
        exclude_if=lambda used: used == 0,
        description="Legendary actions spent since the start of its last turn.",
    )

    lair_used: LairUse | None = Field(
        default=None,
        exclude_if=lambda used: used is None,
        description="Its lair's last lair action (rules.lair). Left out of the saved data "
        "when None.",
    )

    def has_condition(self, name: str) -> bool:
        return any(c.name == name for c in self.conditions)

    def lasting(self) -> LastingState | None:
        """What outlives the combat (``LastingState``); None when there is nothing to keep.
        Conditions whose expiry counts this combat's turns are left out."""
        kept = tuple(c for c in self.conditions if c.expiry in LASTS_PAST_COMBAT)
        state = LastingState(
            conditions=kept,
            exhaustion=self.exhaustion,
            death=self.death,
            concentration=self.concentration,
        )
        return None if state.empty else state

    def with_lasting(self, lasting: LastingState | None) -> Combatant:
        """A copy starting from ``lasting`` (conditions, exhaustion, death); unchanged if None."""
        if lasting is None:
            return self
        return self.model_copy(
            update={
                "conditions": lasting.conditions,
                "exhaustion": lasting.exhaustion,
                "death": lasting.death,
                "concentration": lasting.concentration,
            }
        )


class TurnSlot(_Frozen):
    """One turn in the round: ``extra`` marks gms-den's natural-20 turn at the end of round 1."""

    creature_id: EntityId
    extra: bool = False


class RolledBy(StrEnum):
    """Who rolled the dice of a roll line."""

    TABLE = "table"
    """Typed in from physical dice at the table (by the DM or a player)."""
    APP = "app"
    """Rolled by the app from fresh dice outside a combat (there are no combat dice)."""
    COMBAT_DICE = "combat-dice"
    """Rolled by the app from the combat's own seeded dice (replayed the same on redo)."""


class CombatEvent(_Frozen):
    """A line of the combat log."""

    round: int = Field(ge=0)
    kind: str = Field(max_length=40, description="e.g. turn-start, action, move, roll.")
    creature_id: EntityId | None = None
    text: str = Field(max_length=MAX_EVENT_TEXT)
    rolled_by: RolledBy | None = Field(
        default=None, description="Who rolled the dice of a 'roll' line (None: not a roll)."
    )


def clip_event_text(text: str) -> str:
    """``text`` cut to a log line's limit (``MAX_EVENT_TEXT``), ending in "…" when it was cut:
    the one place a long log line is shortened."""
    return text if len(text) <= MAX_EVENT_TEXT else text[: MAX_EVENT_TEXT - 1] + "…"


class CombatState(_Frozen):
    """One combat: combatants, order, round and turn, the dice, every roll and the log.

    ``round`` is 0 while initiative is being set up and 1 from the first turn. ``turn_index``
    indexes ``order``. Rounds of gms-den's extra turns include them only in round 1.
    """

    ruleset: str = Field(max_length=MAX_RULESET_ID)
    round: int = Field(default=0, ge=0)
    turn_index: int = Field(default=0, ge=0)
    order: tuple[TurnSlot, ...] = Field(default=(), max_length=2 * MAX_COMBATANTS)
    combatants: tuple[Combatant, ...] = Field(default=(), max_length=MAX_COMBATANTS)
    group_order: tuple[str, ...] = Field(default=(), max_length=MAX_COMBATANTS)
    dice: DiceState
    rolls: tuple[RollRecord, ...] = Field(default=(), max_length=MAX_LOG)
    log: tuple[CombatEvent, ...] = Field(default=(), max_length=MAX_LOG)
    turn_ending: bool = Field(
        default=False,
        exclude_if=lambda ending: not ending,
        description="The current creature's turn has ended and the next hasn't begun: the "
        "moment for legendary actions (rules.legendary.end_of_turn). Left out of the saved "
        "data when False.",
    )

    @property
    def started(self) -> bool:
        return self.round > 0

    @property
    def current(self) -> TurnSlot | None:
        """The slot whose turn it is, or None before the first round."""
        if not self.started or not self.order:
            return None
        return self.order[self.turn_index]

    def combatant(self, creature_id: EntityId) -> Combatant:
        """The combatant for ``creature_id``.

        Raises:
            KeyError: when the creature is not in this combat.
        """
        for combatant in self.combatants:
            if combatant.creature_id == creature_id:
                return combatant
        raise KeyError(creature_id)

    def has(self, creature_id: EntityId) -> bool:
        return any(c.creature_id == creature_id for c in self.combatants)

    def with_combatant(self, combatant: Combatant) -> CombatState:
        """A copy with the combatant of the same creature replaced."""
        self.combatant(combatant.creature_id)
        combatants = tuple(
            combatant if c.creature_id == combatant.creature_id else c for c in self.combatants
        )
        return self.model_copy(update={"combatants": combatants})
