"""The player character form: level, abilities, saves, skills, defences, attacks, features.

The form edits a ``StatBlock`` with a ``CharacterSheet`` (``model/character.py``): the DM
types the level, the scores and ticks the proficiencies; the proficiency bonus, the save
and skill bonuses and passive Perception are shown as the stat block computes them, so the
numbers in the form are the ones every panel and engine check uses. A character saved
before sheets existed opens with its listed saves and skills ticked as proficiencies.
"""

from __future__ import annotations

from pydantic import ValidationError
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlemap.io.errors import describe_validation_error
from battlemap.model.character import MAX_ACTION_SURGES, CharacterSheet, Skill
from battlemap.model.creature import Size, Speeds
from battlemap.model.limits import MAX_AC, MAX_CHARACTER_LEVEL, MAX_HP, MAX_NAME, MAX_SPEED_FEET
from battlemap.model.statblock import Ability, AbilityScores, Senses, StatBlock

PC_TYPE = "player character"
ATTACK_COLUMNS = ("Attack", "To hit", "Reach", "Range", "Long", "Damage", "Type")
SPEED_MODES = ("walk", "fly", "swim", "climb")
SENSES = ("darkvision", "blindsight", "truesight", "tremorsense")
NO_LEVEL = 0
"""The level box's value for "no level recorded" (a character saved before levels)."""
MAX_ATTACKS_PER_ACTION = 4
"""Extra Attack at most (SRD fighter 20: four attacks)."""
ABILITY_SHORT = {a: a.value[:3].capitalize() for a in Ability}


def spin(low: int, high: int, value: int, suffix: str = "") -> QSpinBox:
    box = QSpinBox()
    box.setRange(low, high)
    box.setValue(value)
    box.setSuffix(suffix)
    return box


def signed(value: int) -> str:
    return f"{value:+d}"


NEW_NAME = "New character"
"""A new character's placeholder name: the DM types the real one (an empty name is refused)."""


