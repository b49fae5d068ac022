"""The real-world files in ``../shared/data`` beside the checkout (or in the folder that
``$BATTLEMAP_SHARED_DATA`` names): one place that finds them, and one message when a test
needs one that is not there."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("BATTLEMAP_SHARED_DATA", ROOT.parent / "shared" / "data"))


def shared_file(name: str) -> Path:
    """The path of ``name`` in the shared data; when it is not there the test is skipped,
    its reason naming the file and the folder looked in."""
    path = SHARED_DATA / name
    if not path.is_file():
        pytest.skip(
            f"real test data {name} is not present in {SHARED_DATA} "
            "(set BATTLEMAP_SHARED_DATA to the folder that holds it)"
        )
    return path
