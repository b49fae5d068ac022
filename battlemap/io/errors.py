"""Errors for files a user opens: each names the file, the field and what is wrong."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError


class FileFormatError(ValueError):
    """A file could not be read as what it claims to be."""

    def __init__(self, path: Path | str, problem: str) -> None:
        self.path = Path(path)
        self.problem = problem
        super().__init__(f"{self.path}: {problem}")


def describe_validation_error(error: ValidationError, limit: int = 5, outer: int = 0) -> str:
    """One line per problem, ``field.path: message``, at most ``limit`` of them; the first
    ``outer`` parts of each path (the fields of an envelope around the model) are left out."""
    lines = []
    for item in error.errors()[:limit]:
        where = ".".join(str(part) for part in item["loc"][outer:]) or "(top level)"
        lines.append(f"{where}: {item['msg']}")
    more = error.error_count() - limit
    if more > 0:
        lines.append(f"... and {more} more problems")
    return "; ".join(lines)
