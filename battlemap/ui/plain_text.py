"""Text from a file or typed by the DM, shown literally wherever Qt would read markup.

A creature named ``<img src=/home/dm/secret.png>`` must not load that image on either
window. Qt reads markup in three places the app uses: a ``QLabel`` in its default
``AutoText`` format (set ``Qt.TextFormat.PlainText``, or ``html.escape`` the untrusted parts
of a rich label), a tooltip (no format to set: ``plain_tooltip``), and the ``&`` of a menu,
button or group box title (a mnemonic: ``literal_mnemonics``).
"""

from __future__ import annotations

from PySide6.QtGui import Qt
from PySide6.QtWidgets import QLabel, QMenu, QWidget


def plain_tooltip(text: str) -> str:
    """``text`` as a tooltip that shows it literally.

    Qt shows a tooltip as rich text when its first line looks like markup
    (``Qt.mightBeRichText``); such a text is escaped into rich text that reads the same.
    Any other text is returned unchanged (Qt shows it as it is).
    """
    if not Qt.mightBeRichText(text):
        return text
    return Qt.convertFromPlainText(text, Qt.WhiteSpaceMode.WhiteSpaceNormal)


def literal_mnemonics(text: str) -> str:
    """``text`` for a menu entry, button or title: each ``&`` doubled so it shows as one
    instead of underlining the next letter."""
    return text.replace("&", "&&")


def literal_menu(menu: QMenu) -> None:
    """Make every entry of ``menu`` (and of its submenus) show its text literally, in the
    entry and in its tooltip; for menus whose entries hold names and no mnemonics (a
    token's right-click menu)."""
    for action in menu.actions():
        action.setText(literal_mnemonics(action.text()))
        action.setToolTip(plain_tooltip(action.toolTip()))  # one not set reads the text
        if action.menu() is not None:
            literal_menu(action.menu())  # type: ignore[arg-type]


def literal_labels(widget: QWidget) -> None:
    """Show every label inside ``widget`` as plain text (a message box naming a file)."""
    for label in widget.findChildren(QLabel):
        label.setTextFormat(Qt.TextFormat.PlainText)
