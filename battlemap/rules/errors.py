"""Errors of the combat engine, by meaning; all are ``ValueError`` subclasses.

Following python-chess: a request the engine can't even read (an unknown creature or action)
is an ``InvalidRequestError``; a readable request the rules forbid (acting out of turn, a
second action, moving past the budget) is an ``IllegalActionError``. Either way the engine's
input state is unchanged (it is immutable) and ``reason`` says why.
"""

from __future__ import annotations


class CombatError(ValueError):
    """A combat request was refused; ``reason`` is a sentence for the DM."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class InvalidRequestError(CombatError):
    """The request names something that doesn't exist or is malformed."""


class IllegalActionError(CombatError):
    """The rules forbid the request in the current state."""
