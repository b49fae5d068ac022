"""Typed errors of the geometry layer; all are ``ValueError`` so callers may catch broadly."""

from __future__ import annotations


class GeometryError(ValueError):
    """Base class of every error raised by ``battlemap.geometry``."""


class OffMapError(GeometryError):
    """A position lies (partly) outside the map."""


class InvalidPathError(GeometryError):
    """A path given as waypoints is malformed (empty, not on whole cells, wrong start)."""


class UnknownDiagonalRuleError(GeometryError):
    """A ruleset names a diagonal rule that does not exist."""
