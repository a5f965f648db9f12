"""Benchmarks: ``make bench`` runs every ``bench/bench_*.py`` and writes ``bench/results.json``.

A benchmark is a function decorated with :func:`benchmark`; it returns its figure (a number in
the declared unit), or a dict of figures such as ``{"p50": ..., "p95": ...}`` that are recorded as
``<name>_p50`` and so on (``unit`` may then be a dict too, a unit per figure, where they differ). :func:`per_call` times a function; :func:`percentiles` summarises a list
of timings. Benchmarks measure; they never assert.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Benchmark:
    name: str
    unit: str | dict[str, str]
    description: str
    run: Callable[[], float | dict[str, float]]


REGISTERED: list[Benchmark] = []


def benchmark(name: str, unit: str | dict[str, str], description: str):
    def register(fn: Callable[[], float]) -> Callable[[], float]:
        REGISTERED.append(Benchmark(name, unit, description, fn))
        return fn
    return register


def per_call(fn: Callable[[], object], min_seconds: float = 0.5, repeats: int = 5) -> float:
    """Seconds per call of ``fn``: the best of ``repeats`` rounds, each at least ``min_seconds`` long."""
    calls = 1
    while True:
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        elapsed = time.perf_counter() - started
        if elapsed >= min_seconds / repeats:
            break
        calls *= 2
    best = elapsed / calls
    for _ in range(repeats - 1):
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter() - started) / calls)
    return best


def percentiles(samples: list[float], points: tuple[int, ...] = (50, 95)) -> dict[str, float]:
    """``{"p50": ..., "p95": ...}`` of the samples (nearest-rank percentiles)."""
    ordered = sorted(samples)
    return {f"p{p}": ordered[min(len(ordered) - 1, max(0, -(-p * len(ordered) // 100) - 1))] for p in points}
