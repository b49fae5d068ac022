"""Share with players: pick the address, start or stop, show the QR code and the join code."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from battlemap.ui.share.addresses import ShareAddress, has_lan
from battlemap.ui.share.qr import qr_image

DEFAULT_PORT = 8765
OFF_TEXT = "Not sharing. Players on the same network open the address below on their phones."
NO_NETWORK_TEXT = (
    "Not sharing. This computer is on no network: connect it to the table's Wi-Fi (or a "
    "phone's hotspot) for players' phones to reach it. Until then it can share with "
    "itself only."
)


class ShareDialog(QDialog):
    """The controls only; ``ShareController`` does the work.

    Signals:
        start_requested(ShareAddress, int): Start was pressed (the DM agreed to all
            networks when that was picked).
        stop_requested(), revoke_requested().
    """

    start_requested = Signal(object, int)
    stop_requested = Signal()
    revoke_requested = Signal()

    def __init__(
        self, addresses: list[ShareAddress], chosen: str, port: int, parent: QWidget | None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Share with players")
        self.off_text = OFF_TEXT
        self.address_box = QComboBox()
        self.port_box = QSpinBox()
        self.port_box.setRange(1024, 65535)
        self.port_box.setValue(port)
        self.start_button = QPushButton("&Start sharing")
        self.start_button.clicked.connect(self._on_start_stop)
        self.revoke_button = QPushButton("&Revoke code")
        self.revoke_button.setToolTip("A new join code; every connected player is disconnected")
        self.revoke_button.clicked.connect(self.revoke_requested)
        self.state_label = QLabel(self.off_text)
        self.state_label.setWordWrap(True)
        self.qr_label = QLabel()
        self.qr_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.qr_label.setMinimumSize(280, 280)
        self.url_label = QLabel()
        self.url_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.url_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        big = QFont()
        big.setPointSize(big.pointSize() + 4)
        big.setBold(True)
        self.url_label.setFont(big)
        self.code_label = QLabel()
        self.code_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.code_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        form = QFormLayout()
        form.addRow("&Network:", self.address_box)
        form.addRow("&Port:", self.port_box)
        buttons = QHBoxLayout()
        buttons.addWidget(self.start_button)
        buttons.addWidget(self.revoke_button)
        close = QPushButton("Close")
        close.clicked.connect(self.hide)
        buttons.addStretch(1)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.state_label)
        layout.addWidget(self.qr_label)
        layout.addWidget(self.url_label)
        layout.addWidget(self.code_label)
        layout.addLayout(buttons)
        self.set_addresses(addresses, chosen)

    def set_addresses(self, addresses: list[ShareAddress], chosen: str) -> None:
        """Offer ``addresses`` (``share_addresses``), ``chosen`` (a host) picked if there,
        else the first; and say so when there is no network to share on."""
        self.address_box.clear()
        for address in addresses:
            self.address_box.addItem(address.label, address)
        hosts = [address.host for address in addresses]
        self.address_box.setCurrentIndex(hosts.index(chosen) if chosen in hosts else 0)
        self.off_text = OFF_TEXT if has_lan(addresses) else NO_NETWORK_TEXT
        self.show_stopped()

    def chosen_address(self) -> ShareAddress:
        address: ShareAddress = self.address_box.currentData()
        return address

    def _on_start_stop(self) -> None:
        if self.revoke_button.isEnabled():  # sharing: this button stops it
            self.stop_requested.emit()
            return
        address = self.chosen_address()
        if address.everywhere and not self._all_networks_agreed():
            return
        self.start_requested.emit(address, self.port_box.value())

    def _all_networks_agreed(self) -> bool:
        answer = QMessageBox.question(
            self,
            "Share on all networks?",
            "Anyone on any network this computer is on (a café's Wi-Fi, a VPN) could reach "
            "the page, though only with the join code. Share on all networks?",
        )
        return answer == QMessageBox.StandardButton.Yes

    def show_sharing(self, url: str, join_code: str, players: int) -> None:
        self.address_box.setEnabled(False)
        self.port_box.setEnabled(False)
        self.start_button.setText("&Stop sharing")
        self.revoke_button.setEnabled(True)
        self.qr_label.setPixmap(QPixmap.fromImage(qr_image(url)))
        self.url_label.setText(url)
        self.code_label.setText(f"Join code: {join_code}")
        self.show_players(players)

    def show_players(self, players: int) -> None:
        if self.revoke_button.isEnabled():
            self.state_label.setText(
                f"Sharing: {players} player{'s' if players != 1 else ''} connected. Scan the "
                "code with a phone's camera, or type the address in its browser."
            )

    def show_stopped(self, error: str | None = None) -> None:
        self.address_box.setEnabled(True)
        self.port_box.setEnabled(True)
        self.start_button.setText("&Start sharing")
        self.revoke_button.setEnabled(False)
        self.qr_label.clear()
        self.qr_label.setText("(the QR code shows here while sharing)")
        self.url_label.clear()
        self.code_label.clear()
        self.state_label.setText(error or self.off_text)
