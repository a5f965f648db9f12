"""Run every benchmark and write the figures as JSON: ``python -m bench.run --output bench/results.json``."""

from __future__ import annotations

import argparse
import datetime
import importlib
import json
import os
import platform
import sys
from pathlib import Path

import bench


def machine() -> dict:
    info = {"platform": platform.platform(), "machine": platform.machine(), "processor": platform.processor(),
            "cpus": os.cpu_count(), "python": platform.python_version()}
    try:
        with open("/proc/meminfo") as meminfo:
            info["memory_kib"] = int(meminfo.readline().split()[1])
    except OSError:
        pass
    return info


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--output", default="bench/results.json", help="where to write the JSON")
    parser.add_argument("--only", help="run only benchmarks whose name contains this text; the output's other "
                        "figures are kept as they were, each with the date it was measured")
    args = parser.parse_args(argv)

    for path in sorted(Path(__file__).parent.glob("bench_*.py")):
        importlib.import_module(f"bench.{path.stem}")
    now = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    results = []
    for item in bench.REGISTERED:
        if args.only and args.only not in item.name:
            continue
        print(f"{item.name} ...", end=" ", flush=True)
        figures = item.run()
        if not isinstance(figures, dict):
            figures = {"": figures}
        units = item.unit if isinstance(item.unit, dict) else dict.fromkeys(figures, item.unit)
        print(", ".join(f"{k or 'value'} {v:.4g} {units[k]}" for k, v in figures.items()), flush=True)
        for suffix, figure in figures.items():
            results.append({"name": f"{item.name}_{suffix}" if suffix else item.name, "figure": figure,
                            "unit": units[suffix], "description": item.description, "date": now})
    if args.only:
        results = _kept(Path(args.output), {r["name"] for r in results}) + results
    report = {"date": now, "machine": machine(), "results": results}
    Path(args.output).parent.mkdir(parents=True, exist_ok=True)
    Path(args.output).write_text(json.dumps(report, indent=2) + "\n")
    print(f"wrote {len(results)} figures to {args.output}")
    return 0


def _kept(output: Path, replaced: set[str]) -> list[dict]:
    """The figures of an earlier ``output`` that this run did not measure again. A figure from before figures
    carried their own date takes the file's, unless a ``measured`` note written beside it says when it was."""
    try:
        earlier = json.loads(output.read_text())
    except (OSError, ValueError):
        return []
    return [r if "date" in r or "measured" in r else {**r, "date": earlier.get("date")}
            for r in earlier.get("results", []) if r.get("name") not in replaced]


if __name__ == "__main__":
    sys.exit(main())
