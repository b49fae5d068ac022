"""Shared test setup. Qt must run offscreen: without a display pytest-qt's qapp would abort."""

import os

from hypothesis import settings

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# No per-example time limit: CI shares two cores, and a slow example is not a wrong one.
# Speed is measured by `make bench`, never by tests.
settings.register_profile("battlemap", deadline=None)
settings.load_profile("battlemap")
