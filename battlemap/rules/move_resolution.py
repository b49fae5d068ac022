"""A move with its opportunity attacks, resolved: one pure command for the whole move (what a
token drop does).

Outside a combat a legal move is a plain ``MoveCreature``. In combat the move is walked in
segments: movement is spent with the engine up to each opportunity attack, the DM answers
(take with the app's dice, take with dice typed from the table, skip, or call the move off),
a taken attack is resolved by the engine with the mover where it stands at that moment, and
the move goes on unless the attack stopped the mover. The move, the movement spent and every
attack's result become ONE ``ApplyCombatStep`` (one undo step).

``MoveResolution`` is resumable: it stops at each available attack (``pending``) until
``answer`` is called, so the UI can ask without a modal dialog. ``resolve_move`` runs it to
the end with a synchronous ``Chooser``. What a pending attack would roll against comes from
``plan_opportunity`` (the engine's checks, no dice).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass

from battlemap.geometry import MapIndex, MoveResult
from battlemap.model.combat import CombatState
from battlemap.model.combat_commands import ApplyCombatStep
from battlemap.model.document import Command, MoveCreature
from battlemap.model.encounter import Encounter
from battlemap.model.ids import EntityId
from battlemap.model.statblock import StatBlock
from battlemap.rules.attack_log import log_attack_reasons
from battlemap.rules.attack_situation import attack_situation
from battlemap.rules.attacks import (
    AttackOptions,
    AttackPlan,
    AttackProfile,
    AttackResult,
    AttackSituation,
)
from battlemap.rules.damage import Defenses
from battlemap.rules.errors import CombatError, InvalidRequestError
from battlemap.rules.move_answer import Answer as Answer  # their home: the prompt needs them
from battlemap.rules.move_answer import Choice as Choice  # at start, without the engine
from battlemap.rules.movement import spend_movement, spend_split
from battlemap.rules.opportunity import (
    OpportunityOffer,
    OpportunityResult,
    offers_from_move,
    opportunity_profile,
    plan_opportunity,
    resolve_opportunity,
)
from battlemap.rules.outcome import Outcome, running_combat, with_combat
from battlemap.rules.schema import Ruleset
from battlemap.rules.statblocks import creature_defenses, find_statblock

Chooser = Callable[[OpportunityOffer, str, str], Choice]
"""Asked per available attack: (offer, attacker's name, mover's name) -> choice."""


@dataclass(frozen=True)
class MoveOutcome:
    """The command to push (None: nothing changes) and a status-bar message."""

    command: Command | None
    message: str


@dataclass(frozen=True)
class PendingOffer:
    """An available opportunity attack waiting for the DM.

    Attributes:
        offer: the engine's offer (``position``: the mover's cell when the attack happens).
        attacker, mover: the creatures' names.
        profile: the attack the engine will make (first melee attack, else unarmed).
        preview: the engine's plan of the attack (roll mode with reasons, AC with its parts),
            or None when the engine would refuse the attack (``refusal`` says why).
        number, total: this is attack ``number`` (from 1) of ``total`` available ones.
        done: what happened so far in this move ("Goblin's opportunity attack misses").
        error: why the last answer was refused (typed dice that can't be), else "".
    """

    offer: OpportunityOffer
    attacker: str
    mover: str
    profile: AttackProfile
    preview: AttackPlan | None
    refusal: str
    number: int
    total: int
    done: tuple[str, ...] = ()
    error: str = ""


def _placed(encounter: Encounter, creature_id: EntityId, xy: tuple[float, float]) -> Encounter:
    creature = encounter.creature(creature_id)
    return encounter.replace_creature(creature.model_copy(update={"x": xy[0], "y": xy[1]}))


Steps = Generator[PendingOffer, Answer, MoveOutcome]


@dataclass(frozen=True)
class AttackAt:
    """One available attack's inputs: the encounter and combat with the mover standing where
    the attack happens, the attack, the geometry's situation and the mover's defenses."""

    encounter: Encounter
    combat: CombatState
    ruleset: Ruleset
    offer: OpportunityOffer
    profile: AttackProfile
    situation: AttackSituation
    defenses: Defenses

    def take(
        self,
        d20: tuple[int, ...] | None,
        damage_rolls: tuple[int, ...] | None,
        apply_damage: bool = True,
    ) -> Outcome[OpportunityResult]:
        """Make the attack (None dice: the app rolls them). Raises the engine's errors."""
        options = AttackOptions(
            d20=d20, damage_rolls=damage_rolls, defenses=self.defenses, apply_damage=apply_damage
        )
        return resolve_opportunity(
            with_combat(self.encounter, self.combat), self.ruleset, self.offer, take=True,
            profile=self.profile, situation=self.situation, options=options,
        )  # fmt: skip

    def preview(self) -> tuple[AttackPlan | None, str]:
        """(the engine's plan of the attack: roll mode and AC, ""), or (None, the reason the
        engine refuses it). Nothing is rolled."""
        options = AttackOptions(defenses=self.defenses)
        try:
            plan = plan_opportunity(
                with_combat(self.encounter, self.combat), self.ruleset, self.offer,
                self.profile, self.situation, options,
            )  # fmt: skip
        except CombatError as error:
            return None, str(error)
        return plan, ""


class MoveResolution:
    """One legal drop resolved step by step (see the module docstring).

    ``offset`` is the mover's position inside its top-left cell (a Tiny creature's half
    cell); positions in ``move`` are whole top-left cells. ``end`` is where the token was
    dropped (snapped; inside the move's last cell, so a Tiny creature may end on any half
    cell of it). ``library``: stat blocks by name, for creatures made from one
    (``find_statblock``): the attacker's melee attack and the mover's resistances,
    vulnerabilities and immunities come from the stat block each one uses.

    After construction either ``pending`` is the first attack waiting for an answer, or
    ``outcome`` is set. Each ``answer`` moves on to the next attack or to the outcome; an
    answer with typed dice the engine refuses keeps the same attack pending with ``error``
    set. The outcome's command is None when the engine refuses the move (its reason is the
    message) or the DM calls it off. Nothing is applied to any document here.
    """

    def __init__(
        self,
        encounter: Encounter,
        ruleset: Ruleset,
        index: MapIndex,
        mover_id: EntityId,
        move: MoveResult,
        offset: tuple[float, float],
        end: tuple[float, float],
        library: Mapping[str, StatBlock] | None = None,
    ) -> None:
        self.encounter = encounter
        self.library: Mapping[str, StatBlock] = library or {}
        self.ruleset = ruleset
        self.index = index
        self.mover_id = mover_id
        self.move = move
        self.offset = offset
        self.end = end
        self.name = encounter.creature(mover_id).name
        self.pending: PendingOffer | None = None
        self.outcome: MoveOutcome | None = None
        self._attack: AttackAt | None = None
        self._steps = self._run()
        self._advance(None)

    def answer(self, answer: Answer) -> None:
        """Answer the pending attack. Raises ValueError when nothing is pending."""
        if self.pending is None:
            raise ValueError("no opportunity attack is waiting for an answer")
        self._advance(answer)

    def trial(self, d20: tuple[int, ...]) -> AttackResult:
        """The pending attack with the ``d20`` faces typed, tried without recording anything
        and without damage: whether it hits, and whether critically (the DM then knows which
        damage dice to roll at the table).

        Raises:
            ValueError: nothing is pending; InvalidRequestError (a ValueError): faces that
                can't be (see ``make_attack``), or the engine refuses the attack.
        """
        if self.pending is None or self._attack is None:
            raise ValueError("no opportunity attack is waiting for an answer")
        found = self._attack.take(d20, None, apply_damage=False).result.attack
        assert found is not None  # a taken attack always has one
        return found

    def call_off(self, why: str) -> MoveOutcome:
        """Abandon the move (nothing changes) with ``why`` in the message; returns the outcome."""
        self._steps.close()
        self.pending = None
        self.outcome = MoveOutcome(
            None, f"Move of {self.name} called off ({why}); nothing changed."
        )
        return self.outcome

    def _advance(self, answer: Answer | None) -> None:
        try:
            self.pending = self._steps.send(answer) if answer is not None else next(self._steps)
        except StopIteration as stop:
            self.pending, self.outcome = None, stop.value
        except (CombatError, ValueError, KeyError) as error:
            self.pending = None
            self.outcome = MoveOutcome(
                None, f"{self.name} can't move: {error}. (Alt-drop places it without the rules.)"
            )

    def at(self, cell: tuple[int, int]) -> tuple[float, float]:
        return (cell[0] + self.offset[0], cell[1] + self.offset[1])

    def _run(self) -> Steps:
        encounter, mover = self.encounter, self.encounter.creature(self.mover_id)
        combat = encounter.combat
        if combat is None or not combat.has(self.mover_id):
            text = f"Move {self.name} ({self.move.cost_feet:g} ft)"
            return MoveOutcome(MoveCreature(mover.id, (mover.x, mover.y), self.end, text), text)
        return (yield from self._combat_steps(combat))

    def _combat_steps(self, combat: CombatState) -> Steps:
        encounter, ruleset, move, mover_id = self.encounter, self.ruleset, self.move, self.mover_id
        name = self.name
        work, state = encounter, combat
        spent_steps = 0
        notes: list[str] = []

        def spend(upto: int | None) -> None:
            nonlocal state, spent_steps
            done_feet, done_distance = spend_split(move, spent_steps)
            feet, distance = spend_split(move, upto)
            if feet - done_feet > 1e-9:
                spent = spend_movement(
                    with_combat(work, state), ruleset, mover_id, feet - done_feet,
                    distance_feet=distance - done_distance,
                )  # fmt: skip
                state = running_combat(spent.encounter)
            spent_steps = len(move.steps) if upto is None else upto

        offers = offers_from_move(with_combat(encounter, combat), ruleset, mover_id, move)
        defenses = creature_defenses(encounter, ruleset, self.library, mover_id)
        total = sum(1 for offer in offers if offer.available)
        number = 0
        for offer in offers:
            attacker = encounter.creature(offer.attacker_id)
            if not offer.available:
                notes.append(offer.reason)
                continue
            number += 1
            spend(offer.step_index)
            assert offer.position is not None
            work = _placed(work, mover_id, self.at(offer.position))
            block = find_statblock(attacker, encounter, self.library)
            profile = opportunity_profile(ruleset, attacker, block)
            situation = attack_situation(
                self.index, work, state, ruleset, offer.attacker_id, mover_id, profile
            )
            attack = AttackAt(work, state, ruleset, offer, profile, situation, defenses)
            self._attack = attack
            preview, refusal = attack.preview()
            pending = PendingOffer(
                offer, attacker.name, name, profile, preview, refusal, number, total, tuple(notes)
            )
            while True:
                answer = yield pending
                if answer.choice is Choice.CANCEL:
                    return MoveOutcome(None, f"Move of {name} called off; nothing changed.")
                if answer.choice is Choice.SKIP:
                    applied = resolve_opportunity(
                        with_combat(work, state), ruleset, offer, take=False
                    )
                    break
                try:
                    applied = attack.take(answer.d20, answer.damage_rolls)
                    break
                except InvalidRequestError as error:
                    if answer.d20 is None and answer.damage_rolls is None:
                        raise  # not about typed dice: the move can't be made
                    pending = PendingOffer(
                        offer, attacker.name, name, profile, preview, refusal, number, total,
                        tuple(notes), str(error),
                    )  # fmt: skip
            self._attack = None
            work, state = applied.encounter, applied.combat or state
            result = applied.result
            if result.attack is not None:
                state = log_attack_reasons(state, result.attack)  # as the attack dialog logs
            notes.append(attack_note(attacker.name, name, result.attack))
            if not result.move_continues:
                notes.append(f"{name} stops: {result.reason}")
                text = f"Move {name} (stopped by an opportunity attack)"
                return MoveOutcome(
                    ApplyCombatStep.between(encounter, work, state, text), _join(notes)
                )
        spend(None)
        work = _placed(work, mover_id, self.end)
        text = f"Move {name} ({move.cost_feet:g} ft)"
        notes.insert(0, f"{name} moves {move.cost_feet:g} ft")
        return MoveOutcome(ApplyCombatStep.between(encounter, work, state, text), _join(notes))


def attack_note(attacker: str, mover: str, attack: AttackResult | None) -> str:
    """One attack's result for the status bar: the roll against the AC and the damage."""
    if attack is None:
        return f"{attacker} lets {mover} go"
    verdict = "critical hit" if attack.critical else "hits" if attack.hit else "misses"
    roll = f"{attack.natural}{attack.to_hit:+d} = {attack.total} vs AC {attack.armor_class.value}"
    text = f"{attacker}'s opportunity attack {verdict} ({roll})"
    damage = attack.damage
    if damage is not None:
        text += f": {damage.total} damage, HP {damage.hp_before} -> {damage.hp_after}"
    return text


def resolve_move(
    encounter: Encounter,
    ruleset: Ruleset,
    index: MapIndex,
    mover_id: EntityId,
    move: MoveResult,
    offset: tuple[float, float],
    end: tuple[float, float],
    choose: Chooser,
    library: Mapping[str, StatBlock] | None = None,
) -> MoveOutcome:
    """A ``MoveResolution`` run to its end, asking ``choose`` for each available attack
    (the app rolls taken ones)."""
    resolution = MoveResolution(encounter, ruleset, index, mover_id, move, offset, end, library)
    while (pending := resolution.pending) is not None:
        resolution.answer(Answer(choose(pending.offer, pending.attacker, pending.mover)))
    assert resolution.outcome is not None
    return resolution.outcome


def _join(notes: list[str]) -> str:
    return "; ".join(notes) + "."
