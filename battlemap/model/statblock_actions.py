"""A stat block's actions beyond its attacks: Multiattack options (and, in the same place,
the counted attacks an Attack action allows).

Only facts and numbers are kept; an action the loader could not read is kept as its text
with a note (``TextAction``), so nothing a stat block says is lost.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

MAX_ATTACKS_PER_ACTION = 10
"""Most attacks one Attack action or Multiattack makes (the SRD's most is 6: a marilith)."""
MAX_ACTION_TEXT = 2000
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
