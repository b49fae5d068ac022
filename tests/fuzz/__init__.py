"""Fuzzing every loader: hostile inputs must be refused by the project's own error types.

``targets`` says how each loader is called and which errors count as a clean refusal;
``seeds`` gathers the real files the mutations start from; ``mutate`` (byte and JSON/YAML
value mutation) and ``strategies`` (hypothesis, one structured strategy per format) make
the inputs; ``worker`` runs them in reused child processes with a memory limit while
``runner`` (``python -m tests.fuzz``, ``make fuzz``) watches for hangs and dead workers and
prints the counts. ``test_slice`` runs a bounded number of the same inputs in ``make test``.
"""
