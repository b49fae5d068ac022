"""Benchmarks: ``python -m benchmarks [name-filter]`` times every case and prints a table.

Each ``benchmarks/bench_*.py`` module defines ``cases()`` returning ``(name, setup)`` pairs;
``setup()`` prepares the data and returns the function to time, so preparation is not
counted. Timings are the best and the median of several runs, in milliseconds.
"""
