"""Shared test setup. Qt must run offscreen: without a display pytest-qt's qapp would abort."""

import os

from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# No per-example time limit: CI shares two cores, and a slow example is not a wrong one.
# Speed is measured by `make bench`, never by tests. Derandomised: every run draws the same
# examples, so a property test's counted cases (and CI) never depend on luck; `make fuzz`
# is where many more random inputs run.
settings.register_profile("battlemap", deadline=None, derandomize=True)
settings.load_profile("battlemap")
