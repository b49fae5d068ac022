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
- ``falling_off``: ``fall_off_save`` (a rider's save to stay mounted).
- ``damage`` / ``healing`` / ``death`` / ``rests`` / ``group_rest``: the damage pipeline, hit
  points, dying, ``short_rest``, ``long_rest``, ``interrupt_rest``, ``rest_all``.
- ``attacks`` / ``saves`` / ``contests`` / ``opportunity``: attack rolls, saving throws,
  grapples and shoves, opportunity attacks.
- ``legal``: ``legal_actions`` - every choice of a creature now, allowed or refused with the
  reason (what the UI enables its buttons from).
- ``distances``: ``distance_between``: the engine measures the map itself.
- ``draft``: ``Draft``, the working copy an operation changes and packs into an ``Outcome``.
- ``outcome``: ``Outcome`` (the new encounter holding its combat, the result, the events) and
  ``EngineCall``, the one shape the UI's ``CombatSession.run`` takes.

Every engine operation takes ``(encounter, ruleset, ...)`` (the encounter holds its combat)
and returns an ``Outcome``; it builds it on a ``draft.Draft``, the one working copy of an
operation. Refusals are ``CombatError`` (``errors``).
"""
