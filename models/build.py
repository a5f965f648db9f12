"""Rebuild every model from its training recipe (``make models``).

A recipe is a module ``models/<name>/recipe.py`` whose ``main()`` trains on the CPU and writes
``models/<name>/<name>.onnx`` and updates the model card beside it. Recipes run one after another.
"""

from __future__ import annotations

import importlib
import sys
import time
from pathlib import Path


def recipes() -> list[str]:
    here = Path(__file__).parent
    return sorted(p.parent.name for p in here.glob("*/recipe.py"))


def main() -> int:
    names = recipes()
    if not names:
        print("No model recipes yet: the recognition models arrive with the card and pyramid recognition work.")
        return 0
    for name in names:
        started = time.monotonic()
        print(f"== building model {name!r}", flush=True)
        importlib.import_module(f"models.{name}.recipe").main()
        print(f"== {name!r} built in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
