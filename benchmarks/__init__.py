"""Benchmarks: ``python -m benchmarks [--cpu] [name-filter]`` times every case and prints a table.

Each ``benchmarks/bench_*.py`` module defines ``cases()`` returning ``(name, setup)`` pairs;
``setup()`` prepares the data and returns the function to time, so preparation is not
counted. Timings are the best, the median and the worst of several runs, in milliseconds, by
the wall clock or (``--cpu``) the CPU time of the benchmark's thread.
"""
