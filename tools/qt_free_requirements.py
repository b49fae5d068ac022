"""Print the project's run and test requirements without Qt (for `make test-without-qt`)."""

import tomllib
from pathlib import Path

QT_PACKAGES = ("pyside6", "pytest-qt")

project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())["project"]
for requirement in (*project["dependencies"], *project["optional-dependencies"]["test"]):
    if not requirement.lower().startswith(QT_PACKAGES):
        print(requirement)
