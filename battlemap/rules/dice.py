"""Dice through the d20 library, drawing from the combat's own seeded random source.

d20 draws every die in ``Die._add_roll`` from the global ``random`` module and has no hook for
another source, so this module subclasses ``Die``, ``Dice`` and ``Roller`` to draw from a
``CounterRandom`` instead. The random source is counter based: draw ``n`` is
``blake2b(seed, n)``, so the whole dice state is two integers (``DiceState``), saved with the
combat; undo restores them and redo rolls the same numbers. Nothing global is touched.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from battlemap.model.combat import MAX_SEED, DiceState, RollRecord
from battlemap.model.limits import (
    MAX_DICE_EXPRESSION,
    MAX_DICE_PER_ROLL,
    MAX_ROLL_DETAIL,
    MAX_ROLL_PURPOSE,
)

MAX_EXPRESSION_LENGTH = MAX_DICE_EXPRESSION
_TWO_64 = 2**64


class DiceExpressionError(ValueError):
    """A dice expression that can't be rolled: ``expression`` and ``reason`` say why."""

    def __init__(self, expression: str, reason: str) -> None:
        self.expression = expression
        self.reason = reason
        super().__init__(f"bad dice expression {expression!r}: {reason}")


class CounterRandom:
    """Uniform integers from ``blake2b(seed, counter)``; ``draws`` counts 64-bit draws used."""

    def __init__(self, state: DiceState) -> None:
        self.seed = state.seed
        self.draws = state.draws

    def _next64(self) -> int:
        digest = hashlib.blake2b(
            f"{self.seed}:{self.draws}".encode(), digest_size=8, person=b"battlemap-dice"
        ).digest()
        self.draws += 1
        return int.from_bytes(digest, "big")

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling: no modulo bias)."""
        if n < 1:
            raise ValueError("n must be positive")
        limit = _TWO_64 - _TWO_64 % n
        while True:
            value = self._next64()
            if value < limit:
                return value % n

    def state(self) -> DiceState:
        return DiceState(seed=self.seed, draws=self.draws)


class _D20(NamedTuple):
    """The d20 library and the seeded subclasses of its classes, made on first use."""

    d20: Any
    expression: Any
    context: Any
    roller: Any
    stringifier: Any


@functools.cache
def _lib() -> _D20:
    """Import d20 and derive the seeded classes from it, once.

    Importing d20 builds its Lark grammar (~70 ms), so it waits for the first roll or
    expression check instead of slowing the app's start.
    """
    import d20  # type: ignore[import-untyped]
    from d20 import expression

    class _Context(d20.RollContext):  # type: ignore[misc]
        def __init__(self, source: CounterRandom) -> None:
            super().__init__(max_rolls=MAX_DICE_PER_ROLL)
            self.source = source

    class _Die(expression.Die):  # type: ignore[misc]
        """A die that draws from the context's ``CounterRandom`` instead of ``random``."""

        @classmethod
        def new(cls, size: Any, context: Any = None) -> Any:
            inst = cls(size, [], context=context)
            inst._add_roll()
            return inst

        def _add_roll(self) -> None:
            if self.size != "%" and self.size < 1:
                raise d20.RollValueError("Cannot roll a 0-sided die.")
            self._context.count_roll()
            source: CounterRandom = self._context.source
            face = source.below(10) * 10 if self.size == "%" else source.below(self.size) + 1
            self.values.append(expression.Literal(face))

    class _Dice(expression.Dice):  # type: ignore[misc]
        @classmethod
        def new(cls, num: int, size: Any, context: Any = None) -> Any:
            return cls(
                num, size, [_Die.new(size, context=context) for _ in range(num)], context=context
            )

        def roll_another(self) -> None:
            self.values.append(_Die.new(self.size, context=self._context))

    class _Roller(d20.Roller):  # type: ignore[misc]
        def _eval_dice(self, node: Any) -> Any:
            return _Dice.new(node.num, node.size, context=self.context)

    class _Stringifier(d20.SimpleStringifier):  # type: ignore[misc]
        """Plain-text results (no Markdown), knowing the seeded die classes."""

        def __init__(self) -> None:
            super().__init__()
            nodes: dict[Any, Any] = dict(vars(self)["_nodes"])
            nodes.update({_Dice: self._str_dice, _Die: self._str_die})
            self._nodes = nodes

    return _D20(d20, expression, _Context, _Roller, _Stringifier)


@functools.lru_cache(maxsize=512)
def _parse(text: str) -> Any:
    """The d20 syntax tree of ``text`` (trees are never mutated by evaluation)."""
    return _lib().d20.Roller().parse(text)


