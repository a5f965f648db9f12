from bench import per_call, percentiles


def test_percentiles_are_nearest_rank():
    assert percentiles([float(v) for v in range(100, 0, -1)]) == {"p50": 50.0, "p95": 95.0}
    assert percentiles([3.0]) == {"p50": 3.0, "p95": 3.0}


def test_per_call_times_a_call():
    calls = []
    seconds = per_call(lambda: calls.append(1), min_seconds=0.01, repeats=2)
    assert seconds > 0 and len(calls) >= 2


def test_a_benchmark_of_several_figures_records_each_in_its_own_unit(tmp_path):
    import json

    from bench import REGISTERED, benchmark
    from bench.run import main

    @benchmark("zz_units_check", {"fps": "frames/s", "share": "fraction"}, "two figures in two units")
    def two() -> dict[str, float]:
        return {"fps": 12.5, "share": 0.25}

    try:
        assert main(["--only", "zz_units_check", "--output", str(tmp_path / "r.json")]) == 0
    finally:
        REGISTERED.pop()
    results = json.loads((tmp_path / "r.json").read_text())["results"]
    assert [(r["name"], r["figure"], r["unit"]) for r in results] == [
        ("zz_units_check_fps", 12.5, "frames/s"), ("zz_units_check_share", 0.25, "fraction")]


def test_a_run_of_some_benchmarks_keeps_the_other_figures_with_their_own_date(tmp_path):
    import json

    from bench import REGISTERED, benchmark
    from bench.run import main

    output = tmp_path / "r.json"
    output.write_text(json.dumps({"date": "2026-01-02T03:04:05+00:00", "machine": {}, "results": [
        {"name": "zz_kept", "figure": 1.0, "unit": "ms", "description": "an older figure"},
        {"name": "zz_noted", "figure": 3.0, "unit": "ms", "description": "merged by hand", "measured": "2026-01-01"},
        {"name": "zz_merge_check", "figure": 9.0, "unit": "ms", "description": "measured again below"}]}))

    @benchmark("zz_merge_check", "ms", "one figure measured now")
    def now() -> float:
        return 2.0

    try:
        assert main(["--only", "zz_merge_check", "--output", str(output)]) == 0
    finally:
        REGISTERED.pop()
    report = json.loads(output.read_text())
    figures = {r["name"]: (r["figure"], r.get("date"), r.get("measured")) for r in report["results"]}
    assert figures == {"zz_kept": (1.0, "2026-01-02T03:04:05+00:00", None), "zz_merge_check": (2.0, report["date"], None),
                       "zz_noted": (3.0, None, "2026-01-01")}  # (its own note says when, not the file's date)
