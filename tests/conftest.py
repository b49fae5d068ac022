"""Shared test setup. Qt must run offscreen: without a display pytest-qt's qapp would abort."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
