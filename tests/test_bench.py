from bench import per_call, percentiles


def test_percentiles_are_nearest_rank():
    assert percentiles([float(v) for v in range(100, 0, -1)]) == {"p50": 50.0, "p95": 95.0}
    assert percentiles([3.0]) == {"p50": 3.0, "p95": 3.0}


def test_per_call_times_a_call():
    calls = []
    seconds = per_call(lambda: calls.append(1), min_seconds=0.01, repeats=2)
    assert seconds > 0 and len(calls) >= 2
