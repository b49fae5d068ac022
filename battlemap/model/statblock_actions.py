"""A stat block's actions beyond its attacks: Multiattack options, saving-throw actions
(breath weapons), uses (Recharge 5-6, 3/Day), legendary actions and resistances, lair
actions.

Only facts and numbers are kept; an action the loader could not read is kept as its text
with a note (``TextAction``), so nothing a stat block says is lost.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from battlemap.model.abilities import Ability
from battlemap.model.damage_roll import Damage

MAX_ATTACKS_PER_ACTION = 10
"""Most attacks one Attack action or Multiattack makes (the SRD's most is 6: a marilith)."""
MAX_ACTION_TEXT = 2000
MAX_AREA_FEET = 1000
MAX_LEGENDARY_PER_ROUND = 5
ActionName = Annotated[str, Field(min_length=1, max_length=200)]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class AttackCount(_Frozen):
    """``count`` attacks with the stat block's attack ``name`` ("two with its claws")."""

    name: ActionName
    count: int = Field(default=1, ge=1, le=MAX_ATTACKS_PER_ACTION)


class MultiattackOption(_Frozen):
    """One way a creature's Multiattack may be made.

    ``attacks`` are the named attacks; ``any_attacks`` more attacks are the DM's pick of the
    stat block's attacks ("makes three melee attacks"). ``other_actions`` are the non-attack
    actions the option includes ("can use its Frightful Presence"), taken separately.
    """

    attacks: tuple[AttackCount, ...] = Field(default=(), max_length=MAX_ATTACKS_PER_ACTION)
    any_attacks: int = Field(default=0, ge=0, le=MAX_ATTACKS_PER_ACTION)
    other_actions: tuple[ActionName, ...] = Field(default=(), max_length=10)

    @model_validator(mode="after")
    def _bounded_total(self) -> MultiattackOption:
        if not 1 <= self.total <= MAX_ATTACKS_PER_ACTION:
            raise ValueError(
                f"a Multiattack makes 1 to {MAX_ATTACKS_PER_ACTION} attacks, not {self.total}"
            )
        return self

    @property
    def total(self) -> int:
        """The attacks the option makes: the named ones and the DM's picks."""
        return sum(a.count for a in self.attacks) + self.any_attacks

    @property
    def label(self) -> str:
        """As a menu shows it: ``2 × Scimitar, 1 × Dagger`` or ``3 attacks``."""
        parts = [f"{a.count} × {a.name}" for a in self.attacks]
        if self.any_attacks:
            noun = "attack" if self.any_attacks == 1 else "attacks"
            parts.append(f"{self.any_attacks} {'more ' if self.attacks else ''}{noun}")
        text = ", ".join(parts) or "no attacks"
        if self.other_actions:
            text = f"{', '.join(self.other_actions)}; {text}"
        return text


class UsageKind(StrEnum):
    """How an action's uses come back."""

    RECHARGE = "recharge"
    """Recharge X-6: a d6 at the start of the creature's turn, ``recharge_on`` or more."""
    PER_DAY = "per-day"
    """``times`` uses a day (back after a long rest)."""
    PER_REST = "per-rest"
    """Back after a short or long rest ("Recharges after a Short or Long Rest")."""


class Usage(_Frozen):
    """How often an action may be used: Recharge 5-6, 3/Day, once per rest."""

    kind: UsageKind
    recharge_on: int = Field(default=6, ge=2, le=6, description="Recharge: the lowest d6.")
    times: int = Field(default=1, ge=1, le=10, description="Uses before it must come back.")

    @property
    def text(self) -> str:
        """As a stat block prints it: ``Recharge 5–6``, ``Recharge 6``, ``3/Day``."""
        if self.kind is UsageKind.RECHARGE:
            low = self.recharge_on
            return f"Recharge {low}–6" if low < 6 else "Recharge 6"
        if self.kind is UsageKind.PER_DAY:
            return f"{self.times}/Day"
        return f"{self.times}/rest" if self.times > 1 else "once per rest"


class AreaShape(StrEnum):
    """The area template a save action covers (``size_feet``: its length, side or radius)."""

    CONE = "cone"
    LINE = "line"
    CUBE = "cube"
    SPHERE = "sphere"
    """A radius around a point ("20-foot-radius sphere")."""
    CYLINDER = "cylinder"
    AROUND = "around"
    """Each creature within ``size_feet`` of the creature itself."""


class SaveArea(_Frozen):
    """Where a save action reaches: a 60-ft cone, a 30-ft line 5 ft wide, 10 ft around it."""

    shape: AreaShape
    size_feet: int = Field(ge=1, le=MAX_AREA_FEET)
    width_feet: int = Field(default=5, ge=1, le=MAX_AREA_FEET, description="A line's width.")

    @property
    def text(self) -> str:
        """``60-ft cone``, ``30-ft line, 5 ft wide``, ``within 10 ft``."""
        if self.shape is AreaShape.AROUND:
            return f"within {self.size_feet} ft"
        if self.shape is AreaShape.LINE:
            return f"{self.size_feet}-ft line, {self.width_feet} ft wide"
        return f"{self.size_feet}-ft {self.shape.value}"


class SaveAction(_Frozen):
    """An action that makes creatures save: a breath weapon, a gaze, a ghoul's paralysis.

    ``usage_key`` names the uses it spends (its own name when empty; the options of a
    dragon's "Breath Weapons" share that one's).
    """

    name: ActionName
    ability: Ability
    dc: int = Field(ge=1, le=40)
    damage: tuple[Damage, ...] = Field(default=(), max_length=10)
    half_on_success: bool = False
    area: SaveArea | None = None
    usage: Usage | None = None
    usage_key: Annotated[str, Field(max_length=200)] = ""
    effect: Annotated[str, Field(max_length=MAX_ACTION_TEXT)] = ""
    """The stat block's text, for what the numbers don't say (prone, frightened...)."""
    on_failure: Annotated[str, Field(max_length=40)] = Field(
        default="",
        exclude_if=lambda name: not name,
        description="The condition a failed save gives, as the text names it ('frightened'); "
        "empty when none is read. Left out of the saved data when empty.",
    )

    @property
    def uses_key(self) -> str:
        return self.usage_key or self.name


class ActionSource(StrEnum):
    """Where in the stat block an action is written."""

    ACTION = "action"
    BONUS_ACTION = "bonus-action"
    REACTION = "reaction"
    TRAIT = "trait"
    LEGENDARY = "legendary"
    LAIR = "lair"


class TextAction(_Frozen):
    """An action kept as its text: what the app does not play itself, with ``note`` saying
    why (or what to do), and its uses when it has a limit."""

    name: ActionName
    source: ActionSource = ActionSource.ACTION
    text: Annotated[str, Field(max_length=MAX_ACTION_TEXT)] = ""
    note: Annotated[str, Field(max_length=200)] = ""
    usage: Usage | None = None


class LegendaryAction(_Frozen):
    """One legendary action: its cost (1-3 of the round's legendary actions) and what it
    does: one of the stat block's attacks (``attack``), a save action (``save``), or text."""

    name: ActionName
    cost: int = Field(default=1, ge=1, le=MAX_LEGENDARY_PER_ROUND)
    attack: Annotated[str, Field(max_length=200)] | None = None
    save: SaveAction | None = None
    text: Annotated[str, Field(max_length=MAX_ACTION_TEXT)] = ""

    @property
    def automated(self) -> bool:
        return self.attack is not None or self.save is not None


class Legendary(_Frozen):
    """A legendary creature's actions per round, its legendary actions and its legendary
    resistances (uses a day)."""

    per_round: int = Field(default=3, ge=0, le=MAX_LEGENDARY_PER_ROUND)
    actions: tuple[LegendaryAction, ...] = Field(default=(), max_length=20)
    resistances: int = Field(default=0, ge=0, le=10, description="Legendary Resistance/day.")


class SpentUse(_Frozen):
    """Uses of a limited action a creature has spent (``key``: a save action's ``uses_key``,
    a text action's name, or ``LEGENDARY_RESISTANCE``)."""

    key: Annotated[str, Field(min_length=1, max_length=200)]
    spent: int = Field(default=1, ge=1, le=10)


LEGENDARY_RESISTANCE = "Legendary Resistance"
MAX_SPENT_USES = 60
"""Most limited actions a creature keeps spent uses of."""