class PlayerCharacterDialog(QDialog):
    """Edit one player character; ``block`` holds the result after ``accept``."""

    def __init__(self, parent: QWidget | None, block: StatBlock | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Player character")
        self.setObjectName("pc-dialog")
        self.block: StatBlock | None = None
        start = block or StatBlock(name=NEW_NAME, type=PC_TYPE, hit_points=10)
        self._keep = start
        sheet = start.character or _sheet_from_listed(start)
        columns = QHBoxLayout()
        columns.addLayout(self._basics(start, block is None, sheet))
        columns.addWidget(self._abilities_box(start, sheet))
        columns.addWidget(self._skills_box(sheet))
        self.attacks = QTableWidget(0, len(ATTACK_COLUMNS))
        self.attacks.setHorizontalHeaderLabels(list(ATTACK_COLUMNS))
        self.attacks.setMinimumHeight(110)
        for attack in start.attacks:
            damage = attack.damage[0] if attack.damage else None
            self.add_attack_row(
                attack.name,
                attack.to_hit,
                attack.reach,
                attack.range_normal,
                attack.range_long,
                damage.dice if damage else "",
                damage.type if damage else "",
            )
        add_row, remove_row = QPushButton("Add attack"), QPushButton("Remove attack")
        add_row.clicked.connect(lambda: self.add_attack_row("Attack", 0, 5, None, None, "1d6", ""))
        remove_row.clicked.connect(lambda: self.attacks.removeRow(self.attacks.currentRow()))
        self.error = QLabel()
        self.error.setTextFormat(Qt.TextFormat.PlainText)  # may quote what was typed
        self.error.setObjectName("pc-error")
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color: #b00020")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(columns)
        row = QHBoxLayout()
        row.addWidget(QLabel("Attacks (to hit; reach for melee, range/long for ranged, feet)"))
        row.addStretch()
        row.addWidget(add_row)
        row.addWidget(remove_row)
        layout.addLayout(row)
        layout.addWidget(self.attacks)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.update_numbers()

    # --- building the form -------------------------------------------------------------

    def _basics(self, start: StatBlock, new: bool, sheet: CharacterSheet) -> QFormLayout:
        form = QFormLayout()
        # A new character's name box starts empty: a name typed into it is the whole name
        # (clicking into "New character" and typing made "New characterBrakka").
        self.name = QLineEdit("" if new else start.name)
        self.name.setPlaceholderText(NEW_NAME)
        self.name.setMaxLength(MAX_NAME)
        self.size_box = QComboBox()
        for size in Size:
            self.size_box.addItem(size.value.capitalize(), size.value)
        self.size_box.setCurrentIndex(list(Size).index(start.size))
        self.level = spin(NO_LEVEL, MAX_CHARACTER_LEVEL, (1 if new else start.level) or NO_LEVEL)
        self.level.setSpecialValueText("—")
        self.level.setToolTip("Character level: proficiency bonus, rest dice ('—': not recorded)")
        self.proficiency = QLabel()
        self.proficiency.setObjectName("pc-proficiency")
        level_row = QHBoxLayout()
        level_row.addWidget(self.level)
        level_row.addWidget(self.proficiency)
        self.ac = spin(0, MAX_AC, start.armor_class)
        self.hp = spin(1, MAX_HP, start.hit_points)
        self.speeds = {
            mode: spin(0, MAX_SPEED_FEET, getattr(start.speeds, mode), " ft")
            for mode in SPEED_MODES
        }
        self.senses = {
            sense: spin(0, 10_000, getattr(start.senses, sense), " ft") for sense in SENSES
        }
        self.attacks_per_action = spin(1, MAX_ATTACKS_PER_ACTION, start.attacks_per_action)
        self.attacks_per_action.setToolTip("Extra Attack: attacks each Attack action makes")
        self.action_surges = spin(0, MAX_ACTION_SURGES, sheet.action_surge_uses)
        self.action_surges.setToolTip("Action Surge: extra actions per short rest (0: none)")
        self.cunning_action = QCheckBox("Dash, Disengage or Hide as a bonus action")
        self.cunning_action.setChecked(sheet.cunning_action)
        for label, widget in (
            ("Name", self.name),
            ("Size", self.size_box),
            ("Level", level_row),
            ("Armour class", self.ac),
            ("Hit points", self.hp),
        ):
            form.addRow(label, widget)
        form.addRow("Speeds", _labelled_grid(self.speeds))
        form.addRow("Senses", _labelled_grid(self.senses))
        form.addRow("Attacks per action", self.attacks_per_action)
        form.addRow("Action Surge uses", self.action_surges)
        form.addRow("Cunning Action", self.cunning_action)
        self.level.valueChanged.connect(self.update_numbers)
        return form

    def _abilities_box(self, start: StatBlock, sheet: CharacterSheet) -> QGroupBox:
        box = QGroupBox("Abilities and saves")
        grid = QGridLayout(box)
        self.scores: dict[Ability, QSpinBox] = {}
        self.save_proficient: dict[Ability, QCheckBox] = {}
        self.save_labels: dict[Ability, QLabel] = {}
        self.modifier_labels: dict[Ability, QLabel] = {}
        for row, ability in enumerate(Ability):
            score = spin(1, 30, start.abilities.score(ability))
            score.setAccessibleName(f"{ability.value} score")
            proficient = QCheckBox("save")
            proficient.setToolTip(f"Proficient in {ability.value} saving throws")
            proficient.setChecked(ability in sheet.save_proficiencies)
            modifier, save = QLabel(), QLabel()
            save.setObjectName(f"pc-save-{ability.value}")
            for column, widget in enumerate(
                (QLabel(ABILITY_SHORT[ability]), score, modifier, proficient, save)
            ):
                grid.addWidget(widget, row, column)
            score.valueChanged.connect(self.update_numbers)
            proficient.toggled.connect(self.update_numbers)
            self.scores[ability], self.save_proficient[ability] = score, proficient
            self.modifier_labels[ability], self.save_labels[ability] = modifier, save
        self.passive = QLabel()
        self.passive.setObjectName("pc-passive-perception")
        grid.addWidget(self.passive, len(Ability), 0, 1, 5)
        grid.setRowStretch(len(Ability) + 1, 1)
        return box

    def _skills_box(self, sheet: CharacterSheet) -> QGroupBox:
        box = QGroupBox("Skills (proficient, expertise)")
        grid = QGridLayout(box)
        grid.setVerticalSpacing(0)
        self.skill_proficient: dict[Skill, QCheckBox] = {}
        self.skill_expertise: dict[Skill, QCheckBox] = {}
        self.skill_labels: dict[Skill, QLabel] = {}
        half = (len(Skill) + 1) // 2
        for column in (1, 4):
            grid.addWidget(QLabel("exp."), 0, column)
        for index, skill in enumerate(Skill):
            row, column = 1 + index % half, 3 * (index // half)
            proficient, expertise = QCheckBox(skill.value), QCheckBox()
            proficient.setChecked(skill in sheet.skill_proficiencies)
            expertise.setChecked(skill in sheet.expertise)
            expertise.setToolTip(f"Expertise in {skill.value}: twice the proficiency bonus")
            bonus = QLabel()
            bonus.setObjectName(f"pc-skill-{skill.name.lower()}")
            grid.addWidget(proficient, row, column)
            grid.addWidget(expertise, row, column + 1)
            grid.addWidget(bonus, row, column + 2)
            proficient.toggled.connect(self.update_numbers)
            expertise.toggled.connect(self.update_numbers)
            self.skill_proficient[skill], self.skill_expertise[skill] = proficient, expertise
            self.skill_labels[skill] = bonus
        grid.setRowStretch(half + 1, 1)
        return box

    def add_attack_row(self, *values: object) -> None:
        row = self.attacks.rowCount()
        self.attacks.insertRow(row)
        for column, value in enumerate(values):
            self.attacks.setItem(row, column, QTableWidgetItem("" if value is None else str(value)))

    # --- reading the form --------------------------------------------------------------

    def sheet(self) -> CharacterSheet:
        """The proficiencies and features the form shows."""
        return CharacterSheet(
            save_proficiencies=frozenset(
                a for a, box in self.save_proficient.items() if box.isChecked()
            ),
            skill_proficiencies=frozenset(
                s for s, box in self.skill_proficient.items() if box.isChecked()
            ),
            expertise=frozenset(s for s, box in self.skill_expertise.items() if box.isChecked()),
            action_surge_uses=self.action_surges.value(),
            cunning_action=self.cunning_action.isChecked(),
        )

    def ability_scores(self) -> AbilityScores:
        return AbilityScores(**{a.value: box.value() for a, box in self.scores.items()})

    def update_numbers(self) -> None:
        """Show the proficiency, save and skill bonuses the stat block computes from the
        form as it is now."""
        numbers = StatBlock(
            name="numbers",
            level=self.level.value() or None,
            abilities=self.ability_scores(),
            character=self.sheet(),
        )
        self.proficiency.setText(f"proficiency {signed(numbers.proficiency)}")
        for ability, label in self.save_labels.items():
            label.setText(signed(numbers.saving_throw(ability)))
            self.modifier_labels[ability].setText(
                f"({signed(numbers.abilities.modifier(ability))})"
            )
        for skill, label in self.skill_labels.items():
            label.setText(signed(numbers.skill_bonus(skill)))
        self.passive.setText(f"Passive Perception {numbers.passive_perception}")

    def _attack_dicts(self) -> list[dict[str, object]]:
        attacks: list[dict[str, object]] = []
        for row in range(self.attacks.rowCount()):
            cells = [self.attacks.item(row, c) for c in range(len(ATTACK_COLUMNS))]
            name, to_hit, reach, normal, long, dice, kind = (
                cell.text().strip() if cell else "" for cell in cells
            )

            def number(text: str) -> int | None:
                return int(text) if text.lstrip("+-").isdigit() else None

            melee, ranged = number(reach) is not None, number(normal) is not None
            attack_kind = "melee or ranged" if melee and ranged else "ranged" if ranged else "melee"
            damage = [{"dice": dice, "type": kind or "bludgeoning"}] if dice else []
            attacks.append(
                {
                    "name": name or f"Attack {row + 1}",
                    "kind": attack_kind,
                    "to_hit": number(to_hit) or 0,
                    "reach": number(reach) if melee or not ranged else None,
                    "range_normal": number(normal),
                    "range_long": number(long),
                    "damage": damage,
                }
            )
        return attacks

    def build(self) -> StatBlock:
        """The stat block the form describes. Saves and skills come from the sheet alone
        (listed bonuses of an older character became its ticked proficiencies).

        Raises:
            ValidationError: a field is out of range (the message names it).
        """
        senses = {sense: box.value() for sense, box in self.senses.items()}
        return StatBlock.model_validate(
            {
                **self._keep.model_dump(),
                "name": self.name.text().strip(),
                "size": self.size_box.currentData(),
                "type": PC_TYPE,
                "armor_class": self.ac.value(),
                "hit_points": self.hp.value(),
                "speeds": Speeds(**{m: box.value() for m, box in self.speeds.items()}),
                "abilities": self.ability_scores(),
                "saving_throws": {},
                "skills": {},
                "senses": Senses(**senses),
                "attacks": self._attack_dicts(),
                "level": self.level.value() or None,
                "attacks_per_action": self.attacks_per_action.value(),
                "character": self.sheet(),
            }
        )

    def accept(self) -> None:
        try:
            self.block = self.build()
        except ValidationError as error:
            self.error.setText(describe_validation_error(error))
            return
        super().accept()


def _sheet_from_listed(block: StatBlock) -> CharacterSheet:
    """A sheet for a character saved before sheets: its listed saves and skills become
    proficiencies, and a passive Perception above 10 + Wis tells Perception's."""
    skills = {s for s in Skill if s.value in block.skills}
    wisdom = block.abilities.modifier(Ability.WIS)
    if block.senses.passive_perception - 10 - wisdom >= block.proficiency:
        skills.add(Skill.PERCEPTION)
    return CharacterSheet(
        save_proficiencies=frozenset(block.saving_throws), skill_proficiencies=frozenset(skills)
    )


def _labelled_grid(boxes: dict[str, QSpinBox]) -> QGridLayout:
    """Spin boxes two to a row, each after its name (speeds, senses)."""
    grid = QGridLayout()
    for index, (name, box) in enumerate(boxes.items()):
        row, column = divmod(index, 2)
        grid.addWidget(QLabel(name), row, 2 * column)
        grid.addWidget(box, row, 2 * column + 1)
    return grid