@dataclass(frozen=True)
class _Rolled:
    total: int
    detail: str
    natural: int | None
    kept: tuple[tuple[int, int], ...]


def total_range(dice: Sequence[tuple[int, int]], flat: int = 0) -> tuple[int, int]:
    """The lowest and highest total of ``dice`` (``(count, sides)`` pairs, added) plus ``flat``.

    Every die shows 1 to ``sides``, so ``3d8`` gives (3, 24), ``1d6+2`` (3, 8) and ``1d4-3``
    (-2, 1); no dice gives (``flat``, ``flat``). The one range behind the checks of typed-in
    dice totals (``damage.check_typed_total``: damage parts and rests).

    Raises:
        ValueError: a count below 0 or a die with fewer than 1 side.
    """
    if any(count < 0 or sides < 1 for count, sides in dice):
        raise ValueError(f"bad dice {list(dice)!r}")
    low = sum(count for count, _ in dice) + flat
    high = sum(count * sides for count, sides in dice) + flat
    return low, high


class AppRoll(int):
    """A total or die face the app rolled from fresh dice, handed to the engine where a
    typed-in result goes.

    Outside a combat there are no combat dice, so a dialog rolls its own (seeded by the
    session) and passes them in as ``typed``; the engine then logs the roll as rolled by the
    app (``RolledBy.APP``), not typed in at the table. Arithmetic gives a plain ``int``.
    """


def new_dice_state(seed: int) -> DiceState:
    """A fresh dice state; ``seed`` is reduced into the allowed range."""
    return DiceState(seed=seed % (MAX_SEED + 1), draws=0)


def parse_check(text: str) -> None:
    """Check that ``text`` is a valid dice expression without rolling it.

    Raises:
        DiceExpressionError: for empty, too long or malformed expressions.
    """
    _tree(text)


def _tree(text: str) -> Any:
    if not isinstance(text, str) or not text.strip():
        raise DiceExpressionError(str(text), "empty expression")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise DiceExpressionError(text[:40] + "...", f"longer than {MAX_EXPRESSION_LENGTH}")
    try:
        return _parse(text.strip())
    except _lib().d20.RollSyntaxError as error:
        raise DiceExpressionError(text, f"syntax error at column {error.col}") from None
    except _lib().d20.RollError as error:
        raise DiceExpressionError(text, str(error)) from None


def roll(dice: DiceState, text: str, purpose: str = "") -> tuple[DiceState, RollRecord]:
    """Roll ``text`` (``1d20+5``, ``2d20kh1``, ``8d6``, ``4d6kh3``...) from ``dice``.

    Returns the advanced dice state and the record of the roll. The same state and text
    always give the same result.

    Raises:
        DiceExpressionError: malformed expression, a 0-sided die, or more than
            ``MAX_DICE_PER_ROLL`` dice; ``dice`` is unchanged (it is immutable).
    """
    tree = _tree(text)
    source = CounterRandom(dice)
    lib = _lib()
    try:
        result = lib.roller(lib.context(source)).roll(tree, stringifier=lib.stringifier())
    except lib.d20.RollError as error:
        raise DiceExpressionError(text, str(error)) from None
    rolled = _summarise(result)
    record = RollRecord(
        expression=text.strip(),
        total=rolled.total,
        detail=rolled.detail[:MAX_ROLL_DETAIL],
        purpose=purpose[:MAX_ROLL_PURPOSE],
        natural=rolled.natural,
        kept=rolled.kept,
        first_draw=dice.draws,
    )
    return source.state(), record


def _summarise(result: Any) -> _Rolled:
    kept: list[tuple[int, int]] = []
    _collect_kept(result.expr, kept)
    natural = None
    left = result.expr
    while left.children:
        left = left.children[0]
    if isinstance(left, _lib().expression.Dice) and left.size == 20 and len(left.keptset) == 1:
        natural = int(left.keptset[0].total)
    return _Rolled(int(result.total), str(result), natural, tuple(kept))


def _collect_kept(node: Any, out: list[tuple[int, int]]) -> None:
    if isinstance(node, _lib().expression.Dice):
        sides = 100 if node.size == "%" else int(node.size)
        out.extend((sides, int(die.total)) for die in node.keptset)
        return
    for child in node.children:
        _collect_kept(child, out)


__all__ = [
    "AppRoll",
    "CounterRandom",
    "DiceExpressionError",
    "new_dice_state",
    "parse_check",
    "roll",
    "total_range",
]
