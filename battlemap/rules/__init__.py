"""Rules layer: rulesets as validated data, dice, and the combat engine. No Qt.

- ``schema`` / ``enums``: the ``Ruleset`` model and its documented enumerations.
- ``loader``: YAML files -> ``Ruleset`` (``load_registry(user_dir)``, ``RulesetError``).
- ``cli``: ``battlemap rulesets check|schema|list``.
- ``dice``: d20 notation rolled from the combat's ``DiceState`` (``roll``).
- ``initiative``: ``start_combat``, ``determine_surprise``, ``roll_initiative``,
  ``set_initiative``, ``reorder``.
- ``turns``: ``begin_combat``, ``end_turn``, ``take_turn_now``, ``add_combatant``,
  ``remove_combatant``.
- ``economy``: ``take_action``, ``spend_attack``, ``use_reaction``, ``interact_with_object``.
- ``movement``: ``movement_budget``, ``spend_movement``, ``stand_up``, ``drop_prone``,
  ``mount_or_dismount``.
- ``conditions``: ``apply_condition``, ``remove_condition``, ``set_exhaustion``, ``denial``,
  ``reactions_left``.
- ``mounts``: ``control_mount``, ``release_mount`` (a controlled mount on its rider's initiative).
- ``falling_off``: ``fall_off_save`` (a rider's save to stay mounted; returns ``Outcome``).
- ``damage`` / ``healing`` / ``death`` / ``rests``: the damage pipeline, hit points, dying,
  ``short_rest``, ``long_rest``, ``interrupt_rest``; these return ``Outcome`` (``vitals``).
- ``attacks`` / ``saves`` / ``contests`` / ``opportunity``: attack rolls, saving throws,
  grapples and shoves, opportunity attacks.

Every engine call takes the ``CombatState`` (``battlemap.model.combat``) plus the ruleset and
the encounter, and returns ``(new_state, events)`` or raises a ``CombatError`` (``errors``).
"""
