"""Collect QtCore like PyInstaller's own hook, without Qt's translation catalogues.

Battlemap installs no QTranslator, so Qt's own strings stay English and the ~7 MB of .qm
files would never be read. This hook replaces the built-in one (hookspath takes priority).
"""

from pathlib import Path

from PyInstaller.utils.hooks.qt import add_qt6_dependencies

hiddenimports, binaries, datas = add_qt6_dependencies(__file__)
datas = [(source, dest) for source, dest in datas if "translations" not in Path(dest).parts]
