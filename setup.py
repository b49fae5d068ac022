"""Build step that puts the top-level ``assets/`` and ``rulesets/`` into the wheel.

All metadata lives in pyproject.toml. The data folders sit beside the package in the checkout
(one place for the app, the bundle and other tools to read), and setuptools cannot map folders
from outside the package into it declaratively while packages are found automatically; so
``build_py`` copies them to ``battlemap/assets`` and ``battlemap/rulesets`` in the build tree,
where ``battlemap.resources`` looks first. An editable install skips the copy and reads the
checkout's folders directly.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED_FOLDERS = ("assets", "rulesets")


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return
        for folder in SHIPPED_FOLDERS:
            source = ROOT / folder
            target = Path(self.build_lib) / "battlemap" / folder
            # A build tree can outlive a build: drop files deleted from the checkout since.
            shutil.rmtree(target, ignore_errors=True)
            if source.is_dir():
                shutil.copytree(
                    source,
                    target,
                    ignore=shutil.ignore_patterns(".*", "__pycache__", "*.pyc"),
                    dirs_exist_ok=True,
                )


setup(cmdclass={"build_py": BuildPyWithData})
